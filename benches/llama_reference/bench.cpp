// llama.cpp's own speed for a GGUF file, measured the way llama-bench does
// (pp: one batch of N prompt tokens; tg: N tokens decoded one at a time),
// built against the llama.cpp that heat vendors (llama-cpp-sys-2), so heat's
// `cargo bench --bench local` figures have a reference. See run.sh.
#include "llama.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

static double now_s() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

static void quiet(ggml_log_level, const char *, void *) {}

int main(int argc, char ** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MODEL.gguf [prompt_tokens=475] [gen_tokens=128] [reps=5]\n", argv[0]);
        return 2;
    }
    const int n_prompt = argc > 2 ? std::atoi(argv[2]) : 475;
    const int n_gen = argc > 3 ? std::atoi(argv[3]) : 128;
    const int reps = argc > 4 ? std::atoi(argv[4]) : 5;
    llama_log_set(quiet, nullptr);
    llama_backend_init();
    llama_model * model = llama_model_load_from_file(argv[1], llama_model_default_params());
    if (!model) {
        std::fprintf(stderr, "could not load %s\n", argv[1]);
        return 1;
    }
    const llama_vocab * vocab = llama_model_get_vocab(model);
    const int n_vocab = llama_vocab_n_tokens(vocab);

    for (int threads : {1, 2}) {
        llama_context_params cp = llama_context_default_params();
        cp.n_ctx = 2048;
        cp.n_batch = 512;
        cp.n_threads = threads;
        cp.n_threads_batch = threads;
        llama_context * ctx = llama_init_from_model(model, cp);
        std::mt19937 rng(42);
        std::vector<llama_token> tokens(n_prompt);
        for (auto & t : tokens) t = rng() % n_vocab;
        tokens[0] = llama_vocab_bos(vocab);

        std::vector<double> pp, tg;
        for (int r = 0; r < reps + 1; r++) {  // the first run warms up
            llama_memory_clear(llama_get_memory(ctx), true);
            double t0 = now_s();
            llama_decode(ctx, llama_batch_get_one(tokens.data(), n_prompt));
            double t1 = now_s();
            llama_memory_clear(llama_get_memory(ctx), true);
            llama_token tok = llama_vocab_bos(vocab);
            double t2 = now_s();
            for (int i = 0; i < n_gen; i++) {
                llama_decode(ctx, llama_batch_get_one(&tok, 1));
                tok = rng() % n_vocab;
            }
            double t3 = now_s();
            if (r > 0) {
                pp.push_back(n_prompt / (t1 - t0));
                tg.push_back(n_gen / (t3 - t2));
            }
        }
        std::sort(pp.begin(), pp.end());
        std::sort(tg.begin(), tg.end());
        std::printf("threads %d: pp%d %.0f tok/s, tg%d %.0f tok/s (median of %d)\n", threads, n_prompt,
                    pp[pp.size() / 2], n_gen, tg[tg.size() / 2], reps);
        llama_free(ctx);
    }
    llama_model_free(model);
    return 0;
}

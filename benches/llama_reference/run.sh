#!/usr/bin/env bash
# Builds llama.cpp with its own defaults (native CPU features), then
# bench.cpp against it, and runs it on the default model: llama.cpp's own
# figures for the file heat's engine runs. Then heat's engine on the same
# file and threads (`cargo bench --bench local`, engine figures only), and
# the ratios, so both come from one run. Needs a C++ compiler and cmake
# (heat itself needs neither; cmake is installed from PyPI when missing).
# The source is $LLAMA_CPP_SRC (a llama.cpp checkout), else the copy
# vendored in the llama-cpp-python sdist on PyPI, downloaded with its build
# backend (scikit-build-core) installed first: `--no-build-isolation` reads
# the sdist's metadata with the backend already there, and fails without it.
# Usage: benches/llama_reference/run.sh [MODEL.gguf]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${LLAMA_CPP_SRC:-}"
command -v cmake >/dev/null || python3 -m pip install --quiet cmake
if [ -z "$src" ]; then
  python3 -m pip install --quiet scikit-build-core
  fetch=/tmp/heat-llama-src
  mkdir -p "$fetch"
  pip download --no-binary :all: --no-deps --no-build-isolation -d "$fetch" "llama-cpp-python==${LLAMA_CPP_PYTHON:-0.3.16}" >/dev/null
  tar -xzf "$fetch"/llama_cpp_python-*.tar.gz -C "$fetch"
  src=$(ls -d "$fetch"/llama_cpp_python-*/vendor/llama.cpp | head -1)
fi
build="${LLAMA_REFERENCE_BUILD:-/tmp/heat-llama-reference}"
model="${1:-${HEAT_DATA_DIR:-$HOME/.local/share/heat}/models/SmolLM2-135M-Instruct.Q4_1.gguf}"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF \
  -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_APP=OFF >/dev/null
# The compiler's warnings about llama.cpp's code go to a log, shown only when the build fails.
cmake --build "$build" --target llama -j "$(nproc)" >"$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
libs=$(find "$build" -name '*.a' | sort -r | tr '\n' ' ')
g++ -O2 -std=c++17 -I"$src/include" -I"$src/ggml/include" "$here/bench.cpp" \
  -Wl,--start-group $libs -Wl,--end-group -fopenmp -lpthread -o "$build/llama-reference"
"$build/llama-reference" "$model" | tee "$build/llama.txt"
cd "$here/../.."
# The threads as `heat` sets them for `providers.local.threads` where its own
# kernel runs (x86-64 with AVX2): all of them in rayon's pool, one in candle's.
for threads in 1 2; do
  RAYON_NUM_THREADS=$threads CANDLE_NUM_THREADS=1 HEAT_BENCH_ENGINE_ONLY=1 HEAT_TEST_MODEL="$model" \
    cargo bench --quiet --bench local 2>/dev/null | grep '^heat '
done | tee "$build/heat.txt"
# heat's time over llama.cpp's for the same work: 1.00 is the same speed.
awk '/^threads/ { t = $2 + 0; pp[t] = $4; tg[t] = $7 }
     /^heat threads/ { t = $3 + 0; printf "threads %d: prompt %.2f×, generation %.2f× llama.cpp'"'"'s time\n", t, pp[t] / $5, tg[t] / $8 }' \
  "$build/llama.txt" "$build/heat.txt"

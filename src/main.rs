//! The `heat` binary: everything lives in the library's `cli` module, but
//! for the one setting that must be made before any thread starts.

fn main() -> std::process::ExitCode {
    // `heat __agent-guard PID -- CLI…`: this process guards an agent CLI heat started.
    let args: Vec<String> = std::env::args().collect();
    if let Some(code) = heat::provider::agent::guard::from_args(&args) {
        return code;
    }
    heat::provider::agent::guard::enable();
    set_model_threads();
    heat::cli::main()
}

/// The embedded model's threads per computation: `providers.local.threads`
/// (1 unless set), unless `CANDLE_NUM_THREADS` is already set. Its engine
/// has no other way to be told: candle reads `CANDLE_NUM_THREADS` for its
/// own pool and `RAYON_NUM_THREADS` for rayon's (and, when that is unset,
/// counts the cores in `/proc/cpuinfo` at every float product, 7 % of a
/// token's time); heat's own kernel runs on rayon's pool.
/// `heat::provider::local::thread_variables` says what each gets. A
/// variable already set is left as it is.
#[allow(unsafe_code)]
fn set_model_threads() {
    let threads = std::env::var("CANDLE_NUM_THREADS")
        .ok()
        .and_then(|set| set.parse().ok())
        .unwrap_or_else(heat::cli::model_threads);
    for (variable, value) in heat::cli::model_thread_variables(threads) {
        if std::env::var_os(variable).is_none() {
            // SAFETY: nothing else runs yet: the async runtime, the logger
            // and every model thread start after this, so no thread can
            // read the environment while it is written.
            unsafe { std::env::set_var(variable, value) };
        }
    }
}

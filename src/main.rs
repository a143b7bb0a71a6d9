//! The `heat` binary: everything lives in the library's `cli` module, but
//! for the one setting that must be made before any thread starts.

fn main() -> std::process::ExitCode {
    set_model_threads();
    heat::cli::main()
}

/// The embedded model's threads per computation: `providers.local.threads`
/// (1 unless set), unless `CANDLE_NUM_THREADS` is already set. Its engine
/// reads that variable once, when it first computes, and has no other way
/// to be told.
#[allow(unsafe_code)]
fn set_model_threads() {
    if std::env::var_os("CANDLE_NUM_THREADS").is_some() {
        return;
    }
    let threads = heat::cli::model_threads();
    // SAFETY: nothing else runs yet: the async runtime, the logger and every
    // model thread start after this, so no thread can read the environment
    // while it is written.
    unsafe { std::env::set_var("CANDLE_NUM_THREADS", threads.to_string()) };
}

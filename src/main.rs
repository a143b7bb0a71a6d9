//! The `heat` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    heat::cli::main()
}

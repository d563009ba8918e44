//! The `toolgate` binary: the library's [`toolgate::main`] is the whole program.

fn main() -> std::process::ExitCode {
    toolgate::main()
}

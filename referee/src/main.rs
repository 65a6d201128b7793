//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    // `cli::main` returns once its context is dropped: what the sandbox
    // made on the machine is gone before the process exits.
    std::process::exit(cli::main().code());
}

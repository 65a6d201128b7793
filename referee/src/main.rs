//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}

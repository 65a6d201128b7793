//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    let code = cli::main();
    referee_engine::bot::remove_workdirs_folder();
    referee_engine::bot::sandbox::remove_cgroup_roots();
    std::process::exit(code.code());
}

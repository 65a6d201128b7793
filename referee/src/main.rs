//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    // The launcher every bot is started through (see `bot::launch`).
    if std::env::args_os().nth(1).as_deref() == Some(referee::bot::launch::LAUNCH_ARG.as_ref()) {
        referee::bot::launch::run();
    }
    referee::bot::launch_with_this_executable();
    let code = cli::main();
    referee::bot::remove_workdirs_folder();
    referee::bot::sandbox::remove_cgroup_roots();
    std::process::exit(code);
}

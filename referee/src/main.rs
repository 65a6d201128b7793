//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    // First, while the referee has one thread: it is forked (see its docs).
    let sweeper = referee_engine::bot::start_sweeper();
    // A reader that goes away (`referee check ... | head -3`) makes the
    // next print to stdout fail, which panics: that is no failure of the
    // referee's, so it ends quietly, as a program ended by SIGPIPE would.
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !cli::is_closed_stdout(info.payload()) {
            report_panic(info);
        }
    }));
    // `cli::main` returns once its context is dropped: what the sandbox
    // made on the machine is gone before the process exits (and so when
    // it unwinds from a closed stdout).
    let code = match std::panic::catch_unwind(cli::main) {
        Ok(code) => code,
        Err(payload) if cli::is_closed_stdout(payload.as_ref()) => cli::ExitCode::ClosedStdout,
        Err(payload) => std::panic::resume_unwind(payload),
    };
    // Everything made is removed: no sweep, and no process of the
    // referee's outlives it.
    if let Some(sweeper) = sweeper {
        sweeper.dismiss();
    }
    std::process::exit(code.code());
}

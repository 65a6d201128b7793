//! The `referee` command line. Parsing and exit codes live here and in
//! `cli/`; everything else is the library.

mod cli;

fn main() {
    // First, while the referee has one thread: it is forked (see its docs).
    let sweeper = starts_bots()
        .then(referee_engine::bot::start_sweeper)
        .flatten();
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

/// Whether the command may start bots (or compilers), and so make working
/// folders and cgroups that a killed referee would leave to its sweeper.
/// The commands that only read results, and help, start no sweeper: its
/// fork and its end cost some 0.2 to 0.3 ms a run. Any other word (a new
/// command, an option's value) is taken to start bots.
fn starts_bots() -> bool {
    const START_NO_BOT: &[&str] = &[
        "replay",
        "merge",
        "grade",
        "report",
        "languages",
        "serve",
        "watch",
        "help",
    ];
    std::env::args_os()
        .skip(1)
        .find(|arg| !arg.to_string_lossy().starts_with('-'))
        .is_some_and(|command| !START_NO_BOT.iter().any(|c| command == *c))
}

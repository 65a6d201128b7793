//! How bots are started: under basic the referee starts a bot that may not
//! fork itself (no launcher between them), in a process group of its own
//! in the referee's session; a bot that may fork goes through a launcher
//! and gets a session of its own. What each bot may do is the sandbox
//! tests' (`sandbox`, `fair_play`): the same under either start.

use crate::sandbox::identities_with;

/// The session the referee runs in: the test's own (the harness starts the
/// referee without a session of its own).
/// (From `/proc/self/stat`: in a container whose session leader lies
/// outside its PID namespace the id reads 0, as the bot's does.)
fn own_session() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // After the command's name in parentheses: state, parent, group, session.
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    after.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn a_bot_that_may_not_fork_is_started_by_the_referee_in_its_session() {
    let seats = identities_with(&["--sandbox", "basic"]);
    for seat in &seats {
        // Its own process group, which the referee signals as a whole.
        assert_eq!(seat["group"], seat["pid"], "{seat}");
        // The referee's session: no launcher (which leads a session of its
        // own) between them, and no scheduling group per bot.
        assert_eq!(seat["session"].as_u64(), Some(own_session()), "{seat}");
    }
    // Both are children of the same process, the referee.
    assert_eq!(seats[0]["parent"], seats[1]["parent"], "{seats:?}");
}

#[test]
fn a_bot_that_may_fork_is_kept_by_a_launcher_in_a_session_of_its_own() {
    let seats = identities_with(&["--sandbox", "basic", "--allow-fork"]);
    for seat in &seats {
        assert_eq!(seat["session"], seat["pid"], "{seat}");
        assert_eq!(seat["group"], seat["pid"], "{seat}");
    }
    // Each has a launcher of its own for a parent.
    assert_ne!(seats[0]["parent"], seats[1]["parent"], "{seats:?}");
}

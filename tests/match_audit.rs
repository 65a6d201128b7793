//! `referee match` as a newcomer meets it: a reply that looks right on the
//! terminal but is not is shown as it is.

use crate::harness::*;

/// A bot that answers with a character that shows as nothing (a byte
/// order mark, a zero-width space) loses by `protocol`, and the readable
/// account quotes its reply with that character escaped: the newcomer sees
/// why `0 1 2 3 4` was refused.
#[test]
fn an_invisible_character_in_a_reply_is_shown_escaped() {
    for (mode, escaped, raw) in [
        ("bom", "\\u{feff}0 1 2 3 4", '\u{feff}'),
        ("zwsp", "0 1\\u{200b} 2 3 4", '\u{200b}'),
    ] {
        let bot = format!("python3 {} {mode}", sample_file("hostile/invisible.py"));
        let run = Referee::new()
            .args(["match", "arrow5"])
            .bot(&bot)
            .bot(sample_bin("arrow5_random"))
            .args(["--max-rounds", "5", "--seed", "3"])
            .case(mode)
            .run()
            .succeeds()
            .stdout_has("disqualified (protocol) at reply 1")
            .stdout_has(escaped);
        assert!(!run.stdout.contains(raw), "{mode}: {}", run.stdout);
        // The record keeps the exact reply: JSON has its own quoting.
        let record = Referee::new()
            .args(["match", "arrow5"])
            .bot(&bot)
            .bot(sample_bin("arrow5_random"))
            .args(["--max-rounds", "5", "--seed", "3", "--json"])
            .case(mode)
            .run()
            .succeeds()
            .json();
        let detail = record["players"][0]["disqualification"]["detail"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(detail.contains(raw), "{mode}: {detail}");
    }
}

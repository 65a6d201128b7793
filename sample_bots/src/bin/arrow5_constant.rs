//! Arrow 5 bot for benchmarks: answers every request at once with the same
//! line (code 0 1 2 3 4, attack 5 6 7 8 9), so two of them never crack each
//! other and a game runs to the round cap doing nothing but exchanges.

use sample_bots::serve;

fn main() {
    serve(|line| match line.split_whitespace().next()? {
        "code" => Some("0 1 2 3 4".to_string()),
        "attack" => Some("5 6 7 8 9".to_string()),
        _ => None,
    });
}

//! A hostile Mastermind solver for the fair-play tests: it knows the
//! referee's source and every public input (the greeting's seed, the
//! default bench seed), and tries to rebuild the secret from them before it
//! plays a consistent random game.
//!
//! It tries every derivation a contestant could reproduce: the one the
//! referee used before codes were drawn with a secret key (ChaCha8 seeded by
//! the bench seed, on the secret's stream), and today's with any key it can
//! guess (all zeros, all ones, the seed itself). Given the real key as its
//! argument (`predictor HEX`), it must crack every secret at its first
//! attack: that proves the attack works, so that its failure without the
//! key means the key is what stops it.
//!
//! In a two-player game with codes the referee draws it tries every game
//! seed a small tournament's schedule gives, from the public tournament
//! seeds, and attacks with the opponent's code first if one matches. Given
//! the opponent's content hash too (`predictor KEY HEX`: a contestant who
//! knows the opponent's program can compute it), it derives every game's
//! seed of the test's tournament file as the referee does, from the file's
//! seed and options and the two bots' contents (its own it reads).
//!
//! Usage: `referee bench mastermind "target/debug/examples/predictor [KEY [HEX]]" ...`

use std::io::{self, BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee_engine::bench::bot_seed;
use referee_engine::games::mastermind::{feedback, Code, CodeSource, Config, Feedback, Mastermind};
use referee_engine::games::{Game, Seat};
use referee_engine::key::RefereeKey;
use referee_engine::tournament::identity::{bot_content, GameIdentities, Hash256};
use referee_engine::tournament::schedule::game_seed;
use referee_engine::tournament::TournamentPlan;

/// Bench seeds a contestant would try: the default and a few more.
const PUBLIC_SEEDS: std::ops::Range<u64> = 0..16;

fn old_bot_seed(seed: u64, index: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    u64::from(rng.gen::<u32>())
}

/// The secret's index, if some public derivation gives `greeting_seed`.
fn predict(greeting_seed: u64, count: u64, keys: &[RefereeKey]) -> Option<u64> {
    for seed in PUBLIC_SEEDS {
        for index in 0..count {
            if old_bot_seed(seed, index) == greeting_seed
                || keys
                    .iter()
                    .any(|k| bot_seed(k, seed, index) == greeting_seed)
            {
                return Some(index);
            }
        }
    }
    None
}

/// In a two-player game with codes drawn by the referee: the opponent's
/// code, if some public derivation of some scheduled game's seed gives this
/// very greeting. A contestant knows the tournament file's seed (or tries
/// the small ones) and the schedule's formula, so it tries every pairing
/// and round of a small tournament.
fn predict_match(
    greeting: &str,
    config: &Config,
    seat: Seat,
    keys: &[RefereeKey],
    derived: &[u64],
) -> Option<Code> {
    let by_place = PUBLIC_SEEDS.chain([2026, 99, 12345]).flat_map(|seed| {
        (0..16).flat_map(move |pairing| (0..16).map(move |round| game_seed(seed, pairing, round)))
    });
    for game in derived.iter().copied().chain(by_place) {
        let mut draws: Vec<Mastermind> = keys
            .iter()
            .map(|k| Mastermind::new(config.clone(), &mut k.rng(game)))
            .collect();
        draws.push(Mastermind::new(
            config.clone(),
            &mut ChaCha8Rng::seed_from_u64(game),
        ));
        if let Some(found) = draws.iter().find(|g| g.greeting(seat) == greeting) {
            return found.code(seat.other()).cloned();
        }
    }
    None
}

fn main() {
    let derived = derived_seeds();
    let mut keys: Vec<RefereeKey> = ["00", "ff", "01"]
        .iter()
        .map(|b| RefereeKey::from_hex(&b.repeat(32)).expect("64 hex digits"))
        .collect();
    if let Some(given) = std::env::args().nth(1) {
        keys.insert(
            0,
            RefereeKey::from_hex(&given).expect("a key of 64 hex digits"),
        );
    }
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let greeting = lines.next().and_then(Result::ok).unwrap_or_default();
    let words: Vec<&str> = greeting.split_whitespace().collect();
    let [_, pegs, colours, _role, _attacks, seed] = words[..] else {
        eprintln!("predictor: unexpected greeting '{greeting}'");
        return;
    };
    let (pegs, colours, seed): (u8, u8, u64) = (
        pegs.parse().unwrap(),
        colours.parse().unwrap(),
        seed.parse().unwrap(),
    );
    let count = u64::from(colours).pow(u32::from(pegs));
    for k in &mut keys {
        if k.to_hex() == "01".repeat(32) {
            // A key made from the greeting's seed.
            *k = RefereeKey::from_hex(&format!("{seed:064x}")).expect("64 hex digits");
        }
    }
    let mut possible: Vec<Code> = (0..count)
        .map(|i| Code::from_index(i, pegs, colours))
        .collect();
    let mut guess_first = match words[3] {
        "solo" => predict(seed, count, &keys).map(|i| Code::from_index(i, pegs, colours)),
        role => {
            let config = Config {
                pegs,
                colours,
                max_attacks: words[4].parse().unwrap(),
                codes: CodeSource::Random,
            };
            let seat = if role == "first" { Seat::A } else { Seat::B };
            predict_match(&greeting, &config, seat, &keys, &derived)
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = io::stdout().lock();
    let mut last: Option<Code> = None;
    for line in lines {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("attack") => {
                let guess = guess_first
                    .take()
                    .unwrap_or_else(|| possible[rng.gen_range(0..possible.len())].clone());
                writeln!(out, "{}", spaced(&guess)).unwrap();
                out.flush().unwrap();
                last = Some(guess);
            }
            Some("feedback") => {
                let (Some(guess), Ok(black), Ok(white)) = (
                    last.take(),
                    words.get(1).unwrap_or(&"").parse::<u8>(),
                    words.get(2).unwrap_or(&"").parse::<u8>(),
                ) else {
                    continue;
                };
                let told = Feedback { black, white };
                possible.retain(|c| feedback(c, &guess, colours) == told);
            }
            Some("code") => {
                // Bot-chosen codes: any code will do.
                writeln!(out, "{}", spaced(&possible[0])).unwrap();
                out.flush().unwrap();
            }
            Some("end") => return,
            _ => {}
        }
    }
}

/// The seeds of the games of the fair-play test's tournament file (a
/// Mastermind round robin of two bots, 20 games, seed 5, random codes), as
/// the referee derives them, given the key and the opponent's content.
fn derived_seeds() -> Vec<u64> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [key, opponent] = &args[..] else {
        return vec![];
    };
    let me = std::env::current_exe()
        .expect("my own path")
        .display()
        .to_string();
    let spec = format!("{me} {key} {opponent}");
    let key = RefereeKey::from_hex(key).expect("a key of 64 hex digits");
    let opponent = Hash256::from_hex(opponent).expect("a content hash of 64 hex digits");
    let text = format!(
        "game = \"mastermind\"\ngames_per_pairing = 20\nseed = 5\n[options]\ncodes = \"random\"\n\
         [[bots]]\nname = \"me\"\nbot = \"{}\"\n[[bots]]\nname = \"other\"\nbot = \"{me}\"\n",
        spec
    );
    let plan = TournamentPlan::parse(std::path::Path::new("/t.toml"), &text).expect("the file");
    let mine = bot_content(&plan.bots[0]).expect("my own program");
    let ids = GameIdentities::from_contents(&plan, &key, vec![mine, opponent]);
    (0..10).map(|r| ids.seed(0, 1, r)).collect()
}

fn spaced(code: &Code) -> String {
    code.pegs()
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

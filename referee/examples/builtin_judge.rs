//! The referee's built-in games served over the judge protocol
//! (docs/reference.md, "Judges"): a judge that plays any of them through
//! the same `Game` trait the referee plays them through. It proves the
//! built-in games speak the protocol (a game under this judge gives the
//! same exchanges and result as under the built-in rules, for the same key
//! and seed), and it is the external judge of the speed figure in
//! `benches/floor.rs`.
//!
//! The game is its option `game` (`mastermind`, `safecracker`, `arrow5`,
//! `cryptron`); its other options are the game's, as a tournament file's
//! `[options]` spell them (`pegs`, `max_attacks`, ...). Its randomness is the
//! start message's seed: the first 1024 bytes of the game's random stream,
//! more than a built-in game draws from it (two bot seeds, a coin toss,
//! codes and their redraws), so the games are the built-in ones; a game
//! that drew more would go on from a stream seeded with those bytes.
//!
//! Usage: `referee match target/debug/examples/builtin_judge BOT BOT --option game=mastermind`

use std::io::{self, BufRead, Write};

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};

use referee_engine::runner::JUDGE_SEED_BYTES;

use referee_engine::games::{
    arrow5, cryptron, mastermind, safecracker, Game, GameConfig, GameOptions, Notice, Seat, Status,
    Winner,
};

/// The bytes of the seed as the game's random stream: its words in
/// order, as the referee's ChaCha20 stream gives them (a u64 is two words,
/// low first; bytes take whole words), then a stream seeded with them.
struct SeedStream {
    words: Vec<u32>,
    next: usize,
    rest: ChaCha20Rng,
}

impl SeedStream {
    fn new(bytes: &[u8; JUDGE_SEED_BYTES]) -> SeedStream {
        let words = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&bytes[..32]);
        SeedStream {
            words,
            next: 0,
            rest: ChaCha20Rng::from_seed(seed),
        }
    }
}

impl RngCore for SeedStream {
    fn next_u32(&mut self) -> u32 {
        match self.words.get(self.next) {
            Some(word) => {
                self.next += 1;
                *word
            }
            None => self.rest.next_u32(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32());
        (high << 32) | low
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(4) {
            let word = self.next_u32().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

fn send(out: &mut impl Write, message: &Value) {
    writeln!(out, "{message}").expect("write to the referee");
    out.flush().expect("flush to the referee");
}

fn player(seat: Seat) -> usize {
    seat.index()
}

/// The turn fields of a game's state: the lines to tell, then whom to ask
/// or how it ended.
fn fields<G: Game>(game: &G, tell: Vec<Notice>, log: Option<String>) -> Value {
    let mut message = json!({
        "tell": tell.iter().map(|n| json!({"player": player(n.to), "line": n.line})).collect::<Vec<_>>(),
        "moves": [game.attacks(Seat::A), game.attacks(Seat::B)],
    });
    match game.status() {
        Status::Ask { seat, request } => {
            let mut ask = json!({"player": player(seat)});
            if let Some(line) = request {
                ask["line"] = json!(line);
            }
            message["ask"] = json!([ask]);
        }
        Status::Over(outcome) => {
            let winner = match outcome.winner {
                Winner::A => json!(0),
                Winner::B => json!(1),
                Winner::Draw => Value::Null,
            };
            message["end"] = json!({"winner": winner, "reason": outcome.reason});
            message["summary"] = json!(game.summary());
        }
    }
    if let Some(log) = log {
        message["log"] = json!(log);
    }
    message
}

/// Plays `game` over the protocol until the referee says stop.
fn serve<G: Game>(mut game: G, lines: &mut impl Iterator<Item = String>, out: &mut impl Write) {
    let mut ready = fields(&game, game.greetings(), None);
    ready["type"] = json!("ready");
    ready["protocol"] = json!(1);
    ready["first"] = json!(player(game.first_to_move()));
    send(out, &ready);
    for line in lines {
        let message: Value = serde_json::from_str(&line).expect("a JSON message");
        if message["type"] != "reply" {
            return;
        }
        let reply = message["line"].as_str().unwrap_or_default();
        let parsed = match game.parse_reply(reply) {
            Ok(parsed) => parsed,
            Err(detail) => {
                send(out, &json!({"type": "protocol", "detail": detail}));
                continue;
            }
        };
        game = match game.apply(parsed) {
            Ok(applied) => {
                let mut turn = fields(&applied.game, applied.notices, Some(applied.account));
                turn["type"] = json!("turn");
                send(out, &turn);
                applied.game
            }
            Err(rejected) => {
                send(out, &json!({"type": "illegal", "detail": rejected.rule}));
                rejected.game
            }
        };
    }
}

/// Gives up: the game is void.
fn fail(detail: String) -> ! {
    send(
        &mut io::stdout(),
        &json!({"type": "error", "detail": detail}),
    );
    std::process::exit(0)
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout().lock();
    let start: Value = serde_json::from_str(&lines.next().expect("a start message"))
        .expect("a JSON start message");
    let mut options = start["options"].clone();
    let name = options["game"].as_str().unwrap_or("mastermind").to_string();
    if let Some(map) = options.as_object_mut() {
        map.remove("game");
    }
    let options: GameOptions =
        serde_json::from_value(options).unwrap_or_else(|e| fail(format!("options: {e}")));
    let config = GameConfig::from_options(&name, &options).unwrap_or_else(|e| fail(e.to_string()));
    let hex = start["seed"].as_str().unwrap_or_default();
    let mut seed = [0u8; JUDGE_SEED_BYTES];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or_else(|| {
                fail(format!(
                    "the seed is not {} hex digits",
                    2 * JUDGE_SEED_BYTES
                ))
            });
    }
    let mut rng = SeedStream::new(&seed);
    match config {
        GameConfig::Arrow5(c) => serve(arrow5::Arrow5::new(c, &mut rng), &mut lines, &mut out),
        GameConfig::Mastermind(c) => serve(
            mastermind::Mastermind::new(c, &mut rng),
            &mut lines,
            &mut out,
        ),
        GameConfig::Safecracker(c) => serve(
            safecracker::SafeCracker::new(c, &mut rng),
            &mut lines,
            &mut out,
        ),
        GameConfig::Cryptron(c) => {
            serve(cryptron::Cryptron::new(c, &mut rng), &mut lines, &mut out)
        }
        GameConfig::Judge(_) => fail("a judge serves the built-in games only".into()),
    }
}

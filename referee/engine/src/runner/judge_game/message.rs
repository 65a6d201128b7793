//! A judge's messages read: each line a JSON object of a known type, its
//! turn fields (tells, asks, the end, frames) checked against the game.

use super::*;

/// The message types a judge may write.
pub(super) const TYPES: [&str; 5] = ["ready", "turn", "illegal", "protocol", "error"];

/// One line of the judge: a JSON object of a known type.
pub(super) fn parse_message(line: &str) -> Result<(String, Map<String, Value>), String> {
    let value = serde_json::from_str::<UniqueKeys>(line)
        .map_err(|e| {
            if e.is_data() {
                // A key twice: JSON readers keep one of the two silently,
                // so a message saying two things (two `end`s, two types)
                // would be read as whichever came last.
                format!(
                    "wrote a message that says one thing twice ({e}): '{}'",
                    protocol::shorten(line)
                )
            } else {
                format!(
                    "wrote a line that is not JSON ({e}): '{}' (stdout is for protocol \
                     lines only; write debugging output on stderr)",
                    protocol::shorten(line)
                )
            }
        })?
        .0;
    let Value::Object(map) = value else {
        return Err(format!(
            "wrote JSON that is not an object: '{}'",
            protocol::shorten(line)
        ));
    };
    let kind = match map.get("type") {
        Some(Value::String(kind)) if TYPES.contains(&kind.as_str()) => kind.clone(),
        Some(Value::String(kind)) => {
            return Err(format!(
                "wrote a message of unknown type '{}' (the types are: {})",
                protocol::shorten(kind),
                TYPES.join(", ")
            ))
        }
        _ => {
            return Err(format!(
                "wrote a message with no \"type\": '{}'",
                protocol::shorten(line)
            ))
        }
    };
    Ok((kind, map))
}

/// A JSON value whose objects hold each key once.
struct UniqueKeys(Value);

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(UniqueKeysVisitor)
            .map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueKeys(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key \"{}\" appears twice in an object",
                    protocol::shorten(&key)
                )));
            }
            let UniqueKeys(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// What a `ready` or `turn` message says.
#[derive(Debug, Default)]
pub struct TurnFields {
    pub(super) tell: Vec<Notice>,
    pub(super) ask: Option<Vec<(Seat, Option<String>)>>,
    pub(super) end: Option<End>,
    pub(super) log: Option<String>,
    pub(super) moves: Option<Vec<u32>>,
    pub(super) first: Option<Seat>,
    pub(super) summary: Vec<String>,
    pub(super) frame: Option<Value>,
}

/// The end of a game by the judge: the outcome, the scores, and with more
/// than two players the ranks.
#[derive(Debug)]
pub(super) struct End {
    pub(super) outcome: Outcome,
    pub(super) scores: Option<Vec<f64>>,
    pub(super) ranks: Option<Vec<u32>>,
}

pub(super) fn seat_of(value: Option<&Value>, field: &str, players: usize) -> Result<Seat, String> {
    let last = players - 1;
    match value.and_then(Value::as_u64) {
        Some(n) if n < players as u64 => Seat::of_index(n as usize)
            .ok_or_else(|| format!("{field} names player {n}, past the last seat")),
        Some(n) => Err(format!(
            "{field} names player {n}, which does not exist (the players are 0 to {last})"
        )),
        None => Err(format!("{field} needs a \"player\" number (0 to {last})")),
    }
}

/// A line for a bot: text on one line.
pub(super) fn bot_line(value: &Value, field: &str) -> Result<String, String> {
    match value.as_str() {
        Some(line) if line.contains(['\n', '\r']) => Err(format!(
            "{field} holds a line break; a line for a bot is one line"
        )),
        Some(line) if line.len() > MAX_BOT_LINE_BYTES => Err(format!(
            "{field} holds a line of {} bytes, over the {MAX_BOT_LINE_BYTES} a line for a bot may have",
            line.len()
        )),
        Some(line) => Ok(line.to_string()),
        None => Err(format!("{field} \"line\" must be a string")),
    }
}

pub(super) fn entries(
    map: &Map<String, Value>,
    field: &str,
    players: usize,
) -> Result<Vec<(Seat, Option<String>)>, String> {
    let Some(value) = map.get(field) else {
        return Ok(Vec::new());
    };
    let Some(items) = value.as_array() else {
        return Err(format!(
            "\"{field}\" must be a list of {{\"player\":..,\"line\":..}}"
        ));
    };
    items
        .iter()
        .map(|item| {
            let Some(item) = item.as_object() else {
                return Err(format!("\"{field}\" holds an entry that is not an object"));
            };
            let seat = seat_of(item.get("player"), &format!("\"{field}\""), players)?;
            let line = item
                .get("line")
                .map(|l| bot_line(l, &format!("\"{field}\"")))
                .transpose()?;
            Ok((seat, line))
        })
        .collect()
}

/// The turn fields of `map` (a `ready` when `ready`) in a game of
/// `players`. `pending`: replies of a simultaneous ask are still awaited,
/// so no `tell`, `ask` or `end`.
pub(super) fn turn_fields(
    map: &Map<String, Value>,
    ready: bool,
    pending: bool,
    players: usize,
) -> Result<TurnFields, String> {
    let mut fields = TurnFields::default();
    let kind = if ready { "ready" } else { "turn" };
    if pending {
        if let Some(field) = ["tell", "ask", "end"]
            .into_iter()
            .find(|f| map.contains_key(*f))
        {
            return Err(format!(
                "sent \"{field}\" in a turn while a simultaneous ask is still pending \
                 (answer each reply but the last with a bare {{\"type\":\"turn\"}})"
            ));
        }
    } else {
        match (map.contains_key("ask"), map.contains_key("end")) {
            (true, true) => return Err(format!("sent both \"ask\" and \"end\" in a {kind}")),
            (false, false) => {
                return Err(format!(
                "sent a {kind} with neither \"ask\" nor \"end\" (who moves next, or the result?)"
            ))
            }
            _ => {}
        }
    }
    fields.tell = entries(map, "tell", players)?
        .into_iter()
        .map(|(to, line)| {
            line.map(|line| Notice { to, line })
                .ok_or_else(|| "a \"tell\" entry has no \"line\"".to_string())
        })
        .collect::<Result<_, _>>()?;
    if map.contains_key("ask") {
        let ask = entries(map, "ask", players)?;
        if ask.is_empty() {
            return Err("sent an empty \"ask\"".into());
        }
        let mut seats: Vec<Seat> = ask.iter().map(|(seat, _)| *seat).collect();
        seats.sort();
        seats.dedup();
        if seats.len() < ask.len() {
            return Err("asks the same player twice at once".into());
        }
        fields.ask = Some(ask);
    }
    if let Some(end) = map.get("end") {
        fields.end = Some(end_of(end, players)?);
    }
    if let Some(log) = map.get("log") {
        let log = log.as_str().ok_or("\"log\" must be a string")?;
        fields.log = Some(account_line(log));
    }
    if let Some(moves) = map.get("moves") {
        let counts: Option<Vec<u32>> = moves.as_array().and_then(|m| {
            m.iter()
                .map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok()))
                .collect()
        });
        match counts {
            Some(counts) if counts.len() == players => fields.moves = Some(counts),
            _ => {
                return Err(format!(
                    "\"moves\" must be a list of {players} whole numbers"
                ))
            }
        }
    }
    if let Some(first) = map.get("first") {
        if !ready {
            return Err("sent \"first\" in a turn (it belongs in ready)".into());
        }
        fields.first = Some(seat_of(Some(first), "\"first\"", players)?);
    }
    if let Some(summary) = map.get("summary") {
        let lines: Option<Vec<String>> = summary
            .as_array()
            .and_then(|s| s.iter().map(|l| l.as_str().map(str::to_string)).collect());
        let lines = lines.ok_or("\"summary\" must be a list of strings")?;
        fields.summary = lines
            .iter()
            .take(MAX_SUMMARY_LINES)
            .map(|l| account_line(l))
            .collect();
    }
    if let Some(frame) = map.get("frame") {
        if !frame.is_object() {
            return Err("\"frame\" must be an object".into());
        }
        let size = frame.to_string().len();
        if size > MAX_FRAME_BYTES {
            return Err(format!(
                "sent a frame of {size} bytes, over the {MAX_FRAME_BYTES} bytes a frame may have"
            ));
        }
        fields.frame = Some(frame.clone());
    }
    Ok(fields)
}

pub(super) fn end_of(end: &Value, players: usize) -> Result<End, String> {
    let end = end.as_object().ok_or("\"end\" must be an object")?;
    let winner_seat = match end.get("winner") {
        None | Some(Value::Null) => None,
        Some(player) => Some(seat_of(Some(player), "\"end\" winner", players)?),
    };
    let ranks = match end.get("ranks") {
        None => None,
        Some(ranks) => {
            let ranks: Option<Vec<u32>> = ranks.as_array().and_then(|r| {
                r.iter()
                    .map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok()))
                    .collect()
            });
            match ranks {
                Some(ranks) if ranks.len() == players => Some(ranks),
                _ => {
                    return Err(format!(
                        "\"end\" ranks must be a list of {players} whole numbers (0 = first)"
                    ))
                }
            }
        }
    };
    // A winner and ranks are two results: they must be one.
    if let (Some(ranks), Some(winner)) = (&ranks, winner_seat) {
        if alone_first(ranks) != Some(winner.index()) {
            return Err(format!(
                "\"end\" gives two results that differ: winner {} but ranks {ranks:?} \
                 (the winner is the one player ranked first alone; send one of the two)",
                winner.index()
            ));
        }
    }
    // With more than two players the result is a ranking: the judge's
    // `ranks`, or the winner first and everybody else second, or a draw.
    // With two, ranks say who won (`[1, 0]`: player 1; `[0, 0]`: a draw).
    let winner_seat = match (players, &ranks) {
        (2, Some(ranks)) => alone_first(ranks).and_then(Seat::of_index),
        _ => winner_seat,
    };
    let ranks = match (players, ranks, winner_seat) {
        (2, _, _) => None,
        (_, Some(ranks), _) => Some(competition_ranks(&ranks)),
        (_, None, Some(winner)) => Some(
            Seat::all(players)
                .map(|seat| u32::from(seat != winner))
                .collect(),
        ),
        (_, None, None) => Some(vec![0; players]),
    };
    let winner = match (&ranks, winner_seat) {
        (Some(ranks), _) => winner_of_ranks(ranks),
        (None, Some(seat)) => Winner::seat(seat),
        (None, None) => Winner::Draw,
    };
    let reason = end
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or(match (&ranks, winner) {
            (Some(_), _) => "ranked",
            (None, Winner::Draw) => "draw",
            (None, Winner::A | Winner::B) => "win",
        });
    if reason.is_empty()
        || reason.len() > 40
        || !reason
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err(format!(
            "ended with reason '{}': a reason is a short word of letters, digits and '-'",
            protocol::shorten(reason)
        ));
    }
    let scores = match end.get("scores") {
        None => None,
        Some(scores) => Some(
            scores
                .as_array()
                .and_then(|s| s.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
                .ok_or("\"end\" scores must be a list of numbers")?,
        ),
    };
    if scores.as_ref().is_some_and(|s| s.len() != players) {
        return Err(format!(
            "\"end\" scores must be a list of {players} numbers, one per player"
        ));
    }
    Ok(End {
        outcome: Outcome {
            winner,
            reason: reason.to_string(),
        },
        scores,
        ranks,
    })
}

/// Places from any numbers where lower is better: each player's place is
/// how many players did strictly better (`[3, 1, 1, 7]` gives
/// `[2, 0, 0, 3]`), so ties share a place and the next place is skipped.
pub fn competition_ranks(keys: &[u32]) -> Vec<u32> {
    keys.iter()
        .map(|k| keys.iter().filter(|other| *other < k).count() as u32)
        .collect()
}

/// The player ranked first alone, if one is (lower is better).
fn alone_first(ranks: &[u32]) -> Option<usize> {
    let best = ranks.iter().min()?;
    let mut first = (0..ranks.len()).filter(|i| ranks[*i] == *best);
    match (first.next(), first.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// The `Winner` of a ranking: A or B when that seat alone is first, else
/// `Draw` (with more than two players the ranks say who won).
pub fn winner_of_ranks(ranks: &[u32]) -> Winner {
    let first: Vec<usize> = (0..ranks.len()).filter(|i| ranks[*i] == 0).collect();
    match first.as_slice() {
        [only] => Seat::of_index(*only).map_or(Winner::Draw, Winner::seat),
        _ => Winner::Draw,
    }
}

/// The seats a judge's `ready` says it takes: `min_players` and
/// `max_players`, 2 when left out; each a whole number from 2 to
/// [`crate::games::MAX_SEATS`], the first not above the second.
pub(super) fn seats_taken(map: &Map<String, Value>) -> Result<(u64, u64), String> {
    let most = crate::games::MAX_SEATS as u64;
    let field = |name: &str| match map.get(name) {
        None => Ok(2),
        Some(value) => match value.as_u64() {
            Some(n) if (2..=most).contains(&n) => Ok(n),
            _ => Err(format!(
                "answered ready with \"{name}\": {}; it must be a whole number from 2 to {most}",
                protocol::shorten(&value.to_string())
            )),
        },
    };
    let (min, max) = (field("min_players")?, field("max_players")?);
    if min > max {
        return Err(format!(
            "answered ready with \"min_players\": {min} above \"max_players\": {max}"
        ));
    }
    Ok((min, max))
}

/// "2 players", "3 to 6 players".
pub(super) fn seats_span(min: u64, max: u64) -> String {
    if min == max {
        format!("{min} players")
    } else {
        format!("{min} to {max} players")
    }
}

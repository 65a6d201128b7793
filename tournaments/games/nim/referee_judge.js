// referee_judge.js: write a judge for the referee in JavaScript (Node, judge
// protocol 1, no npm packages).
//
// A judge is the program that knows a game's rules. The referee starts it
// once per game and talks to it in JSON lines on its stdin/stdout; the
// referee owns the bots, their clocks and their sandbox. This file is the
// whole library: copy it beside your judge (a judge may read only its own
// folder).
//
//   const { Judge } = require("./referee_judge.js");
//   const judge = new Judge("coin", { minPlayers: 2, maxPlayers: 2 }); // reads `start`
//   judge.tell(0, "coin first");                    // greetings
//   judge.tell(1, "coin second");
//   judge.ask(0, "call");
//   const reply = judge.send();                     // sends `ready`, waits
//   if (reply.line !== "heads" && reply.line !== "tails")
//     judge.protocol("expected heads or tails");    // player 0 loses
//   judge.end(0, "called-it");
//   judge.send();                                   // the referee says stop: exits 0
//
// `send()` sends what was gathered since the last one (tell, ask, log, frame,
// moves, summary, end) as one message and returns the next reply. When the
// referee says `stop` (the game is over, a bot got a verdict, or the referee
// is interrupted) the judge exits with status 0 at once. Everything is
// synchronous: no callbacks, no promises. The full protocol:
// docs/writing-a-game.md.
//
// Games of more than two players: `end(winner, reason, scores, ranks)` ranks
// the players (0 first, ties share: [0, 1, 1, 3]); a player the referee
// disqualifies while the game goes on comes back from `send()` as a reply
// whose `verdict` is set (the referee's `out` message; its answer is the next
// turn); and `sendTogether(check)` asks several players at once and collects
// every answer:
//
//   for (const player of alive) judge.ask(player, "move");
//   const { replies, out } = judge.sendTogether(parse); // {player: reply}, {player: verdict}
"use strict";

const fs = require("fs");

const PROTOCOL = 1;

class Judge {
  constructor(game, { minPlayers = 2, maxPlayers = 2 } = {}) {
    this._pending = Buffer.alloc(0);
    const start = this._read();
    if (start.type !== "start") this.error(`expected a start message, got ${JSON.stringify(start.type)}`);
    if (start.protocol !== PROTOCOL)
      this.error(`this judge speaks protocol ${PROTOCOL}, the referee ${JSON.stringify(start.protocol)}`);
    this.players = start.players;
    this.names = start.names || [];
    this.seedHex = start.seed;
    // The game's randomness, the only one a judge may use: 1024 bytes.
    this.seed = Buffer.from(start.seed, "hex");
    this.options = start.options || {};
    this._message = { type: "ready", protocol: PROTOCOL, game, min_players: minPlayers, max_players: maxPlayers };
    if (this.players < minPlayers || this.players > maxPlayers)
      this.error(`${game} is played by ${minPlayers} to ${maxPlayers} players, not ${this.players}`);
  }

  // -- options -----------------------------------------------------------

  // The option `name` (spelt with `_` or `-`), or `fallback`. `check(value)`
  // returns what is wrong with a value (e.g. "expected an integer from 1 to
  // 9"), or nothing: a wrong value refuses the game with an `error` naming
  // the option (the game is void, nobody plays it).
  option(name, fallback, check) {
    for (const spelling of [name, name.replace(/_/g, "-"), name.replace(/-/g, "_")]) {
      if (Object.prototype.hasOwnProperty.call(this.options, spelling)) {
        const value = this.options[spelling];
        const wrong = check ? check(value) : undefined;
        if (wrong) this.error(`option ${name}: ${wrong}, got ${JSON.stringify(value)}`);
        return value;
      }
    }
    return fallback;
  }

  // Refuses the game if an option is not one of `known`.
  checkOptions(known) {
    const allowed = new Set();
    for (const name of known) [name, name.replace(/_/g, "-"), name.replace(/-/g, "_")].forEach((n) => allowed.add(n));
    for (const name of Object.keys(this.options).sort())
      if (!allowed.has(name)) this.error(`unknown option ${name} (this game knows: ${known.join(", ") || "none"})`);
  }

  // -- what the next message carries ---------------------------------------

  // A line for `player` that expects no reply (sent before the asks).
  tell(player, line) {
    (this._message.tell = this._message.tell || []).push({ player, line });
  }

  // Asks `player` for a reply, with `line` as the request (or none). Several
  // asks in one message are simultaneous moves.
  ask(player, line) {
    const entry = line === undefined || line === null ? { player } : { player, line };
    (this._message.ask = this._message.ask || []).push(entry);
  }

  // Ends the game: `winner` a player index or null for a draw, `reason` a
  // short word (letters, digits, `-`), `scores` optional numbers per player,
  // `ranks` (optional) each player's place for games of more than two
  // players (0 first, ties share a place: [0, 1, 1, 3]).
  end(winner, reason, scores, ranks) {
    const end = { winner, reason };
    if (scores !== undefined && scores !== null) end.scores = Array.from(scores);
    if (ranks !== undefined && ranks !== null) end.ranks = Array.from(ranks);
    this._message.end = end;
  }

  // One line for the match account.
  log(text) {
    this._message.log = text;
  }

  // A view of the game for the replay (public: every viewer sees it).
  frame(frame) {
    this._message.frame = frame;
  }

  // The moves made so far per player (the records' attacks column).
  moves(counts) {
    this._message.moves = Array.from(counts);
  }

  // The player that moves first (first message only).
  first(player) {
    this._message.first = player;
  }

  // Lines for the account once the game is over.
  summary(lines) {
    this._message.summary = Array.from(lines);
  }

  // -- sending --------------------------------------------------------------

  // Sends the gathered message (`ready` the first time, then `turn`) and
  // returns the next reply {player, line, time_ms}. Exits 0 on stop.
  send() {
    const message = this._message;
    this._message = { type: "turn" };
    this._write(message);
    return this._next();
  }

  // Sends the gathered message, whose asks are one simultaneous move, and
  // collects an answer from every player it asks. `check(reply)` (optional)
  // returns nothing to accept a reply, or ["protocol"|"illegal", detail] to
  // refuse it (its player is out). Returns {replies: {player: reply} of the
  // accepted replies, out: {player: verdict} of those out meanwhile, refused
  // or disqualified by the referee} once the last answer is in: gather the
  // next turn and send it. Answers every message but the last with a bare
  // turn itself.
  sendTogether(check) {
    const pending = (this._message.ask || []).map((entry) => entry.player);
    const replies = {};
    const out = {};
    let incoming = this.send();
    for (;;) {
      const at = pending.indexOf(incoming.player);
      if (at >= 0) pending.splice(at, 1);
      let refusal;
      if (incoming.verdict !== undefined) {
        out[incoming.player] = incoming.verdict;
        delete replies[incoming.player];
      } else {
        refusal = check ? check(incoming) : undefined;
        if (refusal) out[incoming.player] = refusal[0];
        else replies[incoming.player] = incoming;
      }
      if (refusal) {
        // The referee answers a refusal with `out` for that player (a turn
        // is its answer), or with the next reply.
        incoming = this._refuse(refusal[0], refusal[1]);
        continue;
      }
      if (pending.length === 0) return { replies, out };
      incoming = this.send(); // a bare turn: more of this move to come
    }
  }

  // Refuses the last reply: its player breaks the rules (verdict illegal).
  illegal(detail) {
    return this._refuse("illegal", detail);
  }

  // Refuses the last reply: not a message of the game (verdict protocol).
  protocol(detail) {
    return this._refuse("protocol", detail);
  }

  // Gives up: the game is void (nobody's loss). Never returns. The detail
  // goes to stderr too, which the referee shows with a void game.
  error(detail) {
    fs.writeSync(2, `judge error: ${detail}\n`);
    this._write({ type: "error", detail });
    while (this._read().type !== "stop");
    process.exit(0);
  }

  _refuse(type, detail) {
    this._message = { type: "turn" };
    this._write({ type, detail });
    return this._next();
  }

  _next() {
    const message = this._read();
    if (message.type === "reply") return { player: message.player, line: message.line, time_ms: message.time_ms };
    // A player disqualified by the referee while the game goes on.
    if (message.type === "out")
      return { player: message.player, line: null, time_ms: null, verdict: message.verdict || "out" };
    if (message.type === "stop") process.exit(0);
    this.error(`expected a reply, out or stop message, got ${JSON.stringify(message.type)}`);
  }

  _read() {
    const chunk = Buffer.alloc(65536);
    let newline;
    while ((newline = this._pending.indexOf(10)) < 0) {
      let n;
      try {
        n = fs.readSync(0, chunk, 0, chunk.length, null);
      } catch (e) {
        if (e.code === "EAGAIN") {
          // stdin was left non-blocking: wait a millisecond and read again.
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
          continue;
        }
        if (e.code === "EOF") n = 0;
        else throw e;
      }
      // The referee is gone: nothing is left to answer.
      if (n === 0) process.exit(0);
      this._pending = Buffer.concat([this._pending, chunk.subarray(0, n)]);
    }
    const line = this._pending.subarray(0, newline).toString("utf8");
    this._pending = this._pending.subarray(newline + 1);
    return JSON.parse(line);
  }

  _write(message) {
    const bytes = Buffer.from(JSON.stringify(message) + "\n", "utf8");
    let written = 0;
    while (written < bytes.length) {
      try {
        written += fs.writeSync(1, bytes, written);
      } catch (e) {
        if (e.code !== "EAGAIN") throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }
}

module.exports = { Judge, PROTOCOL };

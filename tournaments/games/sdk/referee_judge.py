"""referee_judge: write a judge for the referee in Python (judge protocol 1).

A judge is the program that knows a game's rules. The referee starts it once
per game and talks to it in JSON lines on its stdin/stdout; the referee owns
the bots, their clocks and their sandbox. This file is the whole library: copy
it beside your judge (a judge may read only its own folder).

    from referee_judge import Judge

    judge = Judge("coin", min_players=2, max_players=2)   # reads `start`
    judge.tell(0, "coin first")                           # greetings
    judge.tell(1, "coin second")
    judge.ask(0, "call")
    reply = judge.send()                                  # sends `ready`, waits
    if reply.line not in ("heads", "tails"):
        judge.protocol("expected heads or tails")         # player 0 loses
    judge.end(winner=0, reason="called-it")
    judge.send()                                          # the referee says stop: exits 0

`send()` sends what was gathered since the last one (`tell`, `ask`, `log`,
`frame`, `moves`, `summary`, `end`) as one message and returns the next reply.
When the referee says `stop` (the game is over, a bot got a verdict, or the
referee is interrupted) the judge exits with status 0 at once; a judge never
needs to handle it. The full protocol: docs/writing-a-game.md.

Games of more than two players: `end(..., ranks=[0, 1, 1, 3])` ranks the
players (0 first, ties share); a player the referee disqualifies while the
game goes on comes back from `send()` as a Reply whose `verdict` is set
(the referee's `out` message; its answer is the next turn); and
`send_together()` asks several players at once and collects every answer:

    for player in alive:
        judge.ask(player, "move")
    replies, out = judge.send_together(check=parse)   # {player: Reply}, {player: verdict}
"""

import json
import sys

PROTOCOL = 1


class Reply:
    """A player's answer: `player` (its index), `line` (without the newline)
    and `time_ms` (how long it took). In a game of more than two players,
    a Reply with `verdict` set (and `line` None) says instead that the
    referee disqualified `player` (`timeout`, `crash`, ...) and the game
    goes on without it: answer with the next turn."""

    def __init__(self, player, line, time_ms, verdict=None):
        self.player = player
        self.line = line
        self.time_ms = time_ms
        self.verdict = verdict

    def __repr__(self):
        if self.verdict is not None:
            return "Reply(player=%r, verdict=%r)" % (self.player, self.verdict)
        return "Reply(player=%r, line=%r, time_ms=%r)" % (self.player, self.line, self.time_ms)


class OptionError(Exception):
    """An option of the game that the organiser set wrong."""


class Judge:
    """The judge's side of one game. Reads the referee's `start` message."""

    def __init__(self, game, min_players=2, max_players=2, stdin=None, stdout=None):
        # Bytes, decoded as UTF-8 whatever the locale of the sandbox.
        self._in = stdin if stdin is not None else sys.stdin.buffer
        self._out = stdout if stdout is not None else sys.stdout.buffer
        start = self._read()
        if start.get("type") != "start":
            self.error("expected a start message, got %r" % start.get("type"))
        if start.get("protocol") != PROTOCOL:
            self.error("this judge speaks protocol %d, the referee %r" % (PROTOCOL, start.get("protocol")))
        self.players = start["players"]
        self.names = start.get("names", [])
        self.seed_hex = start["seed"]
        self.seed = bytes.fromhex(self.seed_hex)
        self.options = start.get("options") or {}
        self._random = None
        self._message = {
            "type": "ready",
            "protocol": PROTOCOL,
            "game": game,
            "min_players": min_players,
            "max_players": max_players,
        }
        if not min_players <= self.players <= max_players:
            self.error("%s is played by %d to %d players, not %d" % (game, min_players, max_players, self.players))

    @property
    def random(self):
        """The only randomness a judge may use: a `random.Random` seeded
        with the game's seed (made on first use: importing `random` takes
        a few milliseconds of every game)."""
        if self._random is None:
            import random

            self._random = random.Random(int(self.seed_hex, 16))
        return self._random

    # -- options -----------------------------------------------------------

    def option(self, name, default, kind=int, low=None, high=None, choices=None):
        """The option `name` (its spelling with `_` or `-`), or `default`.
        A value of the wrong kind or out of range refuses the game with an
        `error` naming the option (the game is void, nobody plays it)."""
        value = default
        for spelling in (name, name.replace("_", "-"), name.replace("-", "_")):
            if spelling in self.options:
                value = self.options[spelling]
                break
        else:
            return default
        try:
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError("an integer")
            if kind is str and not isinstance(value, str):
                value = str(value).lower() if isinstance(value, bool) else str(value)
            if choices is not None and value not in choices:
                raise OptionError("one of " + ", ".join(str(c) for c in choices))
            if low is not None and value < low or high is not None and value > high:
                if low is not None and high is not None:
                    raise OptionError("from %s to %s" % (low, high))
                raise OptionError("at least %s" % low if low is not None else "at most %s" % high)
        except OptionError as expected:
            self.error("option %s: expected %s, got %s" % (name, expected, json.dumps(value)))
        return value

    def check_options(self, known):
        """Refuses the game if an option is not one of `known`."""
        allowed = set()
        for name in known:
            allowed.update((name, name.replace("_", "-"), name.replace("-", "_")))
        for name in sorted(self.options):
            if name not in allowed:
                self.error("unknown option %s (this game knows: %s)" % (name, ", ".join(known) or "none"))

    # -- what the next message carries ---------------------------------------

    def tell(self, player, line):
        """A line for `player` that expects no reply (sent before the asks)."""
        self._message.setdefault("tell", []).append({"player": player, "line": line})

    def ask(self, player, line=None):
        """Asks `player` for a reply, with `line` as the request (or none).
        Several asks in one message are simultaneous moves."""
        entry = {"player": player}
        if line is not None:
            entry["line"] = line
        self._message.setdefault("ask", []).append(entry)

    def end(self, winner, reason, scores=None, ranks=None):
        """Ends the game: `winner` a player index or None for a draw,
        `reason` a short word (letters, digits, `-`), `scores` numbers per
        player, `ranks` each player's place (0 first, ties share a place:
        [0, 1, 1, 3]) for games of more than two players."""
        end = {"winner": winner, "reason": reason}
        if scores is not None:
            end["scores"] = list(scores)
        if ranks is not None:
            end["ranks"] = list(ranks)
        self._message["end"] = end

    def log(self, text):
        """One line for the match account."""
        self._message["log"] = text

    def frame(self, frame):
        """A view of the game for the replay (public: every viewer sees it)."""
        self._message["frame"] = frame

    def moves(self, counts):
        """The moves made so far per player (the records' attacks column)."""
        self._message["moves"] = list(counts)

    def first(self, player):
        """The player that moves first (first message only)."""
        self._message["first"] = player

    def summary(self, lines):
        """Lines for the account once the game is over."""
        self._message["summary"] = list(lines)

    # -- sending --------------------------------------------------------------

    def send(self):
        """Sends the gathered message (`ready` the first time, then `turn`)
        and returns the next Reply. Exits 0 when the referee says stop."""
        message, self._message = self._message, {"type": "turn"}
        self._write(message)
        return self._next()

    def send_together(self, check=None):
        """Sends the gathered message, whose asks are one simultaneous move,
        and collects an answer from every player it asks. `check(reply)`
        (optional) returns None to accept a reply, or a pair
        ("protocol"|"illegal", detail) to refuse it (its player is out).
        Returns ({player: Reply} of the accepted replies, {player: verdict}
        of those out meanwhile, refused or disqualified by the referee),
        once the last answer is in: gather the next turn and send it.
        Answers every message but the last with a bare turn itself."""
        pending = [entry["player"] for entry in self._message.get("ask", [])]
        replies, out = {}, {}
        incoming = self.send()
        while True:
            player = incoming.player
            if player in pending:
                pending.remove(player)
            if incoming.verdict is not None:
                out[player] = incoming.verdict
                replies.pop(player, None)
                refusal = None
            else:
                refusal = check(incoming) if check is not None else None
                if refusal is None:
                    replies[player] = incoming
                else:
                    out[player] = refusal[0]
            if refusal is not None:
                # The referee answers a refusal with `out` for that
                # player (a turn is its answer), or with the next reply.
                incoming = self._refuse(refusal[0], refusal[1])
                continue
            if not pending:
                return replies, out
            incoming = self.send()  # a bare turn: more of this move to come

    def illegal(self, detail):
        """Refuses the last reply: its player breaks the rules (verdict
        illegal). Returns the next reply, if the game goes on."""
        return self._refuse("illegal", detail)

    def protocol(self, detail):
        """Refuses the last reply: not a message of the game (verdict
        protocol). Returns the next reply, if the game goes on."""
        return self._refuse("protocol", detail)

    def error(self, detail):
        """Gives up: the game is void (nobody's loss). Never returns. The
        detail goes to stderr too, which the referee shows with a void game."""
        sys.stderr.write("judge error: %s\n" % detail)
        sys.stderr.flush()
        self._write({"type": "error", "detail": detail})
        # The referee answers with stop, or closes the pipe.
        while self._read().get("type") != "stop":
            pass
        sys.exit(0)

    def _refuse(self, kind, detail):
        self._message = {"type": "turn"}
        self._write({"type": kind, "detail": detail})
        return self._next()

    def _next(self):
        message = self._read()
        kind = message.get("type")
        if kind == "reply":
            return Reply(message["player"], message["line"], message.get("time_ms"))
        if kind == "out":
            return Reply(message["player"], None, None, verdict=message.get("verdict", "out"))
        if kind == "stop":
            sys.exit(0)
        self.error("expected a reply, out or stop message, got %r" % kind)

    def _read(self):
        line = self._in.readline()
        if not line:
            # The referee is gone: nothing is left to answer.
            sys.exit(0)
        return json.loads(line.decode("utf-8"))

    def _write(self, message):
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        self._out.write(text.encode("utf-8") + b"\n")
        self._out.flush()

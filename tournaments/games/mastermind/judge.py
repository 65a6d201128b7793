#!/usr/bin/env python3
"""Mastermind as a judge: the referee's built-in `mastermind` game, rule for
rule and line for line (protocol.md, "Mastermind"). With the same key, seed,
options and bots it sends the bots the same lines and ends the same way.

The built-in game draws from the game's random stream (ChaCha20): the two
bots' seeds (one 32-bit word each), then, with random codes, A's code and
B's code (each `gen_range(0..C^N)` of rand 0.8). The judge gets the first
bytes of that same stream as its seed and draws the same numbers from them
(`Stream`). Should a game need more words than the seed holds (rare: only
random codes redrawn many times), the judge goes on with words drawn from
the seed by Python's `random`: the game is still the same every time, but
no longer the built-in's.
"""

import struct

from referee_judge import Judge

MAX_PEGS = 12
MAX_COLOURS = 36
U32_MAX = 2**32 - 1
MASK64 = 2**64 - 1
# Rust's `str::trim` trims the characters with Unicode's White_Space property.
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
SEPARATORS = " \t,-"
VARIATION_SELECTOR = "\ufe0f"
# The rounds a frame shows, the last ones.
SHOWN_ROUNDS = 12


class Stream:
    """The built-in game's random draws, from the seed's bytes: 32-bit
    little-endian words, in order."""

    def __init__(self, judge):
        self.judge = judge
        seed = judge.seed
        self.words = list(struct.unpack("<%dI" % (len(seed) // 4), seed[: len(seed) // 4 * 4]))
        self.next = 0

    def u32(self):
        if self.next < len(self.words):
            self.next += 1
            return self.words[self.next - 1]
        return self.judge.random.getrandbits(32)

    def u64(self):
        low = self.u32()
        return self.u32() << 32 | low

    def below(self, n):
        """rand 0.8's `gen_range(0..n)` on u64: a widening multiply, and a
        draw again when the low half falls beyond its zone."""
        zone = ((n << (64 - n.bit_length())) & MASK64) - 1
        while True:
            product = self.u64() * n
            if product & MASK64 <= zone:
                return product >> 64


def colour_of(c):
    if "0" <= c <= "9":
        return ord(c) - ord("0")
    if "a" <= c <= "z":
        return ord(c) - ord("a") + 10
    if "A" <= c <= "Z":
        return ord(c) - ord("A") + 10
    return None


def colour_char(v):
    return chr(ord("0") + v) if v < 10 else chr(ord("a") + v - 10)


def shorten(line):
    return line if len(line) <= 60 else line[:60] + "…"


def read_symbols(line, n):
    """The reply's symbols, or why it is not a code's shape (protocol)."""
    line = line.strip(WHITE_SPACE)
    if not line:
        return None, "expected %d symbols, got an empty line" % n
    if any(c in SEPARATORS for c in line):
        symbols = []
        for token in line.replace("\t", " ").replace(",", " ").replace("-", " ").split(" "):
            if not token:
                continue
            chars = token.replace(VARIATION_SELECTOR, "")
            if len(chars) != 1:
                return None, "expected %d single-character symbols, got the token '%s'" % (n, shorten(token))
            symbols.append(chars)
    else:
        symbols = list(line.replace(VARIATION_SELECTOR, ""))
    if len(symbols) != n:
        return None, "expected %d symbols, got %d in '%s'" % (n, len(symbols), shorten(line))
    return symbols, None


class Mastermind:
    def __init__(self, judge):
        self.judge = judge
        judge.check_options(["codes", "pegs", "colours", "colors", "max_attacks"])
        self.pegs = judge.option("pegs", 4, low=1, high=MAX_PEGS)
        colours = judge.option("colors", 6, low=2, high=MAX_COLOURS)
        self.colours = judge.option("colours", colours, low=2, high=MAX_COLOURS)
        self.cap = judge.option("max_attacks", 12, low=1, high=U32_MAX)
        codes = judge.option("codes", "bots", kind=str)
        if codes.lower() not in ("bots", "random"):
            judge.error("option codes: expected 'bots' or 'random', got '%s'" % codes)
        self.random_codes = codes.lower() == "random"
        self.names = judge.names or ["A", "B"]
        stream = Stream(judge)
        self.bot_seeds = [stream.u32(), stream.u32()]
        self.codes = [None, None]
        if self.random_codes:
            count = self.colours**self.pegs
            self.codes = [self.nth_code(stream.below(count)), self.nth_code(stream.below(count))]
        self.attacks = [0, 0]
        self.cracked = [False, False]
        # (seat, its attack number): (code, black, white), for the frames.
        self.history = {}

    def nth_code(self, index):
        pegs = []
        for _ in range(self.pegs):
            index, colour = divmod(index, self.colours)
            pegs.append(colour)
        return pegs[::-1]

    def colour_range(self):
        return "0-" + colour_char(self.colours - 1)

    def code_of(self, symbols):
        """The symbols as colours, or why one is not a colour (illegal)."""
        code = []
        for c in symbols:
            v = colour_of(c)
            if v is None or v >= self.colours:
                return None, "'%s' is not a colour (the colours are %s)" % (c, self.colour_range())
            code.append(v)
        return code, None

    def feedback(self, secret, guess):
        black = 0
        in_code = [0] * MAX_COLOURS
        in_guess = [0] * MAX_COLOURS
        for c, g in zip(secret, guess):
            if c == g:
                black += 1
            else:
                in_code[c] += 1
                in_guess[g] += 1
        white = sum(min(in_code[c], in_guess[c]) for c in range(self.colours))
        return black, white

    def wire(self, code):
        return " ".join(colour_char(v) for v in code)

    def frame(self, text):
        """The attacks so far as a board: a row per round (the last
        SHOWN_ROUNDS, so that a frame stays small), A's attack and its
        feedback on the left, B's on the right; each peg in its colour.
        Public, like every frame: it shows attacks, never a code."""
        frame = {
            "hud": {
                "A": "%s: %d attacks" % (self.names[0], self.attacks[0]),
                "B": "%s: %d attacks" % (self.names[1], self.attacks[1]),
            },
            "text": text,
        }
        rounds = max(self.attacks)
        if rounds:
            cells, colours = [], []
            for number in range(max(1, rounds - SHOWN_ROUNDS + 1), rounds + 1):
                row, tints = [], []
                for seat in (0, 1):
                    if seat == 1:
                        row.append("")
                        tints.append("")
                    attack = self.history.get((seat, number))
                    if attack is None:
                        row += [""] * (self.pegs + 1)
                        tints += [""] * (self.pegs + 1)
                        continue
                    code, black, white = attack
                    row += [colour_char(v) for v in code] + ["%d●%d○" % (black, white)]
                    tints += [self.tint(v) for v in code] + [""]
                cells.append(row)
                colours.append(tints)
            frame["grid"] = {"rows": len(cells), "cols": len(cells[0]), "cells": cells, "colours": colours}
        self.judge.frame(frame)

    def tint(self, colour):
        return "hsl(%d, 70%%, 62%%)" % (colour * 360 // self.colours)

    def play(self):
        judge = self.judge
        for seat, role in ((0, "first"), (1, "second")):
            judge.tell(
                seat,
                "mastermind %d %d %s %d %d" % (self.pegs, self.colours, role, self.cap, self.bot_seeds[seat]),
            )
        judge.first(0)
        judge.moves(self.attacks)
        self.frame("%dx%d, %d attacks each" % (self.pegs, self.colours, self.cap))
        choosing = not self.random_codes
        seat = 0
        judge.ask(seat, "code" if choosing else "attack")
        while True:
            reply = judge.send()
            symbols, why = read_symbols(reply.line, self.pegs)
            if why is not None:
                judge.protocol(why)
                return
            code, why = self.code_of(symbols)
            if why is not None:
                judge.illegal("%s: %s" % ("secret code" if choosing else "attack", why))
                return
            if choosing:
                self.codes[seat] = code
                judge.log("%s chose its code" % "AB"[seat])
                if seat == 0:
                    seat = 1
                    judge.ask(1, "code")
                else:
                    choosing = False
                    seat = 0
                    judge.ask(0, "attack")
                continue
            seat = self.attack(seat, code)
            if seat is None:
                judge.send()  # the referee answers stop: the judge exits
                return

    def attack(self, seat, code):
        """Judges `seat`'s attack; the next seat to attack, or None when the
        game is over (its end is in the message)."""
        judge = self.judge
        black, white = self.feedback(self.codes[1 - seat], code)
        cracked = black == self.pegs
        self.attacks[seat] += 1
        number = self.attacks[seat]
        self.cracked[seat] = self.cracked[seat] or cracked
        self.history[(seat, number)] = (code, black, white)
        judge.log(
            "round %2d  %s attacks %s   %d black, %d white%s"
            % (number, "AB"[seat], self.wire(code), black, white, "   cracked!" if cracked else "")
        )
        judge.tell(seat, "feedback %d %d" % (black, white))
        judge.moves(self.attacks)
        self.frame("%s's attack %d: %d black, %d white%s" % ("AB"[seat], number, black, white, ", cracked!" if cracked else ""))
        if seat == 0:
            # B always gets its attack of the round: the equalizing one if A cracked.
            judge.ask(1, "attack")
            return 1
        if self.cracked == [True, True]:
            self.end(None, "both-cracked")
        elif self.cracked[0]:
            self.end(0, "cracked")
        elif self.cracked[1]:
            self.end(1, "cracked")
        elif number >= self.cap:
            self.end(None, "attack-cap")
        else:
            judge.ask(0, "attack")
            return 0
        return None

    def end(self, winner, reason):
        by = "drawn by the referee" if self.random_codes else "chosen by the bot"
        self.judge.summary(["%s's code: %s  (%s)" % ("AB"[s], self.wire(self.codes[s]), by) for s in (0, 1)])
        self.judge.end(winner, reason)


if __name__ == "__main__":
    Mastermind(Judge("mastermind", min_players=2, max_players=2)).play()

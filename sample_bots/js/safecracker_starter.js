// Safe Cracker starter bot in JavaScript (Node 18+, no packages): copy this
// file and make it smarter.
//
// Run:   referee match safecracker sample_bots/js/safecracker_starter.js target/release/safecracker_random
//        referee bench safecracker sample_bots/js/safecracker_starter.js --all
//        (add --length L --digits D for other sizes: up to 10 digits from 1-9)
//
// The protocol (see protocol.md, Safe Cracker): one line at a time.
//   safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
//   code            answer with your secret code, e.g. "1 2 3"
//   guess           answer with a guess, e.g. "1 2 3"
//   feedback K      your last guess had K exact matches
//   opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
//   end RESULT WHY  the game is over; stdin closes after it
// Write one line per request (process.stdout.write to a pipe is synchronous
// on Linux: nothing to flush).
//
// Strategy: guess a code that agrees with every feedback so far. With at most
// LIMIT codes it keeps them all and guesses the first one left in
// lexicographic order. With more (up to 9^10) it looks for a consistent code
// by random restarts and local search for at most BUDGET_MS, and plays the
// least inconsistent one found.
"use strict";
const readline = require("readline");

const LIMIT = 50000; // list every code when there are at most this many
const BUDGET_MS = 500; // for a search when there are more (the limit is 2 s a reply)

// A small seeded generator (mulberry32): integers in [0, n).
function makeRandom(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

let length = 3;
let digits = 3;
let random = makeRandom(1);
let possible = []; // every code agreeing with every feedback, when listed
const history = []; // {guess, matches}
let last = null;

function exact(a, b) {
  let k = 0;
  for (let i = 0; i < length; i++) if (a[i] === b[i]) k++;
  return k;
}

function randomCode() {
  return Array.from({ length }, () => 1 + random(digits));
}

// How far `code` is from agreeing with every feedback (0: consistent).
function error(code) {
  let total = 0;
  for (const seen of history) total += Math.abs(exact(code, seen.guess) - seen.matches);
  return total;
}

// Random restarts and local search: change one digit while it does not get worse.
function search() {
  const deadline = Date.now() + BUDGET_MS;
  let best = randomCode();
  let bestError = error(best);
  while (bestError > 0 && Date.now() < deadline) {
    let code = randomCode();
    let err = error(code);
    for (let step = 0; step < 20 * length && err > 0 && Date.now() < deadline; step++) {
      const tweak = code.slice();
      tweak[random(length)] = 1 + random(digits);
      const e = error(tweak);
      if (e <= err) {
        code = tweak;
        err = e;
      }
    }
    if (err < bestError) {
      best = code;
      bestError = err;
    }
  }
  return best;
}

// Every code in lexicographic order, or none when there are more than LIMIT.
function allCodes() {
  if (digits ** length > LIMIT) return [];
  const codes = [];
  for (let k = 0; k < digits ** length; k++) {
    const code = new Array(length);
    for (let i = length - 1, rest = k; i >= 0; i--, rest = Math.floor(rest / digits)) code[i] = 1 + (rest % digits);
    codes.push(code);
  }
  return codes;
}

function send(code) {
  process.stdout.write(code.join(" ") + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "safecracker":
      length = Number(words[1]);
      digits = Number(words[2]);
      random = makeRandom(Number(words[5]));
      break;
    case "code":
      send(randomCode());
      break;
    case "guess":
      if (history.length === 0) possible = allCodes();
      last = possible.length > 0 ? possible[0] : search();
      send(last);
      break;
    case "feedback": {
      const matches = Number(words[1]);
      history.push({ guess: last, matches });
      possible = possible.filter((code) => exact(code, last) === matches);
      break;
    }
    case "end":
      input.close();
      break;
    // "opponent G K" lines are information only: nothing to answer.
  }
});

// Mastermind starter bot in JavaScript (Node 18+, no packages): copy this file
// and make it smarter.
//
// Run:   referee match mastermind sample_bots/js/mastermind_starter.js target/release/mastermind_random
//        referee bench mastermind sample_bots/js/mastermind_starter.js --all
//        (add --pegs N --colours C for other sizes: up to 12 pegs, 36 colours)
//
// The protocol (see protocol.md, Mastermind): one line at a time.
//   mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
//   code              answer with your secret code, e.g. "0 1 2 3"
//   attack            answer with a guess, e.g. "0 0 1 1"
//   feedback B W      your last guess: B pegs right in place, W right in colour only
//   end RESULT WHY    the game is over; stdin closes after it
// Colours 0-9 are digits, 10-35 the letters a-z. Write one line per request
// (process.stdout.write to a pipe is synchronous on Linux: nothing to flush).
//
// Strategy: attack with a code that agrees with every feedback so far. With
// at most LIMIT codes it keeps them all and attacks with the first one left
// in the rules' order (base C, first peg most significant). With more (up to
// 36^12) it looks for a consistent code by random restarts and local search
// for at most BUDGET_MS, and plays the least inconsistent one found.
"use strict";
const readline = require("readline");

const LIMIT = 50000; // list every code when there are at most this many
const BUDGET_MS = 500; // for a search when there are more (the limit is 2 s a reply)
const SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz";

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

let pegs = 4;
let colours = 6;
let random = makeRandom(1);
let possible = []; // every code agreeing with every feedback, when listed
const history = []; // {guess, black, white}
let last = null;

// The rules' reference feedback function: [black, white].
function feedback(code, guess) {
  const vCode = new Array(colours).fill(0);
  const vGuess = new Array(colours).fill(0);
  let black = 0;
  let white = 0;
  for (let i = 0; i < pegs; i++) {
    if (code[i] === guess[i]) {
      black++;
    } else {
      vCode[code[i]]++;
      vGuess[guess[i]]++;
    }
  }
  for (let c = 0; c < colours; c++) white += Math.min(vCode[c], vGuess[c]);
  return [black, white];
}

function randomCode() {
  return Array.from({ length: pegs }, () => random(colours));
}

// How far `code` is from agreeing with every feedback (0: consistent).
function error(code) {
  let total = 0;
  for (const seen of history) {
    const [black, white] = feedback(code, seen.guess);
    total += Math.abs(black - seen.black) + Math.abs(white - seen.white);
  }
  return total;
}

// Random restarts and local search: change one peg while it does not get worse.
function search() {
  const deadline = Date.now() + BUDGET_MS;
  let best = randomCode();
  let bestError = error(best);
  while (bestError > 0 && Date.now() < deadline) {
    let code = randomCode();
    let err = error(code);
    for (let step = 0; step < 20 * pegs && err > 0 && Date.now() < deadline; step++) {
      const tweak = code.slice();
      tweak[random(pegs)] = random(colours);
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

// Every code in the rules' order, or none when there are more than LIMIT.
function allCodes() {
  if (colours ** pegs > LIMIT) return [];
  const codes = [];
  for (let k = 0; k < colours ** pegs; k++) {
    const code = new Array(pegs);
    for (let i = pegs - 1, rest = k; i >= 0; i--, rest = Math.floor(rest / colours)) code[i] = rest % colours;
    codes.push(code);
  }
  return codes;
}

function send(code) {
  process.stdout.write(code.map((peg) => SYMBOLS[peg]).join(" ") + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "mastermind":
      pegs = Number(words[1]);
      colours = Number(words[2]);
      random = makeRandom(Number(words[5]));
      break;
    case "code":
      send(randomCode());
      break;
    case "attack":
      if (history.length === 0) possible = allCodes();
      last = possible.length > 0 ? possible[0] : search();
      send(last);
      break;
    case "feedback": {
      const black = Number(words[1]);
      const white = Number(words[2]);
      history.push({ guess: last, black, white });
      possible = possible.filter((code) => {
        const [b, w] = feedback(code, last);
        return b === black && w === white;
      });
      break;
    }
    case "end":
      input.close();
      break;
  }
});

// Arrow 5 starter bot in JavaScript (Node 18+, no packages): copy this file
// and make it smarter.
//
// Run:   referee match arrow5 sample_bots/js/arrow5_starter.js target/release/arrow5_random
//        (add --variant hidden-eye for the hidden-eye variant)
// By hand: node sample_bots/js/arrow5_starter.js, then type the referee's lines.
//
// The protocol (see protocol.md): one line at a time from the referee.
//   arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
//   code                                  answer with your secret code, e.g. "0 1 2 3 4"
//   attack                                answer with your attack
//   signal < . >                          the signal for your last attack ("-" = no marks)
//   end win|loss|draw REASON              the game is over; stdin closes after it
// Symbols are 0-9 and E (the eye). Write one line per request
// (process.stdout.write to a pipe is synchronous on Linux: nothing to flush).
//
// Strategy: keep every code consistent with the signals so far (all 55,440
// codes at the start) and attack with the first of them.
"use strict";
const readline = require("readline");

const SYMBOLS = "0123456789E";

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

// The marks `secret` gives `attack`: '<', '.' or '>' for each symbol of the
// attack found in the secret; in hidden-eye the eye never gets a mark.
function signal(secret, attack, hiddenEye) {
  let marks = "";
  for (let i = 0; i < attack.length; i++) {
    const j = secret.indexOf(attack[i]);
    if (j < 0 || (hiddenEye && attack[i] === "E")) continue;
    marks += j < i ? "<" : j === i ? "." : ">";
  }
  return marks;
}

function send(code) {
  process.stdout.write(code.split("").join(" ") + "\n");
}

let possible = [];
for (const a of SYMBOLS)
  for (const b of SYMBOLS)
    for (const c of SYMBOLS)
      for (const d of SYMBOLS)
        for (const e of SYMBOLS) {
          const code = a + b + c + d + e;
          if (new Set(code).size === 5) possible.push(code);
        }
let hiddenEye = false;
let random = makeRandom(1);
let last = null;

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "arrow5":
      hiddenEye = words[1] === "hidden-eye";
      random = makeRandom(Number(words[4]));
      break;
    case "code":
      send(possible[random(possible.length)]);
      break;
    case "attack":
      last = possible[0];
      send(last);
      break;
    case "signal": {
      const marks = words.slice(1).filter((w) => w !== "-").join("").replace(/\u00b7/g, ".");
      const kept = possible.filter((c) => c !== last && signal(c, last, hiddenEye) === marks);
      if (kept.length > 0) possible = kept; // never empty, whatever the referee said
      break;
    }
    case "end":
      input.close();
      break;
  }
});

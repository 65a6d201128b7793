// Cryptron starter bot in JavaScript (Node 18+, no packages), written to the
// rules' "Bot Format": read the player number, then loop: read the opponent's
// move (except on player 1's first turn), choose a move, print it.
//
// Run:   referee match cryptron sample_bots/js/cryptron_starter.js sample_bots/c/cryptron_starter.c
// By hand: node sample_bots/js/cryptron_starter.js, then type 1 (or 2 and a move).
//
// The bot keeps its own board in its own frame (its base is row 0): mine[r]
// and theirs[r] count droids in row r. The opponent's move arrives in the
// opponent's frame, so its row r is our row 7 - r.
//
// A move is "i1,f1,i2,f2": first attack i1 -> f1 = i1 + 1, second attack
// i2 -> f2 by as many rows as the first attack's landing row held droids
// (1 row when landing in the opponent's base). "f1,f1" for the second attack
// when there is none; "0,0,0,0" when no first attack is legal.
//
// Strategy: every legal turn is tried; the one leaving the best points
// difference wins, ties broken by rows gained (greedy, one turn deep).
"use strict";
const readline = require("readline");

const POINTS = [0, 0, 0, 0, 1, 2, 3, 5];
const mine = [6, 1, 1, 1, 1, 1, 1, 0];
const theirs = [0, 1, 1, 1, 1, 1, 1, 6];

const total = (r) => mine[r] + theirs[r];
// Rows 1-6 hold at most 6 droids, both sides together; bases hold any number.
const room = (r) => r === 0 || r === 7 || total(r) < 6;

function value() {
  let own = 0;
  let other = 0;
  let progress = 0;
  for (let r = 0; r < 8; r++) {
    own += POINTS[r] * mine[r];
    other += POINTS[7 - r] * theirs[r];
    progress += r * mine[r];
  }
  return (own - other) * 100 + progress;
}

// Moves one droid of `side` from row `from` to row `to` (undo: swap them).
function step(side, from, to) {
  side[from]--;
  side[to]++;
}

// Plays a move on `side`; `mirror` when it is written in the opponent's frame.
function play(side, move, mirror) {
  if (move.every((x) => x === 0)) return; // a pass
  const [i1, f1, i2, f2] = mirror ? move.map((x) => 7 - x) : move;
  step(side, i1, f1);
  if (i2 !== f2) step(side, i2, f2); // f1,f1: no second attack
}

// The best legal turn, already played on our board; [0,0,0,0] is a pass.
function choose() {
  let best = [0, 0, 0, 0];
  let bestValue = -Infinity;
  for (let i1 = 0; i1 < 7; i1++) {
    if (mine[i1] === 0 || !room(i1 + 1)) continue;
    const f1 = i1 + 1;
    const length = f1 === 7 ? 1 : total(f1); // counted before the first attack
    step(mine, i1, f1);
    let any = false;
    for (let i2 = 0; length > 0 && i2 + length <= 7; i2++) {
      if (mine[i2] === 0 || !room(i2 + length)) continue;
      any = true;
      step(mine, i2, i2 + length);
      if (value() > bestValue) {
        bestValue = value();
        best = [i1, f1, i2, i2 + length];
      }
      step(mine, i2 + length, i2);
    }
    if (!any && value() > bestValue) {
      // no second attack: written f1,f1
      bestValue = value();
      best = [i1, f1, f1, f1];
    }
    step(mine, f1, i1);
  }
  play(mine, best, false);
  return best;
}

let player = 0;
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (player === 0) {
    player = Number(line.trim()); // the greeting: 1 moves first
    if (player === 1) process.stdout.write(choose().join(",") + "\n");
    return;
  }
  if (line.startsWith("end")) {
    input.close(); // the game is over
    return;
  }
  play(theirs, line.trim().split(",").map(Number), true);
  process.stdout.write(choose().join(",") + "\n");
});

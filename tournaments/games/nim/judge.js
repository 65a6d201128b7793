#!/usr/bin/env node
// Nim for the referee (rules: README.md beside this file).
//
// Heaps of objects; the players take turns, player 0 first, each taking one
// or more objects from one heap. Whoever takes the last object wins (or
// loses, in the misère form). Each request shows the heaps: `heaps 3 0 5`;
// the reply is `HEAP COUNT`.
"use strict";

const { Judge } = require("./referee_judge.js");

const MAX_HEAPS = 20;
const MAX_OBJECTS = 1000;
const COLOURS = ["#3b82f6", "#e5484d"]; // the last move's objects, by player

function main() {
  const judge = new Judge("nim", { minPlayers: 2, maxPlayers: 2 });
  judge.checkOptions(["heaps", "misere"]);
  const heaps = startingHeaps(judge);
  const misere = judge.option("misere", false, (v) => (typeof v === "boolean" ? undefined : "expected true or false"));
  const names = judge.names.length === 2 ? judge.names : ["A", "B"];
  const form = misere ? "misere" : "normal";
  const width = Math.max(...heaps); // the frames' grid keeps the first heaps' width

  const frame = (text, taken) => {
    const cols = width;
    const cells = [];
    const colours = [];
    heaps.forEach((h, i) => {
      const extra = taken && taken.heap === i ? taken.count : 0;
      cells.push(Array.from({ length: cols }, (_, c) => (c < h ? "●" : c < h + extra ? "○" : "")));
      colours.push(Array.from({ length: cols }, (_, c) => (c >= h && c < h + extra ? COLOURS[taken.player] : "")));
    });
    judge.frame({
      grid: { rows: heaps.length, cols, cells, colours },
      hud: { heaps: heaps.join(" "), left: String(heaps.reduce((a, b) => a + b, 0)), form },
      text,
    });
  };

  judge.tell(0, `nim first ${form}`);
  judge.tell(1, `nim second ${form}`);
  judge.first(0);
  frame(`${names[0]} moves first; ${misere ? "whoever takes the last object loses" : "whoever takes the last object wins"}`);
  let player = 0;
  judge.ask(player, `heaps ${heaps.join(" ")}`);
  for (;;) {
    const reply = judge.send();
    const words = reply.line.trim().split(/\s+/);
    if (words.length !== 2 || !words.every((w) => /^[0-9]{1,9}$/.test(w))) {
      judge.protocol(`expected HEAP COUNT, two numbers, got '${shorten(reply.line)}'`);
      return;
    }
    const [heap, count] = words.map(Number);
    if (heap < 1 || heap > heaps.length) {
      judge.illegal(`heap ${heap} does not exist (the heaps are 1 to ${heaps.length})`);
      return;
    }
    if (count < 1) {
      judge.illegal("a move takes at least one object");
      return;
    }
    if (count > heaps[heap - 1]) {
      judge.illegal(`heap ${heap} has ${heaps[heap - 1]} object${heaps[heap - 1] === 1 ? "" : "s"}, not ${count}`);
      return;
    }
    heaps[heap - 1] -= count;
    const move = `${names[player]} takes ${count} from heap ${heap}`;
    judge.log(`${move}: ${heaps.join(" ")}`);
    frame(move, { heap: heap - 1, count, player });
    if (heaps.every((h) => h === 0)) {
      const winner = misere ? 1 - player : player;
      judge.end(winner, "last-object", winner === 0 ? [1, 0] : [0, 1]);
      judge.send(); // the referee answers stop: the judge exits
      return;
    }
    player = 1 - player;
    judge.ask(player, `heaps ${heaps.join(" ")}`);
  }
}

// The starting heaps: the option `heaps` ("3 4 5", or a single number), or
// by default drawn from the game's seed: 3 to 5 heaps of 1 to 9 objects.
function startingHeaps(judge) {
  const option = judge.option("heaps", "random", (v) => {
    if (typeof v === "number") return Number.isInteger(v) && v >= 1 && v <= MAX_OBJECTS ? undefined : `expected heap sizes from 1 to ${MAX_OBJECTS}`;
    if (typeof v !== "string") return "expected 'random' or heap sizes such as '3 4 5'";
    if (v === "random") return undefined;
    const sizes = v.trim().split(/[\s,]+/);
    if (sizes.length > MAX_HEAPS) return `expected at most ${MAX_HEAPS} heaps`;
    if (!sizes.every((s) => /^[0-9]+$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_OBJECTS))
      return `expected 'random' or heap sizes from 1 to ${MAX_OBJECTS} such as '3 4 5'`;
    return undefined;
  });
  if (typeof option === "number") return [option];
  if (option !== "random") return option.trim().split(/[\s,]+/).map(Number);
  const seed = judge.seed;
  const count = 3 + (seed[0] % 3);
  return Array.from({ length: count }, (_, i) => 1 + (seed[i + 1] % 9));
}

function shorten(line) {
  const chars = Array.from(line);
  return chars.length <= 60 ? line : chars.slice(0, 60).join("") + "…";
}

main();

// Fixture (Arrow 5): answers its code, then allocates and touches memory
// until it is stopped. Expected verdict: memory.
"use strict";
const readline = require("readline");

const hoard = [];
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const kind = line.trim().split(/\s+/)[0];
  if (kind === "code") {
    process.stdout.write("0 1 2 3 4\n");
  } else if (kind === "attack") {
    for (;;) {
      hoard.push(Buffer.alloc(8 << 20, 1));
    }
  }
});

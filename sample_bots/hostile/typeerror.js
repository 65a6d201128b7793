// Fixture: answers `code`, then on its first attack writes 3,000 debug
// lines to stderr and throws a TypeError (verdict: crash). The record must
// keep the first debug lines and Node's whole message: the error, and this
// file's name and line.
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin });
const state = { best: null };
rl.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  if (words[0] === "code") {
    process.stdout.write("0 1 2 3 4\n");
  } else if (words[0] === "attack") {
    for (let i = 0; i < 3000; i++) {
      console.error(`debug line ${i}: weighing the attacks still possible`);
    }
    process.stdout.write(state.best.attack.join(" ") + "\n");
  }
});

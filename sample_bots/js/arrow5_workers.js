// An honest Arrow 5 bot in JavaScript that filters its candidates in a
// worker thread (worker_threads), as a student's Node program might to
// keep the main thread free. The plan is the starter's
// (sample_bots/js/arrow5_starter.js); the sandbox must let a worker start
// and run (tests/languages.rs).
"use strict";
const { Worker, isMainThread, parentPort } = require("worker_threads");

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

if (!isMainThread) {
  // The worker: keeps the candidates, answers each request on the port.
  const SYMBOLS = "0123456789E";
  let possible = [];
  for (const a of SYMBOLS)
    for (const b of SYMBOLS)
      for (const c of SYMBOLS)
        for (const d of SYMBOLS)
          for (const e of SYMBOLS) {
            const code = a + b + c + d + e;
            if (new Set(code).size === 5) possible.push(code);
          }
  parentPort.on("message", (request) => {
    if (request.kind === "pick") {
      parentPort.postMessage(possible[request.index % possible.length]);
    } else if (request.kind === "first") {
      parentPort.postMessage(possible[0]);
    } else if (request.kind === "signal") {
      const { last, marks, hiddenEye } = request;
      const kept = possible.filter((c) => c !== last && signal(c, last, hiddenEye) === marks);
      if (kept.length > 0) possible = kept; // never empty, whatever the referee said
      parentPort.postMessage(possible.length);
    }
  });
} else {
  const readline = require("readline");
  const worker = new Worker(__filename);
  const ask = (request) =>
    new Promise((resolve) => {
      worker.once("message", resolve);
      worker.postMessage(request);
    });
  const send = (code) => process.stdout.write(code.split("").join(" ") + "\n");

  let hiddenEye = false;
  let seed = 1;
  let last = null;
  // Requests are handled one at a time, in order.
  let queue = Promise.resolve();
  const input = readline.createInterface({ input: process.stdin });
  input.on("line", (line) => {
    queue = queue.then(async () => {
      const words = line.trim().split(/\s+/);
      switch (words[0]) {
        case "arrow5":
          hiddenEye = words[1] === "hidden-eye";
          seed = Number(words[4]) >>> 0;
          break;
        case "code":
          send(await ask({ kind: "pick", index: seed }));
          break;
        case "attack":
          last = await ask({ kind: "first" });
          send(last);
          break;
        case "signal": {
          const marks = words.slice(1).filter((w) => w !== "-").join("").replace(/\u00b7/g, ".");
          await ask({ kind: "signal", last, marks, hiddenEye });
          break;
        }
        case "end":
          input.close();
          await worker.terminate();
          break;
      }
    });
  });
}

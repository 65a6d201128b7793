// The replay viewer: reads the game embedded in the page (#game-data) and
// draws the position after move k (0 = before the first move). Every text
// from the game goes in with textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var moves = data.moves || [];
  var n = moves.length;
  var k = 0;
  var timer = null;
  var viewer = document.getElementById("viewer");
  var board = document.getElementById("board");
  var info = document.getElementById("move-info");
  var position = document.getElementById("position");
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The rules' glyphs: the eye, backtrack/steady/advance, pegs.
  function showCode(line) {
    if (data.game === "arrow5") {
      return line.split(/[\s,\-]+/).filter(Boolean).map(function (s) {
        return s === "E" || s === "e" ? "\u{1F441}" : s;
      }).join(" ");
    }
    return line;
  }
  function showFeedback(feedback) {
    if (!feedback) return "";
    var words = feedback.trim().split(/\s+/);
    if (words[0] === "signal") {
      var marks = words.slice(1).filter(function (m) { return m !== "-"; });
      if (marks.length === 0) return "(no marks)";
      return marks.map(function (m) { return m === "." ? "\u00B7" : m; }).join(" ");
    }
    if (words[0] === "feedback" && data.game === "mastermind") {
      var black = parseInt(words[1], 10) || 0, white = parseInt(words[2], 10) || 0;
      var pegs = "\u25CF".repeat(black) + "\u25CB".repeat(white);
      return (pegs || "no pegs") + " (" + black + " black, " + white + " white)";
    }
    if (words[0] === "feedback") return words[1] + " exact";
    return feedback;
  }

  function drawCodeGame() {
    var sides = el("div", "sides");
    ["a", "b"].forEach(function (seat) {
      var other = seat === "a" ? "B" : "A";
      var column = el("section", "side");
      column.appendChild(el("h3", null, seat.toUpperCase() + " (" + data.bots[seat === "a" ? 0 : 1] + ") attacks " + other + "'s code"));
      var list = el("ol", "attacks");
      list.id = "attacks-" + seat;
      for (var i = 0; i < k; i++) {
        var m = moves[i];
        if (m.seat !== seat) continue;
        var item = el("li", i === k - 1 ? "current" : null);
        item.dataset.line = m.line;
        item.dataset.feedback = m.feedback || "";
        item.appendChild(el("code", "attack", showCode(m.line)));
        item.appendChild(el("span", "feedback", showFeedback(m.feedback)));
        list.appendChild(item);
      }
      column.appendChild(list);
      sides.appendChild(column);
    });
    board.appendChild(sides);
    if (k === n && data.reveal && data.reveal.length) {
      var codes = el("ul", "codes");
      codes.id = "codes";
      data.reveal.forEach(function (line) { codes.appendChild(el("li", null, showCode(line))); });
      board.appendChild(codes);
    }
  }

  // Cryptron: rows 7 (B's base) at the top down to 0 (A's base), in A's
  // frame; a for A's droids, b for B's.
  function drawCryptron() {
    var rows = data.initial_board;
    var points = data.initial_points;
    for (var i = k - 1; i >= 0; i--) {
      if (moves[i].board) { rows = moves[i].board; points = moves[i].points; break; }
    }
    // The last turn's two attacks, in A's frame: where droids left and landed.
    var left = {}, landed = {};
    if (k > 0) {
      var rowsOf = moves[k - 1].line.split(/[^0-7]+/).filter(Boolean).map(Number);
      if (rowsOf.length === 4 && !(rowsOf[0] === rowsOf[1])) {
        var frame = function (r) { return moves[k - 1].seat === "a" ? r : 7 - r; };
        left[frame(rowsOf[0])] = true; landed[frame(rowsOf[1])] = true;
        if (rowsOf[2] !== rowsOf[3]) { left[frame(rowsOf[2])] = true; landed[frame(rowsOf[3])] = true; }
      }
    }
    var table = el("table", "cryptron");
    table.id = "cryptron-board";
    for (var r = 7; r >= 0; r--) {
      var tr = el("tr", landed[r] ? "landed" : left[r] ? "left" : null);
      tr.dataset.row = r;
      tr.dataset.a = rows[0][r];
      tr.dataset.b = rows[1][r];
      tr.appendChild(el("th", null, String(r)));
      var cell = el("td", "droids");
      for (var a = 0; a < rows[0][r]; a++) cell.appendChild(el("span", "droid a", "a"));
      for (var b = 0; b < rows[1][r]; b++) cell.appendChild(el("span", "droid b", "b"));
      tr.appendChild(cell);
      tr.appendChild(el("th", null, String(7 - r) + (r === 0 ? "  A base" : r === 7 ? "  B base" : "")));
      table.appendChild(tr);
    }
    board.appendChild(table);
    var p = el("p", "points", "points: A " + points[0] + ", B " + points[1]);
    p.id = "points";
    p.dataset.a = points[0];
    p.dataset.b = points[1];
    board.appendChild(p);
  }

  function draw() {
    viewer.dataset.move = k;
    position.textContent = "move " + k + " of " + n;
    board.textContent = "";
    if (data.game === "cryptron") drawCryptron(); else drawCodeGame();
    info.textContent = "";
    if (k > 0) {
      var m = moves[k - 1];
      var text = m.seat.toUpperCase() + " played " + showCode(m.line);
      if (m.feedback) text += " \u2192 " + showFeedback(m.feedback);
      if (m.wall_ms !== null && m.wall_ms !== undefined) text += " (" + m.wall_ms.toFixed(3) + " ms)";
      info.textContent = text;
    }
    (data.verdicts || []).forEach(function (v) {
      if (v.move_number <= k && (v.move_number > 0 || k === n)) {
        info.appendChild(el("p", "verdict", v.seat.toUpperCase() + " disqualified (" + v.verdict + "): " + v.detail));
      }
    });
    if (k === n && data.result) info.appendChild(el("p", "result", data.result));
    var items = document.querySelectorAll("#moves li");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === k - 1);
  }

  function go(to) {
    k = Math.max(0, Math.min(n, to));
    draw();
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    playButton.textContent = "\u25B6";
  }
  function play() {
    if (timer) { stop(); return; }
    if (k === n) go(0);
    playButton.textContent = "\u23F8";
    timer = setInterval(function () {
      if (k >= n) { stop(); return; }
      go(k + 1);
    }, parseInt(speed.value, 10) || 700);
  }
  function fromHash() {
    var match = /^#move-(\d+)$/.exec(window.location.hash);
    if (match) go(parseInt(match[1], 10));
  }

  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("back").addEventListener("click", function () { stop(); go(k - 1); });
  document.getElementById("forward").addEventListener("click", function () { stop(); go(k + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(n); });
  playButton.addEventListener("click", play);
  speed.addEventListener("change", function () { if (timer) { stop(); play(); } });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { stop(); go(k + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stop(); go(k - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); go(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); go(n); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  draw();
  fromHash();
})();

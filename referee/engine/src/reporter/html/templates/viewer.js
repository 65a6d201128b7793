// The replay viewer: reads the game embedded in the page (#game-data) and
// draws the position after move k (0 = before the first move). Every text
// from the game goes in with textContent, never as markup; glyphs (the eye,
// pegs) are drawn as inline SVG, so they show without an emoji font.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var moves = data.moves || [];
  var n = moves.length;
  var shape = data.shape || null;
  // A judge game's frames ({move, frame}): the latest drawn by move k is
  // its view at k.
  var frames = data.frames || [];
  var k = 0;
  var timer = null;
  var viewer = document.getElementById("viewer");
  var board = document.getElementById("board");
  var info = document.getElementById("move-info");
  var position = document.getElementById("position");
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");
  var scrub = document.getElementById("scrub");
  var projectorButton = document.getElementById("projector");
  var progress = document.getElementById("progress");
  var SVG = "http://www.w3.org/2000/svg";

  // Text from the game goes on the page through `shown` (shown.js,
  // loaded before this script): its control, reordering and invisible
  // characters escaped. The data stays the game's own (the viewer reads
  // codes from it, `data-line` holds what the bot wrote). An organiser's
  // game.html from before shown.js still gets a viewer, its text as it is.
  var shown = typeof window.shown === "function" ? window.shown
    : function (text) { return String(text); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = shown(text);
    return e;
  }
  function svg(tag, attrs, parent) {
    var e = document.createElementNS(SVG, tag);
    for (var name in attrs) e.setAttribute(name, attrs[name]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function svgText(parent, attrs, text) {
    svg("text", attrs, parent).textContent = shown(text);
  }

  // The eye of Arrow 5, drawn: an almond, its iris and pupil.
  function eye() {
    var s = svg("svg", { "class": "eye", viewBox: "0 0 24 16", role: "img", "aria-label": "eye" });
    svg("title", {}, s).textContent = "eye";
    svg("path", { d: "M1 8 Q12 -3.5 23 8 Q12 19.5 1 8 Z", fill: "#fff", stroke: "#333", "stroke-width": "1.4" }, s);
    svg("circle", { cx: 12, cy: 8, r: 4.3, fill: "#2f6fbf" }, s);
    svg("circle", { cx: 12, cy: 8, r: 2, fill: "#111" }, s);
    svg("circle", { cx: 13.3, cy: 6.7, r: 0.9, fill: "#fff" }, s);
    return s;
  }

  // Mastermind's colours: distinct hues, with the colour's symbol on the
  // peg for readers who cannot tell them apart.
  var PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#ffbf00", "#9467bd", "#ff7f0e",
                 "#17becf", "#e377c2", "#8c564b", "#7f7f7f", "#bcbd22", "#000080"];
  function colourOf(symbol) {
    var c = parseInt(symbol, 36);
    return c < PALETTE.length ? PALETTE[c] : "hsl(" + Math.round(c * 137.5 % 360) + ",60%,45%)";
  }
  function light(colour) {
    return colour === "#ffbf00" || colour === "#17becf" || colour === "#bcbd22";
  }
  function peg(symbol) {
    var s = svg("svg", { "class": "peg", viewBox: "0 0 20 20", role: "img", "aria-label": "colour " + symbol });
    s.dataset.colour = symbol;
    var colour = colourOf(symbol);
    svg("circle", { cx: 10, cy: 10, r: 9, fill: colour, stroke: "#222", "stroke-width": "0.8" }, s);
    svgText(s, { x: 10, y: 14.2, "text-anchor": "middle", "font-size": "11", "font-weight": "bold",
                 fill: light(colour) ? "#111" : "#fff" }, symbol);
    return s;
  }
  function hole() {
    var s = svg("svg", { "class": "peg hole", viewBox: "0 0 20 20", "aria-hidden": "true" });
    svg("circle", { cx: 10, cy: 10, r: 4, fill: "#c9ced6" }, s);
    return s;
  }
  // Black and white key pegs in two rows, empty holes for the rest.
  function keyPegs(black, white, size) {
    var columns = Math.max(1, Math.ceil(size / 2));
    var s = svg("svg", { "class": "key", viewBox: "0 0 " + columns * 10 + " 20", role: "img",
                         "aria-label": black + " black, " + white + " white" });
    s.dataset.black = black;
    s.dataset.white = white;
    svg("title", {}, s).textContent = black + " black, " + white + " white";
    for (var i = 0; i < columns * 2 && i < Math.max(size, black + white); i++) {
      var attrs = { cx: 5 + 10 * (i % columns), cy: 5 + 10 * Math.floor(i / columns), r: 3.6 };
      if (i < black) { attrs.fill = "#111"; }
      else if (i < black + white) { attrs.fill = "#fff"; attrs.stroke = "#333"; attrs["stroke-width"] = "1"; }
      else { attrs.fill = "#c9ced6"; attrs.r = 1.6; }
      svg("circle", attrs, s);
    }
    return s;
  }

  // A code as the bot wrote it, as its symbols (`1 0 3 6 E`, `1-0-3-6-9`,
  // `5523`); none if it is not a code of this game's shape.
  function symbols(line) {
    var parts = line.trim().split(/[\s,\-]+/).filter(Boolean);
    if (parts.length === 1) parts = Array.from(parts[0]);
    parts = parts.filter(function (s) { return s !== "\uFE0F"; });
    if (!shape || parts.length !== shape.length) return null;
    var ok = parts.every(function (s) {
      if (data.game === "arrow5") return /^[0-9Ee]$/.test(s) || s === "\u{1F441}";
      if (data.game === "mastermind") { var c = parseInt(s, 36); return s.length === 1 && c >= 0 && c < shape.symbols; }
      var d = parseInt(s, 10); return /^[0-9]$/.test(s) && d >= 1 && d <= shape.symbols;
    });
    return ok ? parts : null;
  }
  // A code drawn in the rules' glyphs; a line that is no code stays text.
  function codeNode(line) {
    var parts = symbols(line);
    var box = el("span", "code");
    if (!parts) { box.appendChild(el("code", "raw", line)); return box; }
    parts.forEach(function (s) {
      if (data.game === "mastermind") box.appendChild(peg(s.toLowerCase()));
      else if (s === "E" || s === "e" || s === "\u{1F441}") box.appendChild(eye());
      else box.appendChild(el("span", data.game === "safecracker" ? "digit dial" : "digit", s));
    });
    return box;
  }
  function feedbackNode(feedback) {
    var node = el("span", "feedback");
    if (!feedback) return node;
    var words = feedback.trim().split(/\s+/);
    if (words[0] === "signal") {
      var marks = words.slice(1).filter(function (m) { return m !== "-"; });
      node.textContent = marks.length === 0 ? "(no marks)"
        : shown(marks.map(function (m) { return m === "." ? "\u00B7" : m; }).join(" "));
    } else if (words[0] === "feedback" && data.game === "mastermind") {
      var black = parseInt(words[1], 10) || 0, white = parseInt(words[2], 10) || 0;
      node.appendChild(keyPegs(black, white, shape ? shape.length : black + white));
      node.appendChild(el("span", "key-text", black + " black, " + white + " white"));
    } else if (words[0] === "feedback") {
      node.textContent = shown(words[1]) + " exact";
    } else {
      node.textContent = shown(feedback);
    }
    return node;
  }

  function attackRow(m, number, current) {
    var item = el("li", current ? "current" : null);
    item.dataset.line = m.line;
    item.dataset.feedback = m.feedback || "";
    item.appendChild(el("span", "number", String(number)));
    var attack = codeNode(m.line);
    attack.classList.add("attack");
    item.appendChild(attack);
    item.appendChild(feedbackNode(m.feedback));
    return item;
  }

  // Mastermind keeps its board whole: one row per attack allowed (when
  // they fit), the rows not yet played as empty holes.
  function emptyRows(list, made) {
    if (!shape) return;
    var rows = data.game === "mastermind" && shape.cap <= 30 ? shape.cap : made + 1;
    if (k === n) rows = Math.min(rows, made);
    for (var r = made; r < rows; r++) {
      var item = el("li", "empty");
      item.appendChild(el("span", "number", String(r + 1)));
      var box = el("span", "code attack");
      for (var i = 0; i < shape.length; i++) {
        box.appendChild(data.game === "mastermind" ? hole() : el("span", "digit blank", "\u00A0"));
      }
      item.appendChild(box);
      if (data.game === "mastermind") item.appendChild(keyPegs(0, 0, shape.length));
      list.appendChild(item);
    }
  }

  function solo() {
    return !!(shape && shape.solo);
  }

  function drawCodeGame() {
    var sides = el("div", "sides");
    var seats = solo() ? ["a"] : ["a", "b"];
    seats.forEach(function (seat) {
      var other = seat === "a" ? "B" : "A";
      var column = el("section", "side");
      var title = seat.toUpperCase() + " (" + data.bots[seat === "a" ? 0 : 1] + ") attacks " +
        (seats.length === 1 ? "the referee's secret" : other + "'s code");
      column.appendChild(el("h3", null, title));
      var list = el("ol", "attacks " + data.game);
      list.id = "attacks-" + seat;
      var made = 0;
      for (var i = 0; i < k; i++) {
        if (moves[i].seat !== seat) continue;
        made++;
        list.appendChild(attackRow(moves[i], made, i === k - 1));
      }
      emptyRows(list, made);
      column.appendChild(list);
      sides.appendChild(column);
    });
    board.appendChild(sides);
    if (k === n && (data.secrets[0] || data.secrets[1] || (data.reveal && data.reveal.length))) {
      var codes = el("ul", "codes");
      codes.id = "codes";
      (data.reveal || []).forEach(function (line) {
        var match = /^(A's code|B's code|the secret|secret): (.*?)(  \((.*)\))?$/.exec(line);
        var item = el("li");
        if (!match) { item.textContent = shown(line); codes.appendChild(item); return; }
        var seat = match[1] === "A's code" ? "a" : "b";
        var code = data.secrets[seat === "a" ? 0 : 1];
        item.className = "secret";
        item.dataset.seat = seat;
        item.dataset.code = code || "";
        item.appendChild(el("span", "label", match[1] === "A's code" || match[1] === "B's code"
          ? match[1] + ":" : "The secret:"));
        item.appendChild(code ? codeNode(code) : el("span", null, match[2]));
        if (match[4]) item.appendChild(el("span", "note", "(" + match[4] + ")"));
        codes.appendChild(item);
      });
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

  // The game's progress after each move 0..n, one series per seat: the
  // points (Cryptron), or the attacks each seat has left and the codes
  // still possible after its feedback (on a log scale).
  function track(start, value) {
    var now = [start, start], out = { a: [start], b: [start] };
    moves.forEach(function (m) {
      var i = m.seat === "a" ? 0 : 1;
      now[i] = value(m, now[i]);
      out.a.push(now[0]); out.b.push(now[1]);
    });
    if (solo()) out.b = null;
    return out;
  }
  function charts() {
    var out = [];
    if (data.game === "cryptron") {
      var points = data.initial_points || [0, 0];
      var scored = { id: "progress-chart", label: "points", a: [points[0]], b: [points[1]], zero: true };
      moves.forEach(function (m) {
        if (m.points) points = m.points;
        scored.a.push(points[0]); scored.b.push(points[1]);
      });
      out.push(scored);
    } else if (shape) {
      var left = track(shape.cap, function (m, v) { return Math.max(0, v - 1); });
      left.id = "progress-chart";
      left.label = data.game === "safecracker" ? "guesses left" : "attacks left";
      out.push(left);
      if (shape.codes) {
        var possible = track(shape.codes, function (m, v) {
          return m.candidates === undefined || m.candidates === null ? v : m.candidates;
        });
        possible.id = "candidates-chart";
        possible.label = "codes still possible (log scale)";
        possible.log = true;
        out.push(possible);
      }
    }
    return out;
  }
  var markers = [];
  function drawChart(s) {
    var scale = s.log ? function (v) { return Math.log(Math.max(v, 1)) / Math.LN10; } : function (v) { return v; };
    // The range the values take: attacks left fall by a few of many.
    var all = s.a.concat(s.b || []);
    var top = Math.max.apply(null, all), bottom = s.log ? 1 : s.zero ? 0 : Math.min.apply(null, all);
    if (top === bottom) bottom = Math.max(0, top - 1);
    if (top === bottom) top = bottom + 1;
    var W = 600, H = 120, L = 44, R = 8, T = 8, B = 20;
    var x = function (i) { return L + (W - L - R) * (n === 0 ? 0 : i / n); };
    var y = function (v) { return T + (H - T - B) * (scale(top) - scale(v)) / (scale(top) - scale(bottom)); };
    var root = svg("svg", { id: s.id, viewBox: "0 0 " + W + " " + H, role: "img",
                            "aria-label": s.label + " after each move" }, progress);
    root.dataset.series = s.label;
    var base = y(bottom);
    svg("line", { x1: L, y1: base, x2: W - R, y2: base, stroke: "#999" }, root);
    svg("line", { x1: L, y1: T, x2: L, y2: base, stroke: "#999" }, root);
    svgText(root, { x: L - 4, y: y(top) + 4, "text-anchor": "end", "font-size": 10, fill: "#555" }, String(top));
    svgText(root, { x: L - 4, y: base, "text-anchor": "end", "font-size": 10, fill: "#555" }, String(bottom));
    svgText(root, { x: W - R, y: H - 5, "text-anchor": "end", "font-size": 10, fill: "#555" }, "move " + n);
    svgText(root, { x: L, y: H - 5, "font-size": 10, fill: "#555" },
            s.label + (s.b ? " (A blue, B orange)" : ""));
    [["a", "#1d4e89"], ["b", "#b35900"]].forEach(function (pair) {
      var values = s[pair[0]];
      if (!values) return;
      var d = values.map(function (v, i) { return (i ? "L" : "M") + x(i).toFixed(1) + " " + y(v).toFixed(1); }).join(" ");
      var line = svg("path", { d: d, fill: "none", stroke: pair[1], "stroke-width": 2, "class": "series" }, root);
      line.dataset.seat = pair[0];
      line.dataset.values = values.join(" ");
    });
    var marker = svg("line", { "class": "progress-now", y1: T, y2: base, stroke: "#c00", "stroke-dasharray": "3 2" }, root);
    markers.push({ marker: marker, x: x });
  }
  function drawCharts() {
    if (!progress) return;
    var all = charts();
    progress.hidden = all.length === 0;
    all.forEach(drawChart);
  }
  function moveChart() {
    markers.forEach(function (m) {
      m.marker.setAttribute("x1", m.x(k));
      m.marker.setAttribute("x2", m.x(k));
    });
  }

  // The frame of a judge game at move k, drawn by the game folder's own
  // viewer.js when it set window.refereeDrawFrame(board, frame, k, frames),
  // else as its grid (cell text and colour), hud and caption.
  function frameAt(at) {
    var found = null;
    frames.forEach(function (f) { if (f.move <= at) found = f.frame; });
    return found;
  }
  var COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgb|hsl)a?\([0-9., %]{1,40}\))$/;
  function drawFrame() {
    var frame = frameAt(k);
    if (typeof window.refereeDrawFrame === "function") {
      window.refereeDrawFrame(board, frame, k, frames);
      return;
    }
    if (!frame) return;
    var grid = frame.grid;
    if (grid && Array.isArray(grid.cells)) {
      var table = el("div", "frame-grid");
      var cols = Number(grid.cols) || (Array.isArray(grid.cells[0]) ? grid.cells[0].length : 1);
      table.style.gridTemplateColumns = "repeat(" + cols + ", 2.2em)";
      grid.cells.forEach(function (row, r) {
        // A judge's frame that is not a grid of rows draws nothing of it.
        if (!Array.isArray(row)) return;
        row.forEach(function (text, c) {
          var cell = el("div", "frame-cell", text === null || text === undefined ? "" : String(text));
          var colour = grid.colours && grid.colours[r] && grid.colours[r][c];
          // A colour only (a name, #hex, rgb() or hsl()): never url(), which
          // would load something from the network.
          if (typeof colour === "string" && COLOUR.test(colour)) cell.style.background = colour;
          table.appendChild(cell);
        });
      });
      board.appendChild(table);
    }
    if (frame.hud) {
      var hud = el("dl", "frame-hud");
      Object.keys(frame.hud).forEach(function (key) {
        hud.appendChild(el("dt", null, key));
        hud.appendChild(el("dd", null, String(frame.hud[key])));
      });
      board.appendChild(hud);
    }
    if (frame.text) board.appendChild(el("p", "frame-text", String(frame.text)));
  }

  function draw() {
    viewer.dataset.move = k;
    position.textContent = "move " + k + " of " + n;
    if (scrub) scrub.value = k;
    board.textContent = "";
    if (frames.length || typeof window.refereeDrawFrame === "function") drawFrame();
    else if (data.game === "cryptron") drawCryptron(); else drawCodeGame();
    info.textContent = "";
    if (k > 0) {
      var m = moves[k - 1];
      info.appendChild(document.createTextNode(m.seat.toUpperCase() + " played "));
      info.appendChild(frames.length ? el("code", null, m.line) : codeNode(m.line));
      if (m.feedback) {
        info.appendChild(document.createTextNode(" \u2192 "));
        info.appendChild(feedbackNode(m.feedback));
      }
      if (m.wall_ms !== null && m.wall_ms !== undefined) {
        info.appendChild(el("span", "time", " (" + m.wall_ms.toFixed(3) + " ms)"));
      }
    }
    (data.verdicts || []).forEach(function (v) {
      if (v.move_number <= k && (v.move_number > 0 || k === n)) {
        info.appendChild(el("p", "verdict", v.seat.toUpperCase() + " disqualified (" + v.verdict + "): " + v.detail));
      }
    });
    if (k === n && data.result) info.appendChild(el("p", "result", data.result));
    var items = document.querySelectorAll("#moves li");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === k - 1);
    moveChart();
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
  // Projector mode: the viewer alone, large, full screen where the browser
  // allows it (the large layout holds without it).
  function projector() {
    var on = document.body.classList.toggle("projector");
    projectorButton.setAttribute("aria-pressed", on ? "true" : "false");
    try {
      if (on && viewer.requestFullscreen && !document.fullscreenElement) {
        var asked = viewer.requestFullscreen();
        if (asked && asked.catch) asked.catch(function () {});
      } else if (!on && document.fullscreenElement && document.exitFullscreen) {
        var left = document.exitFullscreen();
        if (left && left.catch) left.catch(function () {});
      }
    } catch (e) { /* no full screen here: the large layout is enough */ }
  }
  document.addEventListener("fullscreenchange", function () {
    if (!document.fullscreenElement && document.body.classList.contains("projector")) {
      document.body.classList.remove("projector");
      projectorButton.setAttribute("aria-pressed", "false");
    }
  });

  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("back").addEventListener("click", function () { stop(); go(k - 1); });
  document.getElementById("forward").addEventListener("click", function () { stop(); go(k + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(n); });
  playButton.addEventListener("click", play);
  speed.addEventListener("change", function () { if (timer) { stop(); play(); } });
  if (scrub) {
    scrub.max = n;
    scrub.addEventListener("input", function () { stop(); go(parseInt(scrub.value, 10) || 0); });
  }
  if (projectorButton) projectorButton.addEventListener("click", projector);
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT")) return;
    if (e.key === "ArrowRight") { stop(); go(k + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stop(); go(k - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); go(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); go(n); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
    else if (e.key === "f" && projectorButton) { projector(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  drawCharts();
  draw();
  fromHash();
})();

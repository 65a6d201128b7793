// `shown(text)`: text a bot wrote (a name, a move, a frame, a verdict's
// detail) as a person reads it, for every page whose script shows such
// text: a report's game viewer, `replay --html`, and `referee serve`'s
// own pages (the leaderboard's status line, a game being played, the
// projector). One file loaded before their scripts (`assets/shown.js`,
// inlined in a self-contained page), so that there is one copy of the
// characters below in the pages; a test runs every code point through it
// and through the terminal's escape (referee-rules' text.rs) and compares.
//
// The characters a person cannot see as they are: control characters
// (C0 but the line break, DEL, C1), the direction overrides, isolates
// and marks that reorder a line, and those that show as nothing or as a
// space that is not the space: the set of text.rs's `needs_escape`,
// which the pages' template formatter and the terminal use. Each is
// written as the formatter writes it (`\x1b`, `\u{202e}`), so that a
// bot's U+202E cannot turn a line around. Done where text is shown, not
// in the data a page reads: that stays the game's own.
var shown = (function () {
  "use strict";
  var UNSEEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u00a0\u00ad\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u2069\u2800\u3000\u3164\ufeff\uffa0]/g;
  return function shown(text) {
    return String(text).replace(UNSEEN, function (c) {
      var code = c.charCodeAt(0).toString(16);
      return code.length <= 2 ? "\\x" + ("0" + code).slice(-2) : "\\u{" + code + "}";
    });
  };
})();

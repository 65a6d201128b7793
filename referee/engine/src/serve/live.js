// `referee serve`: keeps the leaderboard page up to date without a reload.
// The server sends a snapshot of the folder (server-sent events) whenever
// its files change; when games were added, the page's <main> is replaced
// by the leaderboard the server renders now (the report's own template,
// which escapes what bots wrote). The status line is text, the bots'
// names in it shown through `shown` (shown.js, loaded before this script).
(function () {
  "use strict";
  var updates = 0;
  var shownGames = null;
  var log = document.createElement("ol");
  log.id = "live-log";
  log.hidden = true;
  document.body.appendChild(log);
  // Set once per page load: a reload would change it.
  document.body.setAttribute("data-loaded", String(Date.now()) + "-" + String(Math.random()).slice(2));
  var status = document.createElement("p");
  status.id = "live-status";
  status.className = "meta";
  status.textContent = "live: connecting…";

  function placeStatus() {
    var main = document.querySelector("main");
    if (main && status.parentNode !== main) { main.insertBefore(status, main.firstChild); }
    var note = document.querySelector("strong.live");
    if (note) { note.textContent = "live: updated as games finish"; }
  }
  placeStatus();

  function describe(s) {
    var parts = [s.games_done + " of " + s.games_total + " games"];
    if (s.shard) { parts.push("shard " + s.shard); }
    if (s.running && s.running.length) {
      parts.push("playing now: " + s.running.map(function (r) {
        // A free-for-all's game has more than two seats.
        var bots = r.bots && r.bots.length > 2 ? r.bots.join(", ") : r.bot_a + " vs " + r.bot_b;
        return "game " + r.game + " " + bots;
      }).join(", "));
    }
    if (s.finished === true) { parts.push("finished"); }
    if (typeof s.seconds_left === "number") { parts.push("about " + Math.ceil(s.seconds_left) + " s left"); }
    return "live: " + parts.join(" · ");
  }

  function refresh() {
    fetch("/", { cache: "no-store" }).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r.text();
    }).then(function (text) {
      var fresh = new DOMParser().parseFromString(text, "text/html").querySelector("main");
      var main = document.querySelector("main");
      if (fresh && main) {
        main.replaceWith(document.importNode(fresh, true));
        placeStatus();
      }
    }).catch(function (e) { status.textContent = shown("live: cannot load the leaderboard (" + e.message + ")"); });
  }

  var source = new EventSource("/events");
  source.addEventListener("snapshot", function (e) {
    var s = JSON.parse(e.data);
    if (s.error) { status.textContent = shown("live: " + s.error); return; }
    status.textContent = shown(describe(s));
    if (shownGames !== null && s.games_done !== shownGames) {
      updates += 1;
      document.body.setAttribute("data-updates", String(updates));
      refresh();
    }
    shownGames = s.games_done;
    var item = document.createElement("li");
    item.textContent = String(s.games_done);
    log.appendChild(item);
    document.body.setAttribute("data-games", String(s.games_done));
  });
  source.onerror = function () { status.textContent = "live: the server is not answering; retrying…"; };
})();

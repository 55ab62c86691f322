// The series projector: its standings arrive over the series' live stream (/series/<slug>/live, opened by
// live.js): each time a tournament of the series changes, the new standings, painted here without a
// reload. Without a stream (no Redis, a WSGI server, Redis down, too many viewers) the screen reloads once
// a minute as before, and the room sees the standings at most a minute old.
(function () {
  "use strict";
  const RELOAD_MS = 60 * 1000;
  const table = document.querySelector("[data-series-projector]");
  const lang = document.documentElement.lang;

  function cell(className, text) {
    const td = document.createElement("td");
    td.className = className;
    td.textContent = text;
    return td;
  }

  function paint(rows) {
    const body = table.querySelector("tbody");
    const fresh = document.createElement("tbody");
    for (const row of rows) {
      const tr = document.createElement("tr");
      tr.dataset.name = row.name;
      const negative = String(row.score).startsWith("-") ? " negative" : "";
      tr.append(
        cell("num rank", String(row.rank)),
        cell("name", (row.shown && row.shown[lang]) || row.name),
        cell("num score" + negative, window.Riichi.score(row.score)),
        cell("num played", String(row.events)),
      );
      fresh.append(tr);
    }
    body.replaceWith(fresh);
    table.dataset.painted = String(Number(table.dataset.painted || 0) + 1);
  }

  document.addEventListener("riichi:live", (event) => {
    const data = event.detail;
    if (table && data && data.kind === "series" && data.payload) paint(data.payload.rows);
  });

  function reloadUnlessLive() {
    const live = window.Riichi && window.Riichi.live;
    if (live && live.connected) {
      setTimeout(reloadUnlessLive, RELOAD_MS);
    } else {
      window.location.reload();
    }
  }
  setTimeout(reloadUnlessLive, RELOAD_MS);
})();

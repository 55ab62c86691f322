/* Live tables: every table of the current hanchan (of a club session, every table in play, each its own
   hanchan, named by it) with its running points, riichi sticks, honba, the
   hand being played and the time since its last entry, redrawn from the "tables" events of the live
   stream (live.js: the public payload comes with the event; the staff's pages and the projector of a
   signed-in referee fetch theirs) and polled as the standings are (every 5 s without a stream, every
   30 s with one). The head referee's page (data-watch) puts the slow tables first, with why; the
   projector (data-projector-tables) shows as many tables as fit and turns pages. */
(function () {
  "use strict";

  const R = window.Riichi;
  const POLL_MS = 5000;
  const LIVE_POLL_MS = 30000;
  const AGE_MS = 30000;
  const PAGE_MS = 12000;
  const ROUND_WINDS = [
    pgettext("round wind", "East"),
    pgettext("round wind", "South"),
    pgettext("round wind", "West"),
    pgettext("round wind", "North"),
  ];
  const SEAT_WINDS = [
    pgettext("round wind, one letter", "E"),
    pgettext("round wind, one letter", "S"),
    pgettext("round wind, one letter", "W"),
    pgettext("round wind, one letter", "N"),
  ];
  const STATUS = {
    waiting: pgettext("table status", "No entry yet"),
    over: pgettext("table status", "Hanchan over: the sheet is to be submitted"),
    submitted: pgettext("table status", "Submitted"),
    signed: pgettext("table status", "Signed"),
    disputed: pgettext("table status", "Disputed"),
  };

  function handLabel(table) {
    if (table.hand === null || table.hand === undefined) return STATUS[table.status] || "";
    const round = interpolate(
      pgettext("round", "%(wind)s %(number)s"),
      { wind: ROUND_WINDS[Math.floor(table.hand / 4) % 4], number: (table.hand % 4) + 1 },
      true,
    );
    if (!table.honba) return round;
    return round + " · " + interpolate(ngettext("%(count)s honba", "%(count)s honba", table.honba), { count: table.honba }, true);
  }

  /* Minutes since ``iso``, as the server's clock had it when it computed the payload (``now``) plus the
     time this page has held it: the phone's own clock may be off. */
  function minutesSince(iso, payload, receivedAt) {
    const age = Date.parse(payload.now) - Date.parse(iso) + (performance.now() - receivedAt);
    return Math.max(0, Math.floor(age / 60000));
  }

  function ageText(table, payload, receivedAt) {
    if (!table.last_entry_at) return gettext("no entry yet");
    const minutes = minutesSince(table.last_entry_at, payload, receivedAt);
    if (minutes < 1) return gettext("last entry just now");
    return interpolate(gettext("last entry %(minutes)s min ago"), { minutes }, true);
  }

  function flagText(flag) {
    if (flag.rule === "hands-behind") {
      return interpolate(
        ngettext("%(hands)s hand behind the median (%(median)s)", "%(hands)s hands behind the median (%(median)s)", flag.hands),
        { hands: flag.hands, median: flag.median },
        true,
      );
    }
    return interpolate(
      ngettext("No entry for %(minutes)s minute", "No entry for %(minutes)s minutes", flag.minutes),
      { minutes: flag.minutes },
      true,
    );
  }

  function card(table, payload, receivedAt) {
    const playing = table.status === "waiting" || table.status === "playing";
    const flags = table.flags || [];
    const facts = [];
    if (table.riichi_sticks) {
      facts.push(interpolate(ngettext("%(count)s riichi stick", "%(count)s riichi sticks", table.riichi_sticks), { count: table.riichi_sticks }, true));
    }
    if (table.hands_played !== null && table.hands_played !== undefined) {
      facts.push(interpolate(ngettext("%(count)s hand played", "%(count)s hands played", table.hands_played), { count: table.hands_played }, true));
    }
    if (playing) facts.push(ageText(table, payload, receivedAt));
    let className = "live-table";
    if (!playing) className += " finished";
    if (flags.length) className += " slow";
    const title = payload.club
      ? interpolate(gettext("Hanchan %(number)s"), { number: table.round }, true)
      : interpolate(gettext("Table %(number)s"), { number: table.table }, true);
    return R.el("article", { className, "data-table": table.table, "data-round": table.round }, [
      R.el("header", {}, [
        R.el("h2", { text: title }),
        R.el("span", { className: "live-hand", "data-hand": true, text: handLabel(table) }),
      ]),
      R.el(
        "ol",
        { className: "live-seats" },
        table.seats.map((seat) =>
          R.el("li", { className: seat.dealer ? "dealer" : null, "data-dealer": seat.dealer ? "" : null }, [
            // The seat's wind in the hand being played (the dealer is East), the seating's once over.
            R.el("span", {
              className: "wind",
              text: SEAT_WINDS[seat.current_wind === null || seat.current_wind === undefined ? seat.wind : seat.current_wind],
              title: seat.dealer ? gettext("Dealer") : null,
            }),
            seat.dealer ? R.el("span", { className: "visually-hidden", text: gettext("Dealer") }) : null,
            R.el("span", { className: "name", text: R.shownName(seat) }),
            R.el("span", {
              className: "num points" + (seat.points !== null && seat.points < 0 ? " negative" : ""),
              "data-points": true,
              text: seat.points === null ? "" : R.points(seat.points),
            }),
          ]),
        ),
      ),
      R.el("p", { className: "facts", text: facts.join(" · ") }),
      flags.length ? R.el("ul", { className: "flags" }, flags.map((flag) => R.el("li", { text: flagText(flag) }))) : null,
    ]);
  }

  function summary(payload) {
    if (!payload.shown) return gettext("The live tables of this hanchan are not public.");
    // Tables with a hand entered and not over (table_progress.tables_playing): a table waiting for its
    // first entry is not playing yet.
    const playing = payload.playing !== undefined ? payload.playing : payload.tables.filter((t) => t.status === "playing").length;
    if (payload.club) {
      if (!payload.tables.length) return gettext("No table is playing.");
      return interpolate(
        ngettext("%(playing)s of %(tables)s table playing", "%(playing)s of %(tables)s tables playing", payload.tables.length),
        { playing, tables: payload.tables.length },
        true,
      );
    }
    if (!payload.round) return gettext("No hanchan in play.");
    return interpolate(
      ngettext("Hanchan %(number)s: %(playing)s of %(tables)s table playing", "Hanchan %(number)s: %(playing)s of %(tables)s tables playing", payload.tables.length),
      { number: payload.round, playing, tables: payload.tables.length },
      true,
    );
  }

  function slowFirst(tables) {
    const weight = (t) => {
      const flags = t.flags || [];
      return flags.length ? -1000 * flags.length - flags.reduce((sum, f) => sum + (f.hands || 0) * 10 + (f.minutes || 0), 0) : 0;
    };
    return tables.slice().sort((a, b) => weight(a) - weight(b) || a.round - b.round || a.table - b.table);
  }

  function poll(url, paint) {
    /* Another hanchan may be current after a seating or the clock: asked again at once. */
    R.poll(url, paint, { kind: "tables", refetchOn: ["seating", "clock"], everyMs: POLL_MS, liveMs: LIVE_POLL_MS, waitFirst: true });
  }

  function initial() {
    const data = document.getElementById("live-tables-data");
    return data ? JSON.parse(data.textContent) : null;
  }

  function page(root) {
    const grid = root.querySelector("[data-tables-grid]");
    const summaryNode = root.querySelector("[data-tables-summary]");
    const watch = root.hasAttribute("data-watch");
    let payload = null;
    let receivedAt = 0;

    function render() {
      if (!payload) return;
      summaryNode.textContent = summary(payload);
      const tables = watch ? slowFirst(payload.tables) : payload.tables;
      grid.replaceChildren(...tables.map((table) => card(table, payload, receivedAt)));
      root.dataset.version = String((Number(root.dataset.version) || 0) + 1);
    }

    function paint(data) {
      payload = data;
      receivedAt = performance.now();
      render();
    }

    setInterval(render, AGE_MS);
    paint(initial());
    poll(root.dataset.url, paint);
  }

  /* The projector: the tables in as many columns and rows as the screen holds, pages turning. */
  function projector(root) {
    const grid = root.querySelector("[data-tables-grid]");
    const summaryNode = root.querySelector("[data-tables-summary]");
    const label = root.querySelector("[data-page-label]");
    let payload = null;
    let receivedAt = 0;
    let index = 0;
    let perPage = 0;

    function bottom() {
      return window.innerHeight - 8;
    }

    function measure() {
      if (!payload || !payload.tables.length) return 1;
      grid.replaceChildren(card(payload.tables[0], payload, receivedAt));
      const first = grid.firstElementChild.getBoundingClientRect();
      const style = getComputedStyle(grid);
      const gap = parseFloat(style.rowGap) || 0;
      const columns = Math.max(1, style.gridTemplateColumns.split(" ").length);
      const room = bottom() - grid.getBoundingClientRect().top;
      const rows = Math.max(1, Math.floor((room + gap) / (first.height + gap)));
      return columns * rows;
    }

    /* Whether a card of the page shown runs past the screen (a long name wrapped: taller than the first). */
    function overflows() {
      return Array.from(grid.children).some((node) => node.getBoundingClientRect().bottom > bottom());
    }

    function show() {
      if (!payload) return;
      summaryNode.textContent = summary(payload);
      const pages = Math.max(1, Math.ceil(payload.tables.length / perPage));
      if (index >= pages) index = 0;
      const shown = payload.tables.slice(index * perPage, (index + 1) * perPage);
      grid.replaceChildren(...shown.map((table) => card(table, payload, receivedAt)));
      label.textContent = pages > 1 ? interpolate(gettext("Tables %(page)s/%(pages)s"), { page: index + 1, pages }, true) : "";
    }

    function layout() {
      perPage = measure();
      show();
      while (perPage > 1 && overflows()) {
        perPage -= 1;
        show();
      }
    }

    function paint(data) {
      payload = data;
      receivedAt = performance.now();
      layout();
    }

    setInterval(() => {
      index += 1;
      show();
    }, PAGE_MS);
    window.addEventListener("resize", R.debounce(layout, 200));
    paint(initial());
    poll(root.dataset.url, paint);
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const root of document.querySelectorAll("[data-live-tables]")) page(root);
    for (const root of document.querySelectorAll("[data-projector-tables]")) projector(root);
  });
})();

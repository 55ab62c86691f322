/* Live standings: poll the cached standings JSON every 2.5 s (an unchanged answer is a cheap
   304), redraw the rows when they change, flash the totals that moved; search a name; "highlight me"
   (remembered in localStorage). The projector uses the same poll with its own columns and pages. */
(function () {
  "use strict";

  const R = window.Riichi;
  const POLL_MS = 2500;
  const LIVE_POLL_MS = 30000; /* with a live stream open: a safety net only */
  /* Why a player is not ranked: the JSON has the product's English words (tournament.participation's
     unranked_reason, one cached answer for every reader), translated here as the page shows them. */
  const UNRANKED_NOTES = [
    gettext_noop("Substitute"),
    gettext_noop("Disqualified"),
    gettext_noop("Did not start"),
    gettext_noop("Withdrawn"),
    gettext_noop("No hanchan finished yet"), // a club session's player (tournament.club)
  ];

  const MANY_WAITING = 6;

  function summary(data) {
    // A penalty given during a later hanchan counts at once: the heading says so (tournament.standings).
    let text = !data.rounds
      ? gettext("No signed score sheet yet")
      : data.penalty_round > data.rounds
        ? interpolate(gettext("After hanchan %(number)s, with the penalties of hanchan %(later)s"), { number: data.rounds, later: data.penalty_round }, true)
        : interpolate(gettext("After hanchan %(number)s"), { number: data.rounds }, true);
    if (data.current_round && data.current_round_status === "started") {
      const number = data.current_round;
      text += " · ";
      if (data.pending.length > MANY_WAITING) {
        // Past a handful, how many: a list of twenty table numbers says less and runs off the line.
        const waiting = ngettext(
          "hanchan %(number)s: waiting for %(waiting)s of %(tables)s table",
          "hanchan %(number)s: waiting for %(waiting)s of %(tables)s tables",
          data.tables,
        );
        text += interpolate(waiting, { number, waiting: data.pending.length, tables: data.tables }, true);
      } else if (data.pending.length) {
        const tables = data.pending.map((p) => p.table).join(", ");
        const waiting = ngettext(
          "hanchan %(number)s: waiting for table %(tables)s",
          "hanchan %(number)s: waiting for tables %(tables)s",
          data.pending.length,
        );
        text += interpolate(waiting, { number, tables }, true);
      } else {
        text += interpolate(gettext("hanchan %(number)s: every table signed"), { number }, true);
      }
    } else if (data.club && data.pending.length) {
      // A club session: every table in play is a hanchan of its own, named by it.
      text += " · ";
      const count = data.pending.length;
      if (count > MANY_WAITING) {
        text += interpolate(ngettext("waiting for %(count)s table", "waiting for %(count)s tables", count), { count }, true);
      } else {
        const hanchan = data.pending.map((p) => p.round).join(", ");
        const waiting = ngettext(
          "waiting for the table of hanchan %(hanchan)s",
          "waiting for the tables of hanchan %(hanchan)s",
          count,
        );
        text += interpolate(waiting, { hanchan }, true);
      }
    }
    return text;
  }

  function isNegative(total) {
    return String(total).startsWith("-");
  }

  function standingsPage(root) {
    const slug = root.dataset.slug;
    const rowsBody = root.querySelector("[data-rows]");
    const unrankedBody = root.querySelector("[data-unranked]");
    const search = root.querySelector("[data-search]");
    const meBar = root.querySelector("[data-me-bar]");
    let totals = new Map();
    for (const tr of rowsBody.querySelectorAll("tr[data-player]")) {
      totals.set(tr.dataset.player, tr.querySelector(".total").textContent.trim());
    }

    function rankedRow(row, base, changed) {
      const me = R.me.get(slug);
      const mine = me && String(me.id) === String(row.player);
      return R.el(
        "tr",
        {
          "data-player": row.player,
          "data-name": row.name,
          "data-names": row.name + " " + R.shownName(row),
          className: (mine ? "me" : "") + (changed ? " changed" : ""),
        },
        [
          R.el("td", { className: "num rank", "data-key": "rank", text: row.rank }),
          R.el("td", { "data-key": "name" }, [
            R.el("a", { href: base + row.player + "/", text: R.shownName(row) }),
            row.phase_name ? R.el("span", { className: "phase-tag", text: row.phase_name }) : null,
            // A ranked player who withdrew is marked as such (tournament.participation.unranked_reason).
            row.note ? R.el("span", { className: "phase-tag", "data-note": "", text: UNRANKED_NOTES.includes(row.note) ? gettext(row.note) : row.note }) : null,
            R.el("span", {
              className: "narrow-only",
              text:
                interpolate(gettext("%(played)s played"), { played: row.played }, true) +
                (row.penalties !== "0"
                  ? " · " + interpolate(gettext("penalties −%(points)s"), { points: R.score(row.penalties) }, true)
                  : ""),
            }),
          ]),
          R.el("td", { className: "num total" + (isNegative(row.total) ? " negative" : ""), "data-key": "total", text: R.score(row.total) }),
          R.el("td", { className: "num wide-only", text: row.played }),
          R.el("td", { className: "num wide-only", text: row.penalties !== "0" ? "−" + R.score(row.penalties) : "" }),
          R.el(
            "td",
            {},
            R.el("button", {
              type: "button",
              className: "star",
              "aria-pressed": mine ? "true" : "false",
              "aria-label": interpolate(gettext("This is me: %(name)s"), { name: R.shownName(row) }, true),
              text: mine ? "★" : "☆",
            }),
          ),
        ],
      );
    }

    function unrankedRow(row, base) {
      return R.el("tr", { "data-player": row.player, "data-name": row.name, "data-names": row.name + " " + R.shownName(row) }, [
        R.el("td", {}, R.el("a", { href: base + row.player + "/", text: R.shownName(row) })),
        R.el("td", { text: UNRANKED_NOTES.includes(row.note) ? gettext(row.note) : row.note || "" }),
        R.el("td", { className: "num", text: R.score(row.total) }),
        R.el("td", { className: "num", text: row.played }),
      ]);
    }

    function teamRow(team) {
      const members = [];
      team.members.forEach((m, i) => {
        if (i) members.push(", ");
        members.push(R.el("span", { className: m.counted ? "counted" : "muted", text: m.name + " " + R.score(m.contribution) }));
      });
      return R.el("tr", { "data-team": team.name }, [
        R.el("td", { className: "num rank", text: team.rank }),
        R.el("td", {}, [team.name, R.el("span", { className: "narrow-only", text: interpolate(gettext("%(played)s played"), { played: team.played }, true) })]),
        R.el("td", { className: "num total" + (isNegative(team.total) ? " negative" : ""), text: R.score(team.total) }),
        R.el("td", { className: "num wide-only", text: team.played }),
        R.el("td", { className: "small" }, members),
      ]);
    }

    function paintTeams(teams) {
      const body = root.querySelector("[data-team-rows]");
      if (!body || !teams) return;
      body.replaceChildren(...teams.map(teamRow));
      root.querySelector("[data-team-section]").hidden = teams.length === 0;
    }

    function applySearch() {
      const query = R.fold(search.value);
      for (const tr of root.querySelectorAll("tr[data-name]")) {
        tr.hidden = query !== "" && !R.fold(tr.dataset.names || tr.dataset.name).includes(query);
      }
    }

    function paintMe() {
      const me = R.me.get(slug);
      for (const tr of rowsBody.querySelectorAll("tr[data-player]")) {
        const mine = me && String(me.id) === tr.dataset.player;
        tr.classList.toggle("me", !!mine);
        const star = tr.querySelector("button.star");
        if (star) {
          star.setAttribute("aria-pressed", mine ? "true" : "false");
          star.textContent = mine ? "★" : "☆";
        }
      }
      meBar.replaceChildren();
      const row = me && rowsBody.querySelector('tr[data-player="' + CSS.escape(String(me.id)) + '"]');
      if (row) {
        meBar.append(
          R.el("span", {}, [
            gettext("You:") + " ",
            R.el("b", { text: me.name }),
            ", " + interpolate(gettext("rank %(rank)s"), { rank: row.querySelector(".rank").textContent }, true),
          ]),
          R.el("button", {
            type: "button",
            className: "small",
            text: gettext("Show me"),
            onclick: () => row.scrollIntoView({ behavior: "smooth", block: "center" }),
          }),
          R.el("button", { type: "button", className: "small", text: gettext("Forget me"), onclick: () => R.me.set(slug, null) }),
        );
      } else {
        meBar.append(R.el("span", { className: "muted", text: gettext("Tap ☆ beside your name to highlight it on this device.") }));
      }
    }

    function paint(data) {
      const next = new Map();
      const ranked = [];
      const unranked = [];
      for (const row of data.rows) {
        next.set(String(row.player), R.score(row.total));
        const before = totals.get(String(row.player));
        const changed = before !== undefined && before !== R.score(row.total);
        if (row.ranked) ranked.push(rankedRow(row, data.player_url, changed));
        else unranked.push(unrankedRow(row, data.player_url));
      }
      totals = next;
      rowsBody.replaceChildren(...ranked);
      if (unrankedBody) {
        unrankedBody.replaceChildren(...unranked);
        root.querySelector("[data-unranked-section]").hidden = unranked.length === 0;
      }
      paintTeams(data.teams);
      root.querySelector("[data-summary]").textContent = summary(data);
      applySearch();
      paintMe();
    }

    rowsBody.addEventListener("click", (event) => {
      const star = event.target.closest("button.star");
      if (!star) return;
      const tr = star.closest("tr");
      const me = R.me.get(slug);
      if (me && String(me.id) === tr.dataset.player) R.me.set(slug, null);
      else R.me.set(slug, { id: Number(tr.dataset.player), name: tr.dataset.name });
    });
    document.addEventListener("riichi:me", paintMe);
    search.addEventListener("input", applySearch);
    paintMe();
    poll(root.dataset.url, paint);
  }

  function poll(url, paint, kind = "standings") {
    R.poll(url, paint, { kind, everyMs: POLL_MS, liveMs: LIVE_POLL_MS });
  }

  /* The projector: the ranked players in as many columns as the screen holds, every row visible
     without scrolling; when more players than fit, pages that turn by themselves. When the next
     hanchan's seating is published, its tables take turns with the standings. */
  const PAGE_MS = 12000;
  const MAX_COLUMNS = 8;

  function chunk(items, size) {
    const pages = [];
    for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
    return pages.length ? pages : [[]];
  }

  function columnsClass(count) {
    return "cols-" + Math.max(1, Math.min(MAX_COLUMNS, count));
  }

  function projector(root) {
    const board = root.querySelector("[data-board]");
    const standingsView = root.querySelector('[data-view="standings"]');
    const seatingView = root.querySelector('[data-view="seating"]');
    const teamsView = root.querySelector('[data-view="teams"]');
    const teamsBox = root.querySelector("[data-team-columns]");
    const columnsBox = root.querySelector("[data-columns]");
    const tablesBox = root.querySelector("[data-tables]");
    const pageLabel = root.querySelector("[data-page-label]");
    let ranked = [];
    let teams = [];
    let seating = { round: null, tables: [] };
    let screens = [];
    let index = 0;
    // The number of hanchan played and the phase beside each name, dropped from the standings when they
    // would cost them a page; a phase every ranked player shares is said once, in the heading.
    let showPlayed = true;
    let showPhases = true;
    let sharedPhase = "";

    function fontSize() {
      return parseFloat(getComputedStyle(board).fontSize) || 16;
    }

    /* A column of the table sized in pixels (the name's column takes the rest of the table's width). */
    function col(width) {
      const node = R.el("col");
      if (width) node.style.width = width + "px";
      return node;
    }

    /* A ranked table of players (``data-name``) or of teams (``data-team``): rank, name, total, played;
       ``widths`` (from ``columnWidths``) size the columns of rank, total and played. */
    function rankedTable(rows, heading, key, widths, played) {
      const withPlayed = played !== false;
      return R.el("table", { className: "projector-standings" }, [
        R.el("colgroup", {}, [col(widths && widths.rank), col(0), col(widths && widths.total), withPlayed ? col(widths && widths.played) : null]),
        R.el(
          "thead",
          {},
          R.el("tr", {}, [
            R.el("th", { className: "num rank", text: "#" }),
            R.el("th", { text: heading }),
            R.el("th", { className: "num total", text: gettext("Total") }),
            withPlayed ? R.el("th", { className: "num played", text: gettext("Played") }) : null,
          ]),
        ),
        R.el(
          "tbody",
          {},
          rows.map((row) =>
            R.el("tr", { [key]: row.name }, [
              R.el("td", { className: "num rank", text: row.rank }),
              R.el("td", { className: "name" }, [
                R.shownName(row),
                showPhases && !sharedPhase && row.phase_name ? R.el("span", { className: "phase-tag", text: row.phase_name }) : null,
              ]),
              R.el("td", { className: "num total" + (isNegative(row.total) ? " negative" : ""), text: R.score(row.total) }),
              withPlayed ? R.el("td", { className: "num played", text: row.played }) : null,
            ]),
          ),
        ),
      ]);
    }

    const standingsTable = (rows, widths) => rankedTable(rows, gettext("Player"), "data-name", widths, showPlayed);
    const teamTable = (rows, widths) => rankedTable(rows, gettext("Team"), "data-team", widths);

    /* Text widths in the page's own fonts, measured without laying anything out. */
    const measurer = document.createElement("canvas").getContext("2d");
    function textWidth(text, font) {
      measurer.font = font;
      return measurer.measureText(text).width;
    }

    /* An element's font as the canvas takes it (the computed ``font`` shorthand is empty for table cells). */
    function fontOf(element) {
      const style = getComputedStyle(element);
      return [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(" ");
    }

    /* The width of each column of a ranked table that shows every rank, name (with its phase), total and
       number played of ``rows`` whole, and the headings too (upper-cased, in their smaller font): measured
       in the fonts of ``probe``, a table of one of the rows laid out on the page. Three-digit ranks, long
       names and negative totals take the room they need; nothing is cut to "1…" or "-2…". */
    function columnWidths(probe, rows) {
      const head = probe.tHead.rows[0].cells;
      const cells = probe.tBodies[0].rows[0].cells;
      const room = (cell) => {
        const style = getComputedStyle(cell);
        return parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 2;
      };
      const widest = (texts, cell) => {
        const font = fontOf(cell);
        return texts.reduce((most, text) => Math.max(most, textWidth(String(text), font)), 0);
      };
      const heading = (i) => widest([head[i].textContent.toLocaleUpperCase()], head[i]) + room(head[i]);
      const figure = (i, key) => Math.ceil(Math.max(heading(i), widest(rows.map((row) => (key === "total" ? R.score(row.total) : row[key])), cells[i]) + room(cells[i])));
      const tag = probe.querySelector(".phase-tag");
      let tagRoom = 0;
      let tagFont = "";
      if (tag) {
        const style = getComputedStyle(tag);
        tagFont = fontOf(tag);
        tagRoom = parseFloat(style.marginLeft) + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 2;
      }
      const nameFont = fontOf(cells[1]);
      const names = rows.reduce((most, row) => {
        const phase = row.phase_name && tag ? textWidth(row.phase_name, tagFont) + tagRoom : 0;
        return Math.max(most, textWidth(R.shownName(row), nameFont) + phase);
      }, 0);
      const widths = {
        rank: figure(0, "rank"),
        name: Math.ceil(Math.max(heading(1), names + room(cells[1]))),
        total: figure(2, "total"),
        played: cells[3] ? figure(3, "played") : 0,
      };
      widths.table = widths.rank + widths.name + widths.total + widths.played;
      return widths;
    }

    /* How many rows of a ranked table fit in ``room`` pixels. */
    function rowsThatFit(table, room) {
      const head = table.tHead.getBoundingClientRect().height;
      const row = table.tBodies[0].rows[0].getBoundingClientRect().height || 1;
      return Math.floor((room - head - 2) / row);
    }

    function seatTable(table) {
      return R.el("div", { className: "seat-table" }, [
        R.el("h3", { text: interpolate(gettext("Table %(number)s"), { number: table.table }, true) }),
        R.el(
          "ol",
          {},
          table.seats.map((seat) => R.el("li", {}, [R.el("span", { className: "wind", text: seat.wind }), " " + seat.name])),
        ),
      ]);
    }

    /* How many items of a kind fit: columns by the width one item needs (``itemWidth(probe)``, in pixels,
       measured with the probe on the page), rows by measuring one real item. */
    function fit(view, box, probe, itemHeight, itemWidth) {
      const hidden = view.hidden;
      view.hidden = false;
      box.className = box.className.replace(/\bcols-\d+\b/, "cols-1");
      box.replaceChildren(probe);
      const extra = itemWidth(probe);
      const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
      const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.floor((box.clientWidth + gap) / (extra.width + gap))));
      const room = board.clientHeight - (box.getBoundingClientRect().top - board.getBoundingClientRect().top);
      const perColumn = Math.max(1, itemHeight(probe, room));
      view.hidden = hidden;
      return { columns, perColumn, widths: extra.widths, room };
    }

    /* The width a ranked table of ``rows`` needs, for ``fit``: the widest of its rows and headings. */
    function rankedWidth(rows) {
      return (probe) => {
        const widths = columnWidths(probe, rows);
        return { width: widths.table, widths };
      };
    }

    /* The standings' letters and rows sized from the field and the screen. A row is at least MIN_ROW
       of the screen's height (36 px at 1080 px, readable from the back of a hall) and the letters at
       least MIN_FONT of it; the pages needed at the smallest size are kept, and the letters grow as
       large as those pages still hold (binary search: a larger font holds fewer rows), the rows then
       stretched to fill the columns' height. */
    const MIN_ROW = 36 / 1080;
    const MIN_FONT = 14 / 1080;
    const MAX_FONT = 48 / 1080;

    function standingsAt(size, probeRow, sample, minRow) {
      board.style.fontSize = size + "px";
      board.style.setProperty("--projector-row", minRow + "px");
      return fit(standingsView, columnsBox, standingsTable([probeRow]), rowsThatFit, rankedWidth(sample));
    }

    function standingsLayout(sample, probeRow) {
      const screenHeight = window.innerHeight;
      const minRow = Math.round(screenHeight * MIN_ROW);
      const capacity = (rows) => rows.columns * rows.perColumn;
      let low = Math.max(10, screenHeight * MIN_FONT);
      const pagesAt = () => Math.max(1, Math.ceil(ranked.length / capacity(standingsAt(low, probeRow, sample, minRow))));
      // The first of these that needs no more pages than the bare standings: the played column goes
      // before the phases (the order of the rows already says who reached the final).
      let pages = Infinity;
      let choice = null;
      for (const [phases, played] of [[true, true], [true, false], [false, true], [false, false]]) {
        showPhases = phases;
        showPlayed = played;
        const count = pagesAt();
        if (count < pages) {
          pages = count;
          choice = [phases, played];
        }
      }
      [showPhases, showPlayed] = choice;
      let rows;
      const perPage = Math.ceil(ranked.length / pages);
      let high = Math.max(low, screenHeight * MAX_FONT);
      while (high - low > 0.25) {
        const middle = (low + high) / 2;
        if (capacity(standingsAt(middle, probeRow, sample, minRow)) >= perPage) low = middle;
        else high = middle;
      }
      rows = standingsAt(low, probeRow, sample, minRow);
      // Rows as tall as the columns allow (never more than twice the letters' line).
      const columnsUsed = Math.max(1, Math.min(rows.columns, Math.ceil(perPage / rows.perColumn)));
      const perColumn = Math.max(1, Math.ceil(perPage / columnsUsed));
      const probe = columnsBox.querySelector("table");
      const rowBox = probe.tBodies[0].rows[0].getBoundingClientRect().height;
      const spare = (rows.room - probe.tHead.getBoundingClientRect().height - 2) / perColumn;
      const rowHeight = Math.max(minRow, Math.min(Math.floor(spare), Math.round(low * 2.4), Math.floor(rowBox * 2)));
      board.style.setProperty("--projector-row", rowHeight + "px");
      return { columns: columnsUsed, perColumn, widths: rows.widths };
    }

    function layout() {
      screens = [];
      const sample = ranked.length ? ranked : [{ rank: 1, name: "M", total: "0", played: 0 }];
      // The probe row carries a phase tag when any row does, so that the tag's font can be measured.
      const probeRow = sample.find((row) => row.phase_name) || sample[0];
      const rows = standingsLayout(sample, probeRow);
      const standingsPages = chunk(ranked, rows.columns * rows.perColumn);
      standingsPages.forEach((page, i) =>
        screens.push({ kind: "standings", page, layout: rows, label: interpolate(gettext("Standings %(page)s/%(pages)s"), { page: i + 1, pages: standingsPages.length }, true) }),
      );
      if (teamsView && teams.length) {
        const teamRows = fit(teamsView, teamsBox, teamTable(teams.slice(0, 1)), rowsThatFit, rankedWidth(teams));
        const teamPages = chunk(teams, teamRows.columns * teamRows.perColumn);
        teamPages.forEach((page, i) =>
          screens.push({ kind: "teams", page, layout: teamRows, label: interpolate(gettext("Teams %(page)s/%(pages)s"), { page: i + 1, pages: teamPages.length }, true) }),
        );
      }
      if (seating.round && seating.tables.length) {
        seatingView.hidden = false;
        const cards = fit(seatingView, tablesBox, seatTable(seating.tables[0]), (card, room) => {
          const gap = fontSize() * 0.5;
          return Math.floor((room + gap) / (card.getBoundingClientRect().height + gap));
        }, () => ({ width: fontSize() * 13 }));
        seatingView.hidden = true;
        const seatingPages = chunk(seating.tables, cards.columns * cards.perColumn);
        seatingPages.forEach((page, i) =>
          screens.push({
            kind: "seating",
            page,
            layout: cards,
            label: interpolate(
              gettext("Seating of hanchan %(number)s %(page)s/%(pages)s"),
              { number: seating.round, page: i + 1, pages: seatingPages.length },
              true,
            ),
          }),
        );
      }
      show();
    }

    function show() {
      if (index >= screens.length) index = 0;
      const screen = screens[index];
      const seatingShown = screen.kind === "seating";
      standingsView.hidden = screen.kind !== "standings";
      seatingView.hidden = !seatingShown;
      if (teamsView) teamsView.hidden = screen.kind !== "teams";
      if (screen.kind === "teams") {
        teamsBox.className = "columns " + columnsClass(screen.layout.columns);
        teamsBox.replaceChildren(...chunk(screen.page, screen.layout.perColumn).map((rows) => teamTable(rows, screen.layout.widths)));
      } else if (seatingShown) {
        tablesBox.className = "seat-tables " + columnsClass(screen.layout.columns);
        tablesBox.replaceChildren(...screen.page.map(seatTable));
      } else {
        const per = screen.layout.perColumn;
        const columns = chunk(screen.page, per);
        columnsBox.className = "columns " + columnsClass(screen.layout.columns);
        columnsBox.replaceChildren(...columns.map((rows) => standingsTable(rows, screen.layout.widths)));
      }
      pageLabel.textContent = screens.length > 1 ? screen.label : "";
    }

    function paint(data) {
      ranked = data.rows.filter((row) => row.ranked);
      teams = data.teams || [];
      const first = ranked.length ? ranked[0].phase_name || "" : "";
      sharedPhase = first && ranked.every((row) => row.phase_name === first) ? first : "";
      root.querySelector("[data-summary]").textContent = (sharedPhase ? sharedPhase + " · " : "") + summary(data);
      layout();
    }

    function paintSeating(data) {
      seating = data;
      root.querySelector("[data-seating-title]").textContent = data.round
        ? interpolate(gettext("Seating of hanchan %(number)s"), { number: data.round }, true)
        : "";
      layout();
    }

    setInterval(() => {
      if (screens.length > 1) {
        index = (index + 1) % screens.length;
        show();
      }
    }, PAGE_MS);
    window.addEventListener("resize", layout);
    poll(root.dataset.url, paint);
    poll(root.dataset.seatingUrl, paintSeating, "seating");
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const root of document.querySelectorAll("[data-standings]")) standingsPage(root);
    for (const root of document.querySelectorAll("[data-projector]")) projector(root);
  });
})();

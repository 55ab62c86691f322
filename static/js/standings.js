/* Live standings: poll the cached standings JSON every 2.5 s (an unchanged answer is a cheap
   304), redraw the rows when they change, flash the totals that moved; search a name; "highlight me"
   (remembered in localStorage). The projector uses the same poll with its own, larger rows. */
(function () {
  "use strict";

  const R = window.Riichi;
  const POLL_MS = 2500;
  const LIVE_POLL_MS = 30000; /* with a live stream open: a safety net only */

  function summary(data) {
    let text = data.rounds ? "After hanchan " + data.rounds : "No signed score sheet yet";
    if (data.current_round && data.current_round_status === "started") {
      text += " · hanchan " + data.current_round + ": ";
      if (data.pending.length) {
        text +=
          "waiting for table" +
          (data.pending.length > 1 ? "s " : " ") +
          data.pending.map((p) => p.table).join(", ");
      } else {
        text += "every table signed";
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
          className: (mine ? "me" : "") + (changed ? " changed" : ""),
        },
        [
          R.el("td", { className: "num rank", text: row.rank }),
          R.el("td", {}, [
            R.el("a", { href: base + row.player + "/", text: row.name }),
            R.el("span", {
              className: "narrow-only",
              text: row.played + " played" + (row.penalties !== "0" ? " · penalties −" + row.penalties : ""),
            }),
          ]),
          R.el("td", { className: "num total" + (isNegative(row.total) ? " negative" : ""), text: row.total }),
          R.el("td", { className: "num wide-only", text: row.played }),
          R.el("td", { className: "num wide-only", text: row.penalties !== "0" ? "−" + row.penalties : "" }),
          R.el(
            "td",
            {},
            R.el("button", {
              type: "button",
              className: "star",
              "aria-pressed": mine ? "true" : "false",
              "aria-label": "This is me: " + row.name,
              text: mine ? "★" : "☆",
            }),
          ),
        ],
      );
    }

    function unrankedRow(row, base) {
      return R.el("tr", { "data-player": row.player, "data-name": row.name }, [
        R.el("td", {}, R.el("a", { href: base + row.player + "/", text: row.name })),
        R.el("td", { text: row.note || "" }),
        R.el("td", { className: "num", text: row.total }),
        R.el("td", { className: "num", text: row.played }),
      ]);
    }

    function applySearch() {
      const query = R.fold(search.value);
      for (const tr of root.querySelectorAll("tr[data-name]")) {
        tr.hidden = query !== "" && !R.fold(tr.dataset.name).includes(query);
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
          R.el("span", {}, ["You: ", R.el("b", { text: me.name }), ", rank " + row.querySelector(".rank").textContent]),
          R.el("button", {
            type: "button",
            className: "small",
            text: "Show me",
            onclick: () => row.scrollIntoView({ behavior: "smooth", block: "center" }),
          }),
          R.el("button", { type: "button", className: "small", text: "Forget me", onclick: () => R.me.set(slug, null) }),
        );
      } else {
        meBar.append(R.el("span", { className: "muted", text: "Tap ☆ beside your name to highlight it on this device." }));
      }
    }

    function paint(data) {
      const next = new Map();
      const ranked = [];
      const unranked = [];
      for (const row of data.rows) {
        next.set(String(row.player), row.total);
        const before = totals.get(String(row.player));
        const changed = before !== undefined && before !== row.total;
        if (row.ranked) ranked.push(rankedRow(row, data.player_url, changed));
        else unranked.push(unrankedRow(row, data.player_url));
      }
      totals = next;
      rowsBody.replaceChildren(...ranked);
      if (unrankedBody) {
        unrankedBody.replaceChildren(...unranked);
        root.querySelector("[data-unranked-section]").hidden = unranked.length === 0;
      }
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

  /* Poll ``url``; call ``paint`` with the data when the answer differs from the last one. While a live
     stream is open (live.js) the poll only checks now and then: a "riichi:live" standings event brings
     the public standings with it, or asks for a fetch at once (the staff's fuller standings). */
  function poll(url, paint) {
    let last = null;
    let timer = null;
    async function tick() {
      clearTimeout(timer);
      try {
        const response = await fetch(url, { cache: "no-cache", headers: { Accept: "application/json" } });
        if (response.ok) {
          const text = await response.text();
          if (text !== last) paint(JSON.parse(text));
          last = text;
        }
      } catch (e) {
        /* a dropped request: the next one catches up */
      }
      const live = R.live && R.live.connected;
      timer = setTimeout(tick, live ? LIVE_POLL_MS : document.hidden ? POLL_MS * 4 : POLL_MS);
    }
    document.addEventListener("riichi:live", (event) => {
      if (event.detail.kind !== "standings") return;
      if (event.detail.payload) {
        paint(event.detail.payload);
        last = null;
      } else {
        tick();
      }
    });
    document.addEventListener("riichi:live-state", (event) => {
      if (!event.detail.connected) {
        tick(); /* the stream dropped: poll at once, then as before */
      } else {
        clearTimeout(timer); /* the stream is open: the next poll in 30 s */
        timer = setTimeout(tick, LIVE_POLL_MS);
      }
    });
    tick();
  }

  function projector(root) {
    const body = root.querySelector("[data-rows]");
    function paint(data) {
      body.replaceChildren(
        ...data.rows
          .filter((row) => row.ranked)
          .map((row) =>
            R.el("tr", {}, [
              R.el("td", { className: "num rank", text: row.rank }),
              R.el("td", { text: row.name }),
              R.el("td", { className: "num" + (isNegative(row.total) ? " negative" : ""), text: row.total }),
              R.el("td", { className: "num", text: row.played }),
            ]),
          ),
      );
      root.querySelector("[data-summary]").textContent = summary(data);
    }
    poll(root.dataset.url, paint);
    autoScroll(root.querySelector(".scroller"));
  }

  /* The projector's loop: rest at the top, scroll down slowly, rest at the bottom, back to the top. */
  function autoScroll(box) {
    const SPEED = 40; /* pixels a second */
    const REST_MS = 5000;
    let phase = "top";
    let since = performance.now();
    let position = 0;
    let last = performance.now();
    function frame(now) {
      const dt = (now - last) / 1000;
      last = now;
      const room = box.scrollHeight - box.clientHeight;
      if (room <= 2) {
        box.scrollTop = 0;
        phase = "top";
        since = now;
      } else if (phase === "top" && now - since > REST_MS) {
        phase = "down";
        position = 0;
      } else if (phase === "down") {
        position = Math.min(room, position + SPEED * dt);
        box.scrollTop = position;
        if (position >= room) {
          phase = "bottom";
          since = now;
        }
      } else if (phase === "bottom" && now - since > REST_MS) {
        box.scrollTop = 0;
        phase = "top";
        since = now;
      }
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const root of document.querySelectorAll("[data-standings]")) standingsPage(root);
    for (const root of document.querySelectorAll("[data-projector]")) projector(root);
  });
})();

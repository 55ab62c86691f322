/* The score-sheet editor. The referee enters the final points only, or the hanchan hand by hand (an
   outcome, or the four point changes written on the paper sheet). On every change, after a 300 ms
   pause, the entry goes to the server's check view, which asks the rules engine (nothing is saved);
   each error appears beside its hand in the engine's words, and the running points under each hand.

   Made for a phone at the table: every choice is one tap (the winner and the discarder are one tap
   in the "who won" grid; fu starts at 30, the most common, and is not asked from 5 han up); the hand
   being entered and the next, empty one are open, the others fold into one line (tap to open); a
   removed hand comes back with "Undo"; switching the result keeps what still applies.

   Made for bad Wi-Fi: every change is kept on the phone (IndexedDB, per user and sheet) until the
   server has it, and restored when the page opens again (the service worker, static/js/sw.js, opens
   the page offline). Saving and submitting go to save.json with an Idempotency-Key made once per
   save (kept with the pending entry), retried when the network comes back, on a growing interval and
   when the page opens; the server answers a retry with its first answer and never saves twice. A
   rules refusal is shown and not retried; a conflict (the sheet changed) keeps the phone's entry and
   offers to save it over the saved version or to use that one. The entry travels in the engine's
   format (see scoring/services.py); a correction still posts the form. */
(function () {
  "use strict";

  const R = window.Riichi;
  const el = R.el;
  /* The words are Django's JavaScript catalogue's (/jsi18n/, djangojs.po); site.js falls back to English. */
  const RESULTS = [
    ["ron", gettext("Ron")],
    ["tsumo", gettext("Tsumo")],
    ["draw", pgettext("result of a hand", "Draw")],
    ["chombo", gettext("Chombo")],
    ["deltas", pgettext("result of a hand", "Points")],
  ];
  const RESULT_NAMES = {
    ron: gettext("Ron"),
    tsumo: gettext("Tsumo"),
    draw: gettext("Exhaustive draw"),
    chombo: gettext("Chombo"),
    abortive: gettext("Abortive draw"),
    nagashi: gettext("Nagashi mangan"),
    deltas: gettext("Points: the four point changes"),
  };
  /* Offered only where the tournament's rules allow them (the online presets; config.outcomes). */
  const ABORTIVE_RESULT = ["abortive", gettext("Abortive draw")];
  const NAGASHI_RESULT = ["nagashi", gettext("Nagashi")]; /* the chip: short, beside "Abortive draw" */
  const HAN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const MANGAN_HAN = 5; /* from 5 han the fu do not count (WRCR 2015 scoring table) */
  const DEFAULT_FU = "30";
  const UNDO_SECONDS = 8;
  /* A hanchan found over while a hand is being entered folds once the hands have been left alone this long:
     never under a finger still adding a yaku, the dora or the fu to the hand that ended it. */
  const SETTLE_SECONDS = 4;
  const RETRY_SECONDS = [2, 4, 8, 16, 30, 60];
  const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
  const YAKUMAN = [
    [0, "—"],
    [1, gettext("Yakuman")],
    [2, gettext("Double yakuman")],
    [3, gettext("Triple yakuman")],
  ];
  /* The engine names a round in English data ("East 1"): shown in the reader's words, and in one letter
     when a hand is folded ("E1"). */
  const ROUND_WINDS = {
    East: [pgettext("round wind", "East"), pgettext("round wind, one letter", "E")],
    South: [pgettext("round wind", "South"), pgettext("round wind, one letter", "S")],
    West: [pgettext("round wind", "West"), pgettext("round wind, one letter", "W")],
    North: [pgettext("round wind", "North"), pgettext("round wind, one letter", "N")],
  };
  function roundName(label, short) {
    const match = /^(\w+) (\d+)$/.exec(label || "");
    if (!match || !ROUND_WINDS[match[1]]) return label || "";
    const wind = ROUND_WINDS[match[1]][short ? 1 : 0];
    const format = short ? pgettext("round, short", "%(wind)s%(number)s") : pgettext("round", "%(wind)s %(number)s");
    return interpolate(format, { wind, number: match[2] }, true);
  }
  const YAKU_KEYS = ["yaku", "open", "dora", "ura_dora", "aka_dora"];
  /* Each win of a multiple ron: {"result": "ron", "loser": ..., "wins": [{"winner": ..., ...}, ...]}. */
  const WIN_KEYS = ["winner", "han", "fu", "yakuman"].concat(YAKU_KEYS);
  const KNOWN_KEYS = {
    ron: ["result", "winner", "loser", "han", "fu", "yakuman", "riichi", "liable", "wins"].concat(YAKU_KEYS),
    tsumo: ["result", "winner", "han", "fu", "yakuman", "riichi", "liable"].concat(YAKU_KEYS),
    draw: ["result", "tenpai", "riichi"],
    chombo: ["result", "offender", "riichi"],
    abortive: ["result", "kind", "riichi"],
    nagashi: ["result", "nagashi", "tenpai", "riichi"],
    deltas: ["deltas", "riichi"],
  };


  function int(text) {
    const cleaned = String(text === undefined || text === null ? "" : text).replace(/[\s,.']/g, "");
    if (!/^[+-]?\d+$/.test(cleaned)) return null;
    return parseInt(cleaned, 10);
  }

  /* ------------------------------------------------------------------ yaku (scoring/rules/yaku.py) */

  /* The yaku list comes with the page (the editor's data: identifiers, names in the reader's language,
     romaji, han closed and open); a win entered by its yaku sends their identifiers, and the engine gives
     the han. Riichi (from the hand's riichi declarers) and Fully Concealed Hand (a closed self-draw) are
     counted without a tap, as the engine does. A new hand is entered the way the last one was chosen. */
  let YAKU = [];
  let YAKU_BY_ID = {};
  let RED_FIVES = 0;
  let RENHO_MANGAN = true;
  let preferredMode = "han";
  let MOST_RON_WINNERS = 1; /* 1 under the head bump (WRCR 2015 §5.7.6); 2 or 3 with multiple ron */
  const IMPLIED = ["riichi", "menzen_tsumo"];
  const BLESSINGS = ["renhou", "tenhou", "chiihou"];

  function useYaku(list, redFives, renhoMangan, mostRonWinners) {
    MOST_RON_WINNERS = mostRonWinners || 1;
    YAKU = list || [];
    YAKU_BY_ID = {};
    YAKU.forEach((y) => (YAKU_BY_ID[y.id] = y));
    RED_FIVES = redFives || 0;
    RENHO_MANGAN = renhoMangan !== false;
  }

  function foldText(text) {
    return String(text || "")
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[_\s'-]+/g, "")
      .toLowerCase();
  }

  /* What the chosen yaku are worth, as the engine counts them (for the line under the chips; the
     engine's verdict decides): han, or a yakuman, or the mangan of Blessing of Man; the fu a yaku fixes. */
  function yakuValue(h) {
    const ids = new Set(h.yaku);
    const yakuman = Array.from(ids).some((id) => YAKU_BY_ID[id] && YAKU_BY_ID[id].yakuman);
    if (yakuman) return { yakuman: true };
    if (!BLESSINGS.some((id) => ids.has(id))) {
      if (h.winner && h.riichi.has(h.winner) && !ids.has("double_riichi")) ids.add("riichi");
      if (h.kind === "tsumo" && !h.open) ids.add("menzen_tsumo");
    }
    if (ids.has("renhou") && RENHO_MANGAN) return { mangan: true };
    let han = (Number(h.dora) || 0) + (Number(h.ura) || 0) + (Number(h.aka) || 0);
    ids.forEach((id) => {
      const y = YAKU_BY_ID[id];
      if (y) han += h.open ? y.open_han || 0 : y.han;
    });
    let fixedFu = null;
    if (ids.has("chiitoitsu")) fixedFu = 25;
    else if (ids.has("pinfu")) fixedFu = h.kind === "tsumo" ? 20 : 30;
    return { han, fixedFu, count: ids.size };
  }

  function needsFu(h) {
    const v = yakuValue(h);
    return !v.yakuman && !v.mangan && v.han < MANGAN_HAN && v.fixedFu === null;
  }

  /* ------------------------------------------------------------------ state <-> engine entry */

  function blankHand(kind) {
    return {
      mode: preferredMode /* "han": han and fu; "yaku": the yaku and dora */,
      yaku: new Set(),
      open: false,
      dora: 0,
      ura: 0,
      aka: 0,
      kind: kind || "ron",
      winner: "",
      loser: "",
      han: "",
      fu: DEFAULT_FU /* the most common; one tap changes it */,
      yakuman: 0,
      liable: "",
      offender: "",
      riichi: new Set(),
      tenpai: new Set(),
      abortive: "" /* an abortive draw's kind */,
      nagashi: new Set() /* the nagashi mangan's players */,
      deltas: ["", "", "", ""],
      more: [] /* a multiple ron's other winners (blankWin), each with his own value */,
      raw: null,
      touched: false /* a new, untouched hand shows no errors yet */,
    };
  }

  /* Another winner on the same discard: his own yaku (or han and fu), dora and fu; the hand's riichi
     declarers are the hand's (one Set, shared). */
  function blankWin(h) {
    return { kind: "ron", winner: "", yaku: new Set(), open: false, dora: 0, ura: 0, aka: 0, han: "", fu: DEFAULT_FU, yakuman: 0, riichi: h.riichi, refresh: null };
  }

  /* A win's value as the engine stores it, read into a hand or a win (its mode is the hand's). */
  function valueFromEntry(w, win) {
    w.han = win.han === undefined || win.han === null ? "" : String(win.han);
    w.fu = win.fu === undefined || win.fu === null ? "" : String(win.fu);
    w.yakuman = win.yakuman || 0;
    if (Array.isArray(win.yaku)) {
      w.yaku = new Set(win.yaku.filter((id) => !IMPLIED.includes(id)));
      w.open = win.open === true;
      w.dora = win.dora || 0;
      w.ura = win.ura_dora || 0;
      w.aka = win.aka_dora || 0;
      /* Han written beside the yaku (a game log's) are what the yaku give (the engine checked it when the
         log was read): the yaku are kept, the han follow from them again. */
      w.han = "";
      w.yakuman = 0;
    }
    return w;
  }

  /* A multiple ron the editor can show: each win an object of known keys, all by yaku or none. */
  function readableWins(hand) {
    const wins = hand.wins;
    if (!Array.isArray(wins) || !wins.length || "winner" in hand || "han" in hand || "yaku" in hand || "liable" in hand) return false;
    if (!wins.every((win) => win && typeof win === "object" && Object.keys(win).every((key) => WIN_KEYS.includes(key)))) return false;
    const byYaku = wins.filter((win) => Array.isArray(win.yaku)).length;
    return byYaku === 0 || byYaku === wins.length;
  }

  function handFromEntry(hand, players) {
    if (!hand || typeof hand !== "object") return Object.assign(blankHand(), { kind: "raw", raw: hand, touched: true });
    const kind = "result" in hand ? hand.result : "deltas" in hand ? "deltas" : null;
    const known = KNOWN_KEYS[kind];
    if (!known || Object.keys(hand).some((key) => !known.includes(key)) || ("wins" in hand && !readableWins(hand))) {
      return Object.assign(blankHand(), { kind: "raw", raw: hand, touched: true }); /* kept as it is */
    }
    const h = blankHand(kind);
    h.touched = true;
    h.winner = hand.winner || "";
    h.loser = hand.loser || "";
    h.liable = hand.liable || "";
    h.offender = Array.isArray(hand.offender) ? hand.offender[0] || "" : hand.offender || "";
    h.riichi = new Set(hand.riichi || []);
    h.tenpai = new Set(hand.tenpai || []);
    h.abortive = typeof hand.kind === "string" ? hand.kind : "";
    h.nagashi = new Set(hand.nagashi || []);
    const wins = "wins" in hand ? hand.wins : [hand];
    if (kind === "ron" || kind === "tsumo") h.mode = Array.isArray(wins[0].yaku) ? "yaku" : "han";
    valueFromEntry(h, wins[0]);
    if ("wins" in hand) {
      h.winner = wins[0].winner || "";
      h.more = wins.slice(1).map((win) => Object.assign(valueFromEntry(blankWin(h), win), { winner: win.winner || "" }));
    }
    if (hand.deltas) h.deltas = players.map((name) => (name in hand.deltas ? String(hand.deltas[name]) : ""));
    return h;
  }

  function handToEntry(h, players) {
    if (h.kind === "raw") return h.raw;
    const riichi = players.filter((name) => h.riichi.has(name));
    if (h.kind === "deltas") {
      const deltas = {};
      players.forEach((name, seat) => {
        deltas[name] = int(h.deltas[seat]);
      });
      return { deltas, riichi };
    }
    const out = { result: h.kind };
    if (h.kind === "ron" && h.more.length) {
      /* A multiple ron: each winner with his own value, the discarder once (no liability: §6.2 is read
         for a single winner). */
      if (h.loser) out.loser = h.loser;
      out.wins = [h].concat(h.more).map((w) => valueToEntry(w, h.mode, w.winner ? { winner: w.winner } : {}));
    } else if (h.kind === "ron" || h.kind === "tsumo") {
      if (h.winner) out.winner = h.winner;
      if (h.kind === "ron" && h.loser) out.loser = h.loser;
      valueToEntry(h, h.mode, out);
      if (h.liable) out.liable = h.liable;
    } else if (h.kind === "draw") {
      out.tenpai = players.filter((name) => h.tenpai.has(name));
    } else if (h.kind === "chombo") {
      if (h.offender) out.offender = h.offender;
    } else if (h.kind === "abortive") {
      if (h.abortive) out.kind = h.abortive;
    } else if (h.kind === "nagashi") {
      out.nagashi = players.filter((name) => h.nagashi.has(name));
      out.tenpai = players.filter((name) => h.tenpai.has(name));
    }
    out.riichi = riichi;
    return out;
  }

  /* A win's value into ``out`` as the engine reads it: its yaku and dora, or han and fu, or yakuman. */
  function valueToEntry(w, mode, out) {
    if (mode === "yaku") {
      out.yaku = YAKU.map((y) => y.id).filter((id) => w.yaku.has(id));
      if (w.open) out.open = true;
      if (Number(w.dora) > 0) out.dora = Number(w.dora);
      if (Number(w.ura) > 0 && w.riichi.has(w.winner)) out.ura_dora = Number(w.ura);
      if (Number(w.aka) > 0) out.aka_dora = Number(w.aka);
      const fu = int(w.fu);
      if (fu !== null && needsFu(w)) out.fu = fu;
    } else if (Number(w.yakuman) > 0) {
      out.yakuman = Number(w.yakuman);
    } else {
      const han = int(w.han);
      const fu = int(w.fu);
      if (han !== null) out.han = han;
      if (fu !== null && (han === null || han < MANGAN_HAN)) out.fu = fu;
    }
    return out;
  }

  function stateFromEntry(entry, players) {
    const state = {
      form: "hands",
      final: { points: ["", "", "", ""], sticks: "0", chombo: new Set() },
      hands: [],
      endedByTime: false,
      checkPoints: ["", "", "", ""],
    };
    if (!entry) {
      state.hands.push(blankHand());
      return state;
    }
    if (entry.form === "final") {
      state.form = "final";
      const points = entry.final_points || {};
      state.final.points = players.map((name) => (name in points ? String(points[name]) : ""));
      state.final.sticks = String(entry.riichi_sticks_left || 0);
      state.final.chombo = new Set(entry.chombo || []);
      state.hands.push(blankHand());
    } else {
      const byYaku = (hand) => hand && (Array.isArray(hand.yaku) || (Array.isArray(hand.wins) && hand.wins.some((win) => win && Array.isArray(win.yaku))));
      if ((entry.hands || []).some(byYaku)) preferredMode = "yaku";
      state.hands = (entry.hands || []).map((hand) => handFromEntry(hand, players));
      state.hands.push(blankHand()); /* the next hand, open and empty, entered the way the last one was */
      state.endedByTime = entry.ended_by_time === true;
      const written = entry.final_points || {};
      state.checkPoints = players.map((name) => (name in written ? String(written[name]) : ""));
    }
    return state;
  }

  function entryFromState(state, players) {
    if (state.form === "final") {
      const finalPoints = {};
      players.forEach((name, seat) => {
        const value = int(state.final.points[seat]);
        if (value !== null) finalPoints[name] = value;
      });
      return {
        form: "final",
        final_points: finalPoints,
        riichi_sticks_left: int(state.final.sticks) === null ? 0 : int(state.final.sticks),
        chombo: players.filter((name) => state.final.chombo.has(name)),
      };
    }
    /* The empty hand kept open at the end is not part of the sheet until something is entered in it. */
    let count = state.hands.length;
    while (count > 0 && !state.hands[count - 1].touched && state.hands[count - 1].kind !== "raw") count -= 1;
    const entry = { form: "hands", hands: state.hands.slice(0, count).map((h) => handToEntry(h, players)) };
    if (state.endedByTime) entry.ended_by_time = true;
    const written = state.checkPoints.map(int);
    if (written.every((value) => value !== null)) {
      entry.final_points = {};
      players.forEach((name, seat) => {
        entry.final_points[name] = written[seat];
      });
    }
    return entry;
  }

  /* ------------------------------------------------------------------ the phone's copy (IndexedDB) */

  const local = (function () {
    let opened = null;
    function db() {
      if (!opened) {
        opened = new Promise((resolve) => {
          if (!window.indexedDB) return resolve(null);
          const request = indexedDB.open("riichi-sheets", 1);
          request.onupgradeneeded = () => request.result.createObjectStore("entries", { keyPath: "id" });
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => resolve(null); /* private browsing: the editor works, nothing is kept */
        });
      }
      return opened;
    }
    function run(mode, work) {
      return db().then(
        (database) =>
          new Promise((resolve) => {
            if (!database) return resolve(null);
            const transaction = database.transaction("entries", mode);
            const request = work(transaction.objectStore("entries"));
            transaction.oncomplete = () => resolve(request.result === undefined ? null : request.result);
            transaction.onerror = () => resolve(null);
          }),
      );
    }
    return {
      get: (id) => run("readonly", (store) => store.get(id)),
      put: (record) => run("readwrite", (store) => store.put(record)),
      remove: (id) => run("readwrite", (store) => store.delete(id)),
    };
  })();

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /* ------------------------------------------------------------------ the editor */

  function editor(form) {
    const config = JSON.parse(document.getElementById("sheet-editor-data").textContent);
    useYaku(config.yaku, config.red_fives, config.renho_mangan, config.most_ron_winners);
    const players = config.players;
    /* The abortive draws ([kind, name]) and nagashi mangan the tournament's rules allow (none under WRCR). */
    const outcomes = config.outcomes || { abortive: [], nagashi: false };
    const abortiveKinds = outcomes.abortive || [];

    /* The results a hand offers: those of every ruleset, the abortive draw and nagashi mangan where the
       rules allow them (or where the hand already is one, so that the engine's refusal shows beside it). */
    function resultsFor(h) {
      const extra = [];
      if (abortiveKinds.length || h.kind === "abortive") extra.push(ABORTIVE_RESULT);
      if (outcomes.nagashi || h.kind === "nagashi") extra.push(NAGASHI_RESULT);
      return RESULTS.slice(0, 4).concat(extra, RESULTS.slice(4));
    }
    const winds = config.winds;
    let state = stateFromEntry(config.entry, players);
    const handsBox = form.querySelector("[data-hands]");
    const verdictBox = form.querySelector("[data-verdict]");
    const generalErrors = form.querySelector("[data-general-errors]");
    const summaryBox = form.querySelector("[data-summary]");
    const entryInput = form.querySelector("[data-entry]");
    let sequence = 0;
    let uid = 0;
    let current = state.hands.length - 1; /* the hand being entered: open, with the empty one after it */
    let errorHands = new Set();
    let finished = false;
    /* A hand opened by its line since the last edit: a verdict that finds the hanchan over (the first one,
       arriving late on a slow network, included) does not fold it again under the user's finger. */
    let openedByHand = false;
    let settling = null; /* the fold of a hanchan found over by an edit, waiting for the hands to be left alone */
    let handInfo = []; /* the engine's account of each hand: round, honba, dealer, points after */
    let editedSinceVerdict = false; /* the next verdict answers an edit: a new error is brought into sight */
    let shownErrors = new Set(); /* the error messages on the page after the last verdict */

    function playerOptions(selected, blank) {
      return [el("option", { value: "", text: blank || "—" })].concat(
        players.map((name, seat) =>
          el("option", { value: name, selected: name === selected, text: name + " (" + winds[seat] + ")" }),
        ),
      );
    }

    function field(label, control, wide) {
      return el("div", { className: wide ? "wide" : "" }, [
        el("label", {}, [el("span", { className: "field-label", text: label }), control]),
      ]);
    }

    function group(label, control) {
      return el("div", { className: "pick wide inline" }, [el("span", { className: "field-label", "aria-hidden": "true", text: label }), control]);
    }

    /* Toggle chips, one per player; ``label`` names their group (null: a fieldset's legend names it). */
    function chips(set, label, onchange) {
      return el(
        "div",
        { className: "chips", role: label === null ? null : "group", "aria-label": label },
        players.map((name) =>
          el("button", {
            type: "button",
            "aria-pressed": set.has(name) ? "true" : "false",
            text: name,
            onclick: (event) => {
              if (set.has(name)) set.delete(name);
              else set.add(name);
              event.currentTarget.setAttribute("aria-pressed", set.has(name) ? "true" : "false");
              (onchange || changed)();
            },
          }),
        ),
      );
    }

    /* One tap: a row of radio buttons drawn as chips, in a fieldset whose legend names the choice. */
    function radios(legend, name, options, value, onpick, attrs, hiddenLegend) {
      return el("fieldset", Object.assign({ className: "pick wide" + (hiddenLegend ? "" : " inline") }, attrs || {}), [
        el("legend", { className: hiddenLegend ? "visually-hidden" : "field-label", text: legend }),
        el(
          "div",
          { className: "chips" },
          options.map(([v, text, spoken, extra]) => {
            const input = el("input", Object.assign({ type: "radio", name, value: v, checked: String(v) === String(value) }, extra || {}));
            input.addEventListener("change", () => onpick(v, input));
            return el("label", { className: "chip" }, [input, spoken ? el("span", { className: "visually-hidden", text: spoken }) : null, text]);
          }),
        ),
      ]);
    }

    function select(options, value, onchange, extra) {
      const node = el(
        "select",
        extra || {},
        options.map(([v, label]) => el("option", { value: v, selected: String(v) === String(value), text: label })),
      );
      node.addEventListener("change", () => onchange(node.value));
      return node;
    }

    function bind(node, onvalue) {
      node.addEventListener("input", () => onvalue(node.value));
      return node;
    }

    function numberInput(value, onvalue, attrs) {
      return bind(el("input", Object.assign({ type: "number", autocomplete: "off", value: value }, attrs)), onvalue);
    }

    function summary(h) {
      const riichi = players.filter((name) => h.riichi.has(name));
      let text;
      const riichiNote = riichi.length ? " · " + interpolate(gettext("riichi %(names)s"), { names: riichi.join(", ") }, true) : "";
      if (h.kind === "ron") {
        text = interpolate(gettext("Ron: %(winner)s from %(loser)s"), { winner: h.winner || "?", loser: h.loser || "?" }, true);
      } else if (h.kind === "tsumo") {
        text = interpolate(gettext("Tsumo: %(winner)s"), { winner: h.winner || "?" }, true);
      } else if (h.kind === "draw") {
        const tenpai = players.filter((name) => h.tenpai.has(name));
        return interpolate(gettext("Draw, tenpai: %(names)s"), { names: tenpai.join(", ") || gettext("nobody") }, true) + riichiNote;
      } else if (h.kind === "chombo") {
        return interpolate(gettext("Chombo: %(offender)s"), { offender: h.offender || "?" }, true);
      } else if (h.kind === "abortive") {
        const kind = abortiveKinds.find(([v]) => v === h.abortive);
        return interpolate(gettext("Abortive draw: %(kind)s"), { kind: kind ? kind[1] : h.abortive || "?" }, true) + riichiNote;
      } else if (h.kind === "nagashi") {
        const names = players.filter((name) => h.nagashi.has(name));
        const tenpai = players.filter((name) => h.tenpai.has(name));
        return (
          interpolate(gettext("Nagashi mangan: %(names)s, tenpai: %(tenpai)s"), { names: names.join(", ") || "?", tenpai: tenpai.join(", ") || gettext("nobody") }, true) +
          riichiNote
        );
      } else if (h.kind === "deltas") {
        const changes = players.map((name, seat) => name + " " + (h.deltas[seat] || "0")).join(", ");
        text = interpolate(gettext("Points: %(changes)s"), { changes }, true);
      } else {
        return gettext("Entered elsewhere");
      }
      if (h.kind === "ron" && h.more.length) {
        const wins = [h].concat(h.more);
        text = interpolate(gettext("Ron: %(winner)s from %(loser)s"), { winner: wins.map((w) => w.winner || "?").join(", "), loser: h.loser || "?" }, true);
        wins.forEach((w) => {
          const value = valueSummary(w, h.mode);
          if (value) text += "; " + interpolate(gettext("%(winner)s: %(value)s"), { winner: w.winner || "?", value }, true);
        });
      } else if (h.kind === "ron" || h.kind === "tsumo") {
        const value = valueSummary(h, h.mode);
        if (value) text += ", " + value;
      }
      return text + riichiNote;
    }

    /* A win's value in a folded hand's line: its yaku and dora, or its han and fu, or its yakuman. */
    function valueSummary(w, mode) {
      const parts = [];
      if (mode === "yaku") {
        parts.push(...YAKU.filter((y) => w.yaku.has(y.id)).map((y) => y.name));
        const dora = (Number(w.dora) || 0) + (Number(w.ura) || 0) + (Number(w.aka) || 0);
        if (dora) parts.push(interpolate(ngettext("%(count)s dora", "%(count)s dora", dora), { count: dora }, true));
      } else if (Number(w.yakuman) > 0) {
        parts.push(YAKUMAN[Number(w.yakuman)][1].toLowerCase());
      } else if (w.han) {
        const value = int(w.han) < MANGAN_HAN && w.fu ? gettext("%(han)s han %(fu)s fu") : gettext("%(han)s han");
        parts.push(interpolate(value, { han: w.han, fu: w.fu }, true));
      }
      return parts.join(", ");
    }

    /* The fields of one hand, for its result; rebuilt when the result changes, keeping what applies. */
    function handFields(h, index, card) {
      const id = ++uid;
      const fields = [];
      const touch = () => {
        h.touched = true;
        refreshWins(h);
        changed();
      };
      h.refresh = null;
      h.syncMore = null;
      h.more.forEach((w) => (w.refresh = null));
      const resultOptions = (h.kind === "raw" ? [["raw", gettext("Elsewhere")]] : []).concat(resultsFor(h)).map(([v, text]) => [
        v,
        text,
        null,
        { "data-result-choice": v, "aria-label": RESULT_NAMES[v] || gettext("Entered elsewhere") },
      ]);
      fields.push(
        radios(gettext("Result"), "result-" + id, resultOptions, h.kind, (value) => {
          h.kind = value; /* winner, discarder, han, fu, riichi and the rest stay as entered */
          h.touched = true;
          rebuild(card, h, index, "[data-result-choice=" + value + "]");
          changed();
        }, { "data-result": "" }, true),
      );
      if (h.kind === "ron" || h.kind === "tsumo") {
        fields.push(winGrid(h, id, card, index));
        fields.push(
          radios(gettext("Value"), "mode-" + id, [["han", gettext("Han and fu")], ["yaku", gettext("Yaku")]].map(([v, text]) => [v, text, null, { "data-mode-choice": v }]), h.mode, (v) => {
            h.mode = v;
            preferredMode = v;
            h.touched = true;
            rebuild(card, h, index, "[data-mode-choice=" + v + "]");
            state.hands.forEach((other, at) => {
              /* the empty hand after it is entered the same way */
              if (other === h || other.touched || other.kind === "raw" || other.mode === v) return;
              other.mode = v;
              const next = handsBox.querySelector('[data-hand="' + (at + 1) + '"]');
              if (next) rebuild(next, other, at);
            });
            changed();
          }, { "data-value-mode": "" }),
        );
        const value = valueFields(h, h.mode, touch);
        fields.push(...value.fields);
        /* A multiple ron has no liability on the sheet (WRCR 2015 §6.2 is read for a single winner). */
        const multiple = h.kind === "ron" && h.more.length > 0;
        const liable = el("select", {}, playerOptions(h.liable, gettext("nobody")));
        liable.addEventListener("change", () => {
          h.liable = liable.value;
          touch();
        });
        const extra = (h.mode === "yaku" ? [] : [field(gettext("Yakuman"), value.yakuman)]).concat(multiple ? [] : [field(gettext("Liable (pao)"), liable)]);
        const more = multiple ? gettext("Yakuman") : h.mode === "yaku" ? gettext("Liability (pao)") : gettext("Yakuman, liability (pao)");
        if (extra.length) {
          fields.push(
            el("details", { className: "wide more", open: (h.mode !== "yaku" && Number(h.yakuman) > 0) || h.liable ? true : null }, [
              el("summary", { text: more }),
              el("div", { className: "fields" }, extra),
            ]),
          );
        }
        if (h.kind === "ron") fields.push(...moreWins(h, index, card, touch));
      } else if (h.kind === "draw") {
        fields.push(group(gettext("Tenpai"), chips(h.tenpai, gettext("Tenpai"), touch)));
      } else if (h.kind === "chombo") {
        /* Two rows of the same four names: each says what it asks, on a line of its own above its chips. */
        const offender = radios(gettext("Who made the chombo"), "offender-" + id, players.map((name) => [name, name, null, { "aria-label": interpolate(gettext("%(name)s (offender)"), { name }, true) }]), h.offender, (v) => {
          h.offender = v;
          touch();
        }, { "data-offender": "" });
        offender.classList.remove("inline");
        fields.push(offender);
      } else if (h.kind === "abortive") {
        fields.push(
          radios(gettext("Kind of abortive draw"), "abortive-" + id, abortiveKinds.map(([v, text]) => [v, text]), h.abortive, (v) => {
            h.abortive = v;
            touch();
          }, { "data-abortive-kind": "" }),
        );
      } else if (h.kind === "nagashi") {
        /* Its name on a line of its own above the chips: longer than the narrow column "Tenpai" fits in. */
        const nagashi = group(gettext("Nagashi mangan"), chips(h.nagashi, gettext("Nagashi mangan"), touch));
        nagashi.classList.remove("inline");
        nagashi.dataset.nagashi = "";
        fields.push(nagashi);
        const tenpai = group(gettext("Tenpai"), chips(h.tenpai, gettext("Tenpai"), touch));
        tenpai.dataset.tenpai = "";
        fields.push(tenpai);
      } else if (h.kind === "deltas") {
        players.forEach((name, seat) => {
          fields.push(
            field(
              name,
              numberInput(h.deltas[seat], (v) => ((h.deltas[seat] = v), touch()), {
                step: 100,
                placeholder: gettext("+/− points"),
                "data-delta": seat,
              }),
            ),
          );
        });
      } else if (h.kind === "raw") {
        fields.push(el("div", { className: "wide raw-hand", text: JSON.stringify(h.raw) }));
      }
      if (h.kind === "chombo") {
        /* The riichi declared before the chombo (their sticks go back), told apart from the offender's row. */
        fields.push(
          el("fieldset", { className: "pick wide", "data-riichi": "" }, [
            el("legend", { className: "field-label", text: gettext("Riichi declared this hand") }),
            chips(h.riichi, null, touch),
          ]),
        );
      } else if (h.kind !== "raw") {
        const riichi = group(gettext("Riichi"), chips(h.riichi, gettext("Riichi"), touch));
        riichi.dataset.riichi = "";
        fields.push(riichi);
      }
      return fields;
    }

    /* What a win is worth (the hand's own, or another winner's of a multiple ron): its yaku and dora, or
       han, in the hand's mode; then the fu, asked only where they count; and the yakuman select (shown by
       the caller in the hand's "more" part) for a win entered by han. */
    function valueFields(w, mode, touch) {
      const id = ++uid;
      const fields = [];
      const fu = radios(gettext("Fu"), "fu-" + id, FU.map((v) => [String(v), String(v), null, { "aria-label": interpolate(gettext("%(fu)s fu"), { fu: v }, true) }]), w.fu, (v) => {
        w.fu = v;
        touch();
      }, { "data-fu": "" });
      const showFu = () => {
        fu.hidden = mode === "yaku" ? !needsFu(w) : Number(w.yakuman) > 0 || int(w.han) >= MANGAN_HAN;
      };
      if (mode === "yaku") {
        fields.push(...yakuFields(w, id, touch, showFu));
      } else {
        fields.push(
          radios(gettext("Han"), "han-" + id, HAN.map((v) => [String(v), String(v), null, { "aria-label": interpolate(gettext("%(han)s han"), { han: v }, true) }]), w.han, (v) => {
            w.han = v;
            showFu();
            touch();
          }, { "data-han": "" }),
        );
      }
      fields.push(fu);
      const yakuman = select(YAKUMAN, w.yakuman, (v) => {
        w.yakuman = Number(v);
        showFu();
        touch();
      });
      showFu();
      return { fields, yakuman };
    }

    /* The value lines of a hand's wins follow its riichi declarers and winners (ura dora for a declarer);
       "Another winner" shows where the rules allow one more. */
    function refreshWins(h) {
      [h].concat(h.more).forEach((w) => w.refresh && w.refresh());
      if (h.syncMore) h.syncMore();
    }

    /* A multiple ron (where the rules allow it: config.most_ron_winners): each other winner on the same
       discard, one tap for who, then his own yaku (or han), dora and fu, as for the first winner. */
    function moreWins(h, index, card, touch) {
      const blocks = h.more.map((w, at) => {
        const number = at + 2;
        const title = interpolate(gettext("Winner %(number)s"), { number }, true);
        w.riichi = h.riichi;
        const pick = radios(title, "winner-" + ++uid, players.filter((name) => name !== h.loser).map((name) => [name, name, null, { "data-pick-winner": name }]), w.winner, (v) => {
          w.winner = v;
          touch();
        }, {}, true);
        const value = valueFields(w, h.mode, touch);
        const parts = [el("span", { className: "field-label wide", "aria-hidden": "true", text: title }), pick].concat(value.fields);
        if (h.mode !== "yaku") {
          parts.push(
            el("details", { className: "wide more", open: Number(w.yakuman) > 0 ? true : null }, [
              el("summary", { text: gettext("Yakuman") }),
              el("div", { className: "fields" }, [field(gettext("Yakuman"), value.yakuman)]),
            ]),
          );
        }
        parts.push(
          el("div", { className: "wide win-end" }, [
            el("button", {
              type: "button",
              className: "small remove",
              "data-remove-winner": "",
              text: gettext("Remove this winner"),
              onclick: () => {
                h.more.splice(at, 1);
                h.touched = true;
                rebuild(card, h, index, "[data-add-winner]");
                changed();
              },
            }),
          ]),
        );
        return el("div", { className: "wide fields extra-win", "data-extra-win": number, role: "group", "aria-label": title }, parts);
      });
      const add = el("div", { className: "wide" }, [
        el("button", {
          type: "button",
          className: "small",
          "data-add-winner": "",
          text: gettext("Another winner on this discard"),
          onclick: () => {
            h.more.push(blankWin(h));
            h.touched = true;
            rebuild(card, h, index, '[data-extra-win="' + (h.more.length + 1) + '"] input');
            changed();
          },
        }),
      ]);
      h.syncMore = () => {
        add.hidden = h.kind !== "ron" || !h.loser || 1 + h.more.length >= MOST_RON_WINNERS;
      };
      h.syncMore();
      return blocks.concat([add]);
    }

    /* A win by its yaku: "open hand", the common yaku one tap each, the rest found by a search (by name
       in the reader's language, romaji or identifier), the dora counted with + and −, and the value the
       engine will count. */
    function yakuFields(h, id, touch, showFu) {
      const toggle = (yakuId) => {
        if (h.yaku.has(yakuId)) h.yaku.delete(yakuId);
        else h.yaku.add(yakuId);
        draw();
        touch();
      };
      const chip = (y) =>
        el("button", {
          type: "button",
          "data-yaku": y.id,
          "aria-pressed": h.yaku.has(y.id) ? "true" : "false",
          text: y.name,
          onclick: () => toggle(y.id),
        });
      const openButton = el("button", {
        type: "button",
        "data-open-hand": "",
        "aria-pressed": h.open ? "true" : "false",
        text: gettext("Open hand"),
        onclick: () => {
          h.open = !h.open;
          openButton.setAttribute("aria-pressed", h.open ? "true" : "false");
          touch();
        },
      });
      const common = YAKU.filter((y) => y.common && !IMPLIED.includes(y.id));
      const commonBox = el("div", { className: "chips", role: "group", "aria-label": gettext("Common yaku") }, [openButton].concat(common.map(chip)));
      const pickedBox = el("div", { className: "chips", "data-yaku-picked": "", role: "group", "aria-label": gettext("Other yaku chosen") });
      const results = el("div", { className: "chips", "data-yaku-results": "", role: "group", "aria-label": gettext("Yaku found") });
      const search = el("input", {
        type: "search",
        autocomplete: "off",
        "data-yaku-search": "",
        placeholder: gettext("Other yaku: type a name"),
        "aria-label": gettext("Search the other yaku"),
      });
      search.addEventListener("input", () => find());
      function find() {
        const wanted = foldText(search.value);
        const found = wanted
          ? YAKU.filter((y) => !(y.common && !IMPLIED.includes(y.id)) && !h.yaku.has(y.id))
              .filter((y) => [y.name, y.romaji, y.english, y.id].some((text) => foldText(text).includes(wanted)))
              .slice(0, 8)
          : [];
        results.replaceChildren(
          ...found.map((y) =>
            el("button", {
              type: "button",
              "data-yaku": y.id,
              "aria-pressed": "false",
              text: y.name,
              onclick: () => {
                search.value = "";
                results.replaceChildren();
                toggle(y.id);
              },
            }),
          ),
        );
      }
      const valueLine = el("p", { className: "yaku-value small", "data-yaku-value": "", "aria-live": "polite" });
      const steppers = el("div", { className: "steppers" });
      let shownRiichi = null; /* the steppers shown: ura dora only for a riichi declarer */
      function stepper(key, label, max) {
        const count = el("span", { className: "count", "data-count": key, text: String(h[key] || 0) });
        const change = (step) => {
          h[key] = Math.max(0, Math.min(max, (Number(h[key]) || 0) + step));
          count.textContent = String(h[key]);
          touch();
        };
        return el("div", { className: "stepper", "data-stepper": key, role: "group", "aria-label": label }, [
          el("span", { className: "field-label", text: label }),
          el("button", { type: "button", "data-step": "-1", "aria-label": interpolate(gettext("%(what)s: one less"), { what: label }, true), text: "−", onclick: () => change(-1) }),
          count,
          el("button", { type: "button", "data-step": "+1", "aria-label": interpolate(gettext("%(what)s: one more"), { what: label }, true), text: "+", onclick: () => change(1) }),
        ]);
      }
      function draw() {
        commonBox.querySelectorAll("[data-yaku]").forEach((button) => button.setAttribute("aria-pressed", h.yaku.has(button.dataset.yaku) ? "true" : "false"));
        pickedBox.replaceChildren(...YAKU.filter((y) => h.yaku.has(y.id) && !(y.common && !IMPLIED.includes(y.id))).map(chip));
        pickedBox.hidden = !pickedBox.childElementCount;
        const riichi = Boolean(h.winner && h.riichi.has(h.winner));
        if (riichi !== shownRiichi) {
          shownRiichi = riichi;
          steppers.replaceChildren(
          ...[stepper("dora", gettext("Dora"), 35)]
            .concat(riichi ? [stepper("ura", gettext("Ura dora"), 35)] : [])
            .concat(RED_FIVES ? [stepper("aka", gettext("Red fives"), RED_FIVES)] : []),
          );
        }
        const v = yakuValue(h);
        let text;
        if (v.yakuman) text = gettext("Yakuman");
        else if (v.mangan) text = gettext("Mangan (Blessing of Man)");
        else if (!v.count) text = gettext("Tap the hand's yaku.");
        else if (v.han >= MANGAN_HAN) text = interpolate(gettext("%(han)s han"), { han: v.han }, true);
        else if (v.fixedFu !== null) text = interpolate(gettext("%(han)s han %(fu)s fu"), { han: v.han, fu: v.fixedFu }, true);
        else text = interpolate(gettext("%(han)s han, and the fu below"), { han: v.han }, true);
        valueLine.textContent = text;
        showFu();
      }
      h.refresh = draw;
      draw();
      const commonGroup = group(gettext("Yaku"), commonBox);
      commonGroup.dataset.yakuBlock = "";
      return [
        commonGroup,
        el("div", { className: "pick wide yaku-more", "data-yaku-block": "" }, [pickedBox, search, results]),
        el("div", { className: "wide", "data-yaku-block": "" }, [steppers, valueLine]),
      ];
    }

    /* Who won from whom, one tap: a row per winner, a button per discarder and one for tsumo. */
    function winGrid(h, id, card, index) {
      const rows = players.map((winner, seat) =>
        el("div", { className: "win-row" }, [
          el("span", { className: "win-name", "aria-hidden": "true" }, [el("span", { className: "field-label", text: winds[seat] }), " " + winner]),
          el(
            "div",
            { className: "chips" },
            players
              .filter((other) => other !== winner)
              .map((other) => [other, other, interpolate(gettext("%(winner)s wins from %(loser)s"), { winner, loser: other }, true)])
              .concat([["tsumo", gettext("Tsumo"), interpolate(gettext("%(winner)s wins by tsumo"), { winner }, true)]])
              .map(([from, text, spoken]) => {
                const checked = h.winner === winner && (from === "tsumo" ? h.kind === "tsumo" : h.kind === "ron" && h.loser === from);
                const input = el("input", { type: "radio", name: "win-" + id, value: winner + "|" + from, checked, "data-win": winner + "|" + from, "aria-label": spoken });
                input.addEventListener("change", () => {
                  const wasKind = h.kind;
                  const wasLoser = h.loser;
                  h.winner = winner;
                  if (from === "tsumo") h.kind = "tsumo";
                  else {
                    h.kind = "ron";
                    h.loser = from;
                  }
                  h.touched = true;
                  if (h.more.length && (wasKind !== h.kind || wasLoser !== h.loser)) {
                    /* the other winners show for a ron only, each offered every player but the discarder */
                    rebuild(card, h, index, '[data-win="' + winner + "|" + from + '"]');
                    changed();
                    return;
                  }
                  refreshWins(h);
                  if (wasKind !== h.kind) {
                    const choice = card.querySelector("[data-result-choice=" + h.kind + "]");
                    if (choice) choice.checked = true;
                  }
                  changed();
                });
                return el("label", { className: "chip" }, [input, text]); /* the input is named by its aria-label */
              }),
          ),
        ]),
      );
      return el("fieldset", { className: "pick wide win-grid", "data-winner": "" }, [el("legend", { className: "visually-hidden", text: gettext("Who won, from whom") })].concat(rows));
    }

    function rebuild(card, h, index, focusSelector) {
      card.querySelector("[data-hand-body]").replaceChildren(...handFields(h, index, card));
      if (focusSelector) {
        const node = card.querySelector(focusSelector);
        if (node) node.focus();
      }
    }

    function handCard(h, index) {
      const card = el("section", { className: "hand", "data-hand": index + 1 });
      const body = el("div", { className: "fields", "data-hand-body": "" });
      card.append(
        el("header", {}, [el("h2", {}, [interpolate(gettext("Hand %(number)s"), { number: index + 1 }, true) + " ", el("span", { className: "label", "data-hand-label": "" })])]),
        el("button", {
          type: "button",
          className: "hand-summary",
          "data-hand-summary": "",
          /* Named before its text is drawn; once drawn (fold), its name starts with that text. */
          "aria-label": interpolate(gettext("Open hand %(number)s"), { number: index + 1 }, true),
          onclick: () => {
            current = index;
            openedByHand = true;
            fold();
            const first = card.querySelector("[data-hand-body] input");
            if (first) first.focus();
          },
        }),
        body,
        el("ul", { className: "errors", "data-hand-errors": "" }),
        el("div", { className: "running", "data-running": "" }),
        el("footer", {}, [
          el("button", {
            type: "button",
            className: "small remove",
            "aria-label": interpolate(gettext("Remove hand %(number)s"), { number: index + 1 }, true),
            text: gettext("Remove"),
            onclick: () => remove(index),
          }),
        ]),
      );
      body.replaceChildren(...handFields(h, index, card));
      /* Entering anything in a hand makes it the one being entered: the others fold. */
      const focus = () => {
        if (current !== index) {
          current = index;
          fold();
        }
      };
      card.addEventListener("change", () => {
        openedByHand = false; /* an edit: the next verdict may fold the hanchan away */
        focus();
      });
      card.addEventListener("click", (event) => {
        if (event.target.closest("[data-hand-body]")) focus();
      });
      return card;
    }

    /* Open: the hand being entered, the empty one after it, and every hand with a problem. */
    function fold() {
      const cards = handsBox.querySelectorAll("[data-hand]");
      const last = state.hands.length - 1;
      cards.forEach((card, i) => {
        const h = state.hands[i];
        const blankAtEnd = i === last && !h.touched;
        const open = i === current || blankAtEnd || errorHands.has(i + 1);
        const focused = !open && card.querySelector("[data-hand-body]").contains(document.activeElement);
        card.classList.toggle("folded", !open);
        card.classList.toggle("fresh", blankAtEnd); /* han, fu, riichi show after the first tap */
        card.querySelector("[data-hand-body]").hidden = !open;
        card.querySelector("footer").hidden = !open || blankAtEnd;
        const button = card.querySelector("[data-hand-summary]");
        button.hidden = open;
        if (!open) {
          const info = handInfo[i];
          const round = info ? roundName(info.round, true) + (info.honba ? "-" + info.honba : "") + " · " : "";
          button.textContent = i + 1 + ". " + round + summary(h);
          /* Its name starts with the text it shows (WCAG 2.5.3, label in name), then says what it does. */
          button.setAttribute("aria-label", button.textContent + " · " + interpolate(gettext("Open hand %(number)s"), { number: i + 1 }, true));
          if (focused) button.focus(); /* a keyboard user stays on the hand that folded */
        }
        card.hidden = blankAtEnd && finished && i > 0;
      });
    }

    /* The hanchan always ends with one empty hand, ready for the next tap. */
    function keepEmptyHandAtEnd() {
      const last = state.hands[state.hands.length - 1];
      if (state.form !== "hands" || !last || !last.touched) return;
      state.hands.push(blankHand());
      handsBox.append(handCard(state.hands[state.hands.length - 1], state.hands.length - 1));
      fold();
    }

    function renderHands() {
      handsBox.replaceChildren(...state.hands.map(handCard));
      fold();
    }

    /* ---------------------------------------------------------------- remove, with undo */

    const undoBar = form.querySelector("[data-undo]");
    let undoTimer = null;
    let removed = null;

    function remove(index) {
      removed = { hand: state.hands[index], index };
      state.hands.splice(index, 1);
      if (!state.hands.length) state.hands.push(blankHand());
      current = Math.min(index, state.hands.length - 1);
      renderHands();
      changed();
      undoBar.querySelector("[data-undo-text]").textContent = interpolate(gettext("Hand %(number)s removed."), { number: index + 1 }, true);
      undoBar.hidden = false;
      clearTimeout(undoTimer);
      undoTimer = setTimeout(() => {
        undoBar.hidden = true;
        removed = null;
      }, UNDO_SECONDS * 1000);
    }

    undoBar.querySelector("[data-undo-button]").addEventListener("click", () => {
      if (!removed) return;
      state.hands.splice(removed.index, 0, removed.hand);
      current = removed.index;
      removed = null;
      clearTimeout(undoTimer);
      undoBar.hidden = true;
      renderHands();
      changed();
      const card = handsBox.querySelector('[data-hand="' + (current + 1) + '"]');
      const first = card && card.querySelector("[data-hand-body] input");
      if (first) first.focus();
    });

    /* ---------------------------------------------------------------- final points form */

    const sticksInput = form.querySelector("[data-sticks]");
    bind(sticksInput, (v) => ((state.final.sticks = v), changed()));
    const endedInput = form.querySelector("[data-ended-by-time]");
    endedInput.addEventListener("change", () => {
      state.endedByTime = endedInput.checked;
      changed();
    });

    function renderFinal() {
      const box = form.querySelector("[data-final-points]");
      box.replaceChildren(
        ...players.map((name, seat) =>
          el("div", { className: "field" }, [
            el("label", { for: "final-" + seat, text: interpolate(gettext("%(wind)s: %(name)s"), { wind: winds[seat], name }, true) }),
            numberInput(state.final.points[seat], (v) => ((state.final.points[seat] = v), changed()), {
              id: "final-" + seat,
              step: 100,
              placeholder: gettext("e.g. 31200"),
              "data-final-seat": seat,
            }),
          ]),
        ),
      );
      sticksInput.value = state.final.sticks;
      form.querySelector("[data-chombo]").replaceChildren(chips(state.final.chombo, gettext("Chombo")));
      const checks = form.querySelector("[data-check-points]");
      checks.replaceChildren(
        ...players.map((name, seat) =>
          el("div", { className: "field" }, [
            el("label", {}, [
              el("span", { className: "field-label", text: name }),
              numberInput(state.checkPoints[seat], (v) => ((state.checkPoints[seat] = v), changed()), { step: 100 }),
            ]),
          ]),
        ),
      );
      endedInput.checked = state.endedByTime;
    }

    function showForm() {
      form.querySelector("[data-final]").hidden = state.form !== "final";
      form.querySelector("[data-hands-section]").hidden = state.form !== "hands";
      for (const radio of form.querySelectorAll("[data-form-choice]")) radio.checked = radio.value === state.form;
    }

    /* ---------------------------------------------------------------- the engine's verdict */

    /* An error that appears after an edit is brought into sight, in the middle of the screen: not below
       it, not under the sticky save bar. Already in sight, nothing moves. */
    function bringIntoSight(node) {
      const box = node.getBoundingClientRect();
      const bar = form.querySelector(".actions.sticky");
      const bottom = Math.min(window.innerHeight, bar ? bar.getBoundingClientRect().top : window.innerHeight);
      if (box.top < 0 || box.bottom > bottom) node.scrollIntoView({ block: "center" });
    }

    function paintVerdict(verdict) {
      const cards = handsBox.querySelectorAll("[data-hand]");
      const byHand = new Map();
      const general = [];
      /* The final-points form's errors name their field: each is shown under that field. */
      const fieldBoxes = new Map(Array.from(form.querySelectorAll("[data-field-errors]"), (box) => [box.dataset.fieldErrors, box]));
      const byField = new Map();
      for (const error of verdict.errors || []) {
        if (state.form === "hands" && error.hand && error.hand <= cards.length) {
          if (!byHand.has(error.hand)) byHand.set(error.hand, []);
          byHand.get(error.hand).push(error.message);
        } else if (state.form === "final" && error.field && fieldBoxes.has(error.field)) {
          if (!byField.has(error.field)) byField.set(error.field, []);
          byField.get(error.field).push(error.message);
        } else {
          general.push(error.message);
        }
      }
      for (const [name, box] of fieldBoxes) box.replaceChildren(...(byField.get(name) || []).map((m) => el("li", { text: m })));
      const scroll = editedSinceVerdict;
      editedSinceVerdict = false;
      const hands = verdict.hands || [];
      handInfo = hands;
      let clean = true;
      let shown = general.length + Array.from(byField.values()).reduce((sum, list) => sum + list.length, 0);
      let waiting = 0;
      errorHands = new Set();
      cards.forEach((card, i) => {
        const number = i + 1;
        const untouched = !state.hands[i].touched;
        const found = byHand.get(number) || [];
        const messages = untouched ? [] : found;
        shown += messages.length;
        if (messages.length) errorHands.add(number);
        if (untouched && found.length) waiting += 1;
        card.classList.toggle("invalid", messages.length > 0);
        card.querySelector("[data-hand-errors]").replaceChildren(...messages.map((m) => el("li", { text: m })));
        const info = hands[i];
        let label = "";
        if (info) {
          const values = { round: roundName(info.round), honba: info.honba, dealer: info.dealer, sticks: info.sticks };
          label = info.sticks
            ? interpolate(gettext("· %(round)s, %(honba)s honba, dealer %(dealer)s, %(sticks)s riichi on the table"), values, true)
            : interpolate(gettext("· %(round)s, %(honba)s honba, dealer %(dealer)s"), values, true);
        }
        card.querySelector("[data-hand-label]").textContent = label;
        if (found.length) clean = false;
        const running = card.querySelector("[data-running]");
        running.textContent =
          clean && info && info.points
            ? interpolate(gettext("After: %(points)s"), { points: players.map((name) => name + " " + R.points(info.points[name])).join(" · ") }, true)
            : "";
      });
      const wasFinished = finished;
      finished = state.form === "hands" && verdict.valid && verdict.finished === true;
      /* The hanchan is over: every hand folds into its line, unless the user has just opened one; found
         over by an edit, once the hands have been left alone for SETTLE_SECONDS. */
      if (finished && !wasFinished && !openedByHand) {
        if (scroll) settleThenFold();
        else current = -1;
      }
      fold();
      generalErrors.replaceChildren(...general.map((m) => el("li", { text: m })));
      verdictBox.className = "verdict " + (verdict.valid ? "ok" : shown ? "bad" : "wait");
      const entered = state.hands.some((h) => h.touched);
      if (state.form === "hands" && !entered) {
        verdictBox.className = "verdict wait";
        verdictBox.textContent = interpolate(gettext("Enter hand %(number)s: its result and players."), { number: 1 }, true);
      } else if (!verdict.valid && !shown) {
        const number = state.hands.findIndex((h) => !h.touched) + 1;
        verdictBox.textContent = interpolate(gettext("Enter hand %(number)s: its result and players."), { number }, true);
      } else if (verdict.valid) {
        let text = gettext("The rules engine accepts this sheet.");
        if (state.form === "hands" && verdict.finished === false && !state.endedByTime) {
          text += " " + gettext("The hanchan is not over yet: add the next hands, or tick the time limit to submit.");
        }
        verdictBox.textContent = text;
      } else {
        const problems = ngettext(
          "%(count)s problem to correct (in the rules engine's words, beside each hand).",
          "%(count)s problems to correct (in the rules engine's words, beside each hand).",
          shown,
        );
        const empty = ngettext("%(count)s new hand is still empty.", "%(count)s new hands are still empty.", waiting);
        verdictBox.textContent =
          interpolate(problems, { count: shown }, true) + (waiting ? " " + interpolate(empty, { count: waiting }, true) : "");
      }
      const errorItems = Array.from(form.querySelectorAll("[data-hand-errors] li, [data-field-errors] li, [data-general-errors] li")).filter((li) => !li.closest("[hidden]"));
      const fresh = errorItems.find((li) => !shownErrors.has(li.textContent));
      shownErrors = new Set(errorItems.map((li) => li.textContent));
      if (scroll && fresh) bringIntoSight(fresh);
      summaryBox.replaceChildren();
      if (verdict.valid && verdict.final_points) {
        summaryBox.append(
          // The engine's results while the sheet is entered: on a phone where the four columns do not fit
          // on one line, each player on two lines, the name on its own above the points, place and score
          // (site.css, Riichi.fitTable), so that it wraps between its words and the figures keep the
          // screen's width.
          el("div", { className: "table-wrap sheet-summary" }, [
            el("table", { className: "data stacked", "data-fit": "" }, [
              el("thead", {}, el("tr", {}, [el("th", { "data-key": "name", text: gettext("Player") }), el("th", { className: "num", "data-key": "points", text: gettext("Points") }), el("th", { className: "num", "data-key": "place", text: gettext("Place") }), el("th", { className: "num", "data-key": "score", text: gettext("Score") })])),
              el(
                "tbody",
                {},
                players.map((name) =>
                  el("tr", {}, [
                    el("td", { "data-key": "name", text: name }),
                    el("td", { className: "num", "data-key": "points", text: R.points(verdict.final_points[name]) }),
                    el("td", { className: "num", "data-key": "place", text: verdict.ranks ? verdict.ranks[name] : "" }),
                    el("td", { className: "num", "data-key": "score", text: verdict.scores ? R.score(verdict.scores[name]) : "" }),
                  ]),
                ),
              ),
            ]),
          ]),
        );
      }
      summaryBox.querySelectorAll("table[data-fit]").forEach(R.fitTable);
      if (verdict.valid && verdict.chombo && verdict.chombo.length) {
        summaryBox.append(
          el("div", { className: "sheet-penalties", "data-penalties": "", role: "group", "aria-label": gettext("Penalties this sheet gives") }, [
            el(
              "ul",
              {},
              verdict.chombo.map((c) => {
                const values = { name: c.player, wind: winds[players.indexOf(c.player)] || "", hand: c.hand, points: c.points };
                const text = c.hand
                  ? gettext("%(name)s (%(wind)s): chombo in hand %(hand)s, %(points)s points off the overall score")
                  : gettext("%(name)s (%(wind)s): chombo, %(points)s points off the overall score");
                return el("li", { text: interpolate(text, values, true) });
              }),
            ),
          ]),
        );
      }
    }

    async function check() {
      const mine = ++sequence;
      verdictBox.className = "verdict wait";
      verdictBox.textContent = gettext("Checking…");
      try {
        const response = await fetch(form.dataset.checkUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": R.csrfToken(), Accept: "application/json" },
          body: JSON.stringify({ entry: entryFromState(state, players) }),
          credentials: "same-origin",
        });
        if (mine !== sequence) return; /* a newer check is on its way */
        if (response.redirected || !(response.headers.get("Content-Type") || "").includes("json")) {
          verdictBox.className = "verdict bad";
          verdictBox.textContent = gettext("Your session has ended: sign in again in another tab, then change any field.");
          return;
        }
        if (!response.ok) {
          verdictBox.className = "verdict bad";
          verdictBox.textContent = interpolate(gettext("The check did not answer (%(status)s); sign in again if your session ended."), { status: response.status }, true);
          return;
        }
        paintVerdict(await response.json());
      } catch (e) {
        if (mine === sequence) {
          verdictBox.className = "verdict bad";
          verdictBox.textContent = gettext("No connection: the sheet is checked again when the network is back.");
        }
      }
    }

    const checkSoon = R.debounce(check, 300);

    function settleThenFold() {
      clearTimeout(settling);
      settling = setTimeout(() => {
        settling = null;
        if (finished && !openedByHand) {
          current = -1;
          fold();
        }
      }, SETTLE_SECONDS * 1000);
    }
    /* Any tap or key in the hands while the fold waits (a search typed, a yaku chosen) puts it off. */
    for (const kind of ["pointerdown", "keydown", "input"]) {
      handsBox.addEventListener(kind, () => {
        if (settling !== null) settleThenFold();
      });
    }

    function changed() {
      keepEmptyHandAtEnd();
      entryInput.value = JSON.stringify(entryFromState(state, players));
      sequence += 1; /* an answer still on its way is about an older entry: ignore it */
      editedSinceVerdict = true;
      verdictBox.className = "verdict wait";
      verdictBox.textContent = gettext("Checking…");
      checkSoon();
      saver.edited(entryInput.value);
    }

    function load(entry) {
      state = stateFromEntry(entry, players);
      current = state.hands.length - 1;
      renderFinal();
      renderHands();
      showForm();
      entryInput.value = JSON.stringify(entryFromState(state, players));
      check();
    }

    /* ---------------------------------------------------------------- saving through bad Wi-Fi */

    const saver = (function () {
      const url = form.dataset.saveUrl;
      const statusBox = form.querySelector("[data-save-status]");
      const conflictBox = form.querySelector("[data-save-conflict]");
      const versionInput = form.querySelector("input[name=expected_version]");
      const id = config.user + " " + location.pathname;
      let version = config.version; /* the server's version this page knows */
      let status = config.status; /* and its status: draft, submitted, disputed */
      let saved = JSON.stringify(entryFromState(stateFromEntry(config.entry, players), players));
      let record = null; /* {id, entry, base, updated, pending: {action, key} | null} */
      let sending = false;
      let attempt = 0;
      let retryTimer = null;
      let lastAction = "draft";

      let note = ""; /* "Restored from this phone", until the server has the entry */

      function show(text, tone) {
        if (!statusBox) return;
        statusBox.textContent = (tone === "ok" ? "" : note) + text;
        statusBox.className = "save-status" + (tone ? " " + tone : "");
      }

      /* What the server holds, in the words of what happened to it: saved as a draft, or submitted. */
      function savedText() {
        if (status === "submitted") return interpolate(gettext("Submitted (version %(version)s)"), { version }, true);
        if (status === "disputed") return interpolate(gettext("Disputed (version %(version)s): a referee decides"), { version }, true);
        return interpolate(gettext("Saved (version %(version)s)"), { version }, true);
      }

      /* The page's badge and version line say what the server now holds: a first draft saved is no
         longer "no sheet yet", at once, without a reload. */
      function showBadge() {
        const badge = document.querySelector("[data-sheet-badge]");
        if (badge && status) {
          badge.textContent = (config.status_labels || {})[status] || status;
          badge.className = "badge " + status;
        }
        for (const line of document.querySelectorAll("[data-sheet-version-line]")) line.hidden = false;
      }

      function showClean() {
        show(version ? savedText() : gettext("Nothing entered yet"), "ok");
      }

      /* The record written on this phone (IndexedDB); resolves once it is stored. */
      function persist() {
        if (!record) return Promise.resolve(null);
        record.updated = Date.now();
        return local.put(record);
      }

      function edited(json) {
        if (!url) return;
        conflictBox.hidden = true;
        if (json === saved && !(record && record.pending)) {
          if (record) local.remove(id);
          record = null;
          if (!sending) showClean();
          return;
        }
        if (record && record.entry === json) return;
        /* A changed entry is a new save to make: what was pending (the older entry) is not sent. */
        record = { id, entry: json, base: record ? record.base : version, updated: 0, pending: null };
        persist();
        if (!sending) show(gettext("Saved on this phone, not sent"), "wait");
      }

      function retryLater() {
        clearTimeout(retryTimer);
        const seconds = RETRY_SECONDS[Math.min(attempt, RETRY_SECONDS.length - 1)];
        attempt += 1;
        retryTimer = setTimeout(send, seconds * 1000);
      }

      function refused(body, fallback) {
        const errors = (body && body.errors) || [];
        return errors.map((e) => e.message).join(" ") || fallback;
      }

      async function send() {
        clearTimeout(retryTimer);
        if (!url || sending || !record || !record.pending) return;
        const sent = record;
        const pending = sent.pending;
        sending = true;
        show(gettext("Sending…"), "wait");
        let response = null;
        let body = null;
        try {
          response = await fetch(url, {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json",
              "X-CSRFToken": R.csrfToken(),
              "Idempotency-Key": pending.key,
            },
            body: JSON.stringify({ entry: JSON.parse(sent.entry), action: pending.action, expected_version: sent.base || null }),
            credentials: "same-origin",
          });
          if (!response.redirected && (response.headers.get("Content-Type") || "").includes("json")) body = await response.json();
        } catch (e) {
          response = null; /* no network: kept, sent later */
        }
        sending = false;
        if (!response || response.status >= 500 || (response.ok && !body)) {
          show(response ? gettext("Saved on this phone, not sent (the server did not answer; trying again)") : gettext("Saved on this phone, not sent (no network; it is sent when the network is back)"), "wait");
          retryLater();
          return;
        }
        if (!body) {
          show(gettext("Not sent: your session has ended. Sign in again in another tab; the entry stays on this phone."), "bad");
          retryLater();
          return;
        }
        attempt = 0;
        if (response.ok) {
          note = "";
          version = body.version;
          status = body.status || (pending.action === "submit" ? "submitted" : "draft");
          saved = sent.entry;
          if (versionInput) versionInput.value = String(version);
          for (const node of document.querySelectorAll("[data-sheet-version]")) node.textContent = String(version);
          showBadge();
          if (record === sent) {
            record = null;
            await local.remove(id);
          } else if (record) {
            record.base = version; /* typed while it was on its way: the next save edits this version */
            persist();
          }
          R.keepPage && R.keepPage();
          if (pending.action === "submit") {
            show(savedText(), "ok");
            location.assign(location.pathname);
            return;
          }
          if (record) show(interpolate(gettext("Saved (version %(version)s); newer changes are on this phone, not sent"), { version }, true), "wait");
          else showClean();
          return;
        }
        if (record) {
          record.pending = null; /* a refusal is not retried: the referee changes something first */
          persist();
        }
        if (response.status === 409) {
          lastAction = pending.action;
          conflictBox.dataset.current = body.current_version || "";
          conflictBox.hidden = false;
          show(interpolate(gettext("Conflict, not saved: %(why)s"), { why: refused(body, gettext("the sheet changed on the server.")) }, true), "bad");
        } else {
          const fallback = interpolate(gettext("the server refused it (%(status)s)."), { status: response.status }, true);
          show(interpolate(gettext("Not sent: %(why)s"), { why: refused(body, fallback) }, true), "bad");
        }
      }

      async function save(action) {
        const json = entryInput.value;
        if (!record) record = { id, entry: json, base: version, updated: 0, pending: null };
        const same = record.pending && record.pending.action === action;
        record.pending = same ? record.pending : { action, key: newKey() };
        /* "Saved on this phone" once it is: a page closed or reloaded at once still finds the save to send. */
        await persist();
        if (!navigator.onLine) {
          show(gettext("Saved on this phone, not sent (no network; it is sent when the network is back)"), "wait");
          retryLater();
          return;
        }
        send();
      }

      async function restore() {
        if (!url) return;
        const kept = await local.get(id);
        if (!kept) return showClean();
        record = kept;
        revealEditor(); /* a player's change kept on this phone: shown, not behind a tap */
        const base = kept.base || 0;
        const known = version || 0;
        load(JSON.parse(kept.entry));
        note = gettext("Restored from this phone.") + " ";
        if (kept.pending) {
          show(gettext("Saved on this phone, not sent"), "wait");
          send(); /* a retry; the server answers with its first answer if it had it */
        } else if (base >= known) {
          show(gettext("Saved on this phone, not sent"), "wait");
        } else {
          conflictBox.dataset.current = String(known);
          conflictBox.hidden = false;
          const made = base
            ? gettext("It was made on version %(base)s; the sheet is now at version %(known)s.")
            : gettext("It was made before the sheet was first saved; the sheet is now at version %(known)s.");
          show(interpolate(made, { base, known }, true), "bad");
        }
      }

      if (url) {
        form.querySelector("[data-keep-mine]").addEventListener("click", () => {
          const now = int(conflictBox.dataset.current);
          if (!record || now === null) return;
          conflictBox.hidden = true;
          record.base = now;
          version = now;
          record.pending = { action: lastAction, key: newKey() };
          persist();
          send();
        });
        form.querySelector("[data-use-saved]").addEventListener("click", async () => {
          record = null;
          await local.remove(id);
          location.reload();
        });
        window.addEventListener("online", send);
      }

      return { url, edited, save, restore };
    })();

    /* ---------------------------------------------------------------- wiring */

    for (const radio of form.querySelectorAll("[data-form-choice]")) {
      radio.addEventListener("change", () => {
        state.form = radio.value;
        showForm();
        changed();
      });
    }
    window.addEventListener("online", () => check()); /* the verdict missed while offline */
    /* Enter in a field must not submit the form: saving is a deliberate tap. */
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.tagName === "INPUT") event.preventDefault();
    });
    form.addEventListener("submit", (event) => {
      entryInput.value = JSON.stringify(entryFromState(state, players));
      if (!saver.url || !window.fetch) return; /* a correction (or an old browser) posts the form */
      event.preventDefault();
      saver.save(event.submitter && event.submitter.value === "submit" ? "submit" : "draft");
    });

    renderFinal();
    renderHands();
    showForm();
    entryInput.value = JSON.stringify(entryFromState(state, players));
    check();
    saver.restore();
  }

  /* A player asked to confirm a submitted version reads it first: the editor stays folded away until
     they choose "Change the sheet" (a new version voids the others' agreements). */
  function revealEditor() {
    const folded = document.querySelector("[data-change-sheet-editor]");
    const button = document.querySelector("[data-change-sheet-open]");
    if (!folded || !folded.hidden) return;
    folded.hidden = false;
    if (button) {
      button.setAttribute("aria-expanded", "true");
      button.hidden = true;
    }
    folded.scrollIntoView({ block: "start" });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.querySelector("[data-sheet-editor]");
    const open = document.querySelector("[data-change-sheet-open]");
    if (open) open.addEventListener("click", revealEditor);
    if (form) editor(form);
  });
})();

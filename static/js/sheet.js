/* The score-sheet editor. The referee enters the final points only, or the hanchan hand by hand (an
   outcome, or the four point changes written on the paper sheet). On every change, after a 300 ms
   pause, the entry goes to the server's check view, which asks the rules engine (nothing is saved);
   each error appears beside its hand in the engine's words, and the running points under each hand.
   The entry travels in the engine's format (see scoring/services.py) in the form's hidden "entry"
   field when the referee saves, submits or corrects. */
(function () {
  "use strict";

  const R = window.Riichi;
  const el = R.el;
  const RESULTS = [
    ["ron", "Ron"],
    ["tsumo", "Tsumo"],
    ["draw", "Exhaustive draw"],
    ["chombo", "Chombo"],
    ["deltas", "Point changes"],
  ];
  const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
  const YAKUMAN = [
    [0, "—"],
    [1, "Yakuman"],
    [2, "Double yakuman"],
    [3, "Triple yakuman"],
  ];
  const KNOWN_KEYS = {
    ron: ["result", "winner", "loser", "han", "fu", "yakuman", "riichi", "liable"],
    tsumo: ["result", "winner", "han", "fu", "yakuman", "riichi", "liable"],
    draw: ["result", "tenpai", "riichi"],
    chombo: ["result", "offender", "riichi"],
    deltas: ["deltas", "riichi"],
  };

  function int(text) {
    const cleaned = String(text === undefined || text === null ? "" : text).replace(/[\s,.']/g, "");
    if (!/^[+-]?\d+$/.test(cleaned)) return null;
    return parseInt(cleaned, 10);
  }

  /* ------------------------------------------------------------------ state <-> engine entry */

  function blankHand(kind) {
    return {
      kind: kind || "ron",
      winner: "",
      loser: "",
      han: "",
      fu: "",
      yakuman: 0,
      liable: "",
      offender: "",
      riichi: new Set(),
      tenpai: new Set(),
      deltas: ["", "", "", ""],
      raw: null,
      touched: false /* a new, untouched hand shows no errors yet */,
    };
  }

  function handFromEntry(hand, players) {
    if (!hand || typeof hand !== "object") return Object.assign(blankHand(), { kind: "raw", raw: hand, touched: true });
    const kind = "result" in hand ? hand.result : "deltas" in hand ? "deltas" : null;
    const known = KNOWN_KEYS[kind];
    if (!known || Object.keys(hand).some((key) => !known.includes(key))) {
      return Object.assign(blankHand(), { kind: "raw", raw: hand, touched: true }); /* kept as it is */
    }
    const h = blankHand(kind);
    h.touched = true;
    h.winner = hand.winner || "";
    h.loser = hand.loser || "";
    h.han = hand.han === undefined || hand.han === null ? "" : String(hand.han);
    h.fu = hand.fu === undefined || hand.fu === null ? "" : String(hand.fu);
    h.yakuman = hand.yakuman || 0;
    h.liable = hand.liable || "";
    h.offender = Array.isArray(hand.offender) ? hand.offender[0] || "" : hand.offender || "";
    h.riichi = new Set(hand.riichi || []);
    h.tenpai = new Set(hand.tenpai || []);
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
    if (h.kind === "ron" || h.kind === "tsumo") {
      if (h.winner) out.winner = h.winner;
      if (h.kind === "ron" && h.loser) out.loser = h.loser;
      if (Number(h.yakuman) > 0) {
        out.yakuman = Number(h.yakuman);
      } else {
        const han = int(h.han);
        const fu = int(h.fu);
        if (han !== null) out.han = han;
        if (fu !== null) out.fu = fu;
      }
      if (h.liable) out.liable = h.liable;
    } else if (h.kind === "draw") {
      out.tenpai = players.filter((name) => h.tenpai.has(name));
    } else if (h.kind === "chombo") {
      if (h.offender) out.offender = h.offender;
    }
    out.riichi = riichi;
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
      state.hands = (entry.hands || []).map((hand) => handFromEntry(hand, players));
      if (!state.hands.length) state.hands.push(blankHand());
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
    const entry = { form: "hands", hands: state.hands.map((h) => handToEntry(h, players)) };
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

  /* ------------------------------------------------------------------ the editor */

  function editor(form) {
    const config = JSON.parse(document.getElementById("sheet-editor-data").textContent);
    const players = config.players;
    const winds = config.winds;
    const state = stateFromEntry(config.entry, players);
    const handsBox = form.querySelector("[data-hands]");
    const verdictBox = form.querySelector("[data-verdict]");
    const generalErrors = form.querySelector("[data-general-errors]");
    const summaryBox = form.querySelector("[data-summary]");
    const entryInput = form.querySelector("[data-entry]");
    let sequence = 0;

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
      return el("div", { className: "wide" }, [el("span", { className: "field-label", text: label }), control]);
    }

    function chips(set, label, onchange) {
      return el(
        "div",
        { className: "chips", role: "group", "aria-label": label },
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

    function handCard(h, index) {
      const fields = [];
      const touch = () => {
        h.touched = true;
        changed();
      };
      const resultSelect = select(
        h.kind === "raw" ? [["raw", "Entered elsewhere"]].concat(RESULTS) : RESULTS,
        h.kind,
        (value) => {
          const fresh = blankHand(value);
          fresh.riichi = h.riichi;
          fresh.touched = true;
          state.hands[index] = fresh;
          renderHands();
          changed();
        },
        { "aria-label": "Result of hand " + (index + 1), "data-result": "" },
      );
      fields.push(field("Result", resultSelect, true));
      if (h.kind === "ron" || h.kind === "tsumo") {
        const winner = el("select", { "data-winner": "" }, playerOptions(h.winner));
        winner.addEventListener("change", () => {
          h.winner = winner.value;
          touch();
        });
        fields.push(field("Winner", winner));
        if (h.kind === "ron") {
          const loser = el("select", { "data-loser": "" }, playerOptions(h.loser));
          loser.addEventListener("change", () => {
            h.loser = loser.value;
            touch();
          });
          fields.push(field("Discarder", loser));
        }
        fields.push(
          field(
            "Han",
            numberInput(h.han, (v) => ((h.han = v), touch()), { min: 1, max: 13, inputmode: "numeric", "data-han": "" }),
          ),
        );
        fields.push(
          field(
            "Fu",
            select(
              [["", "—"]].concat(FU.map((fu) => [String(fu), String(fu)])),
              h.fu,
              (v) => ((h.fu = v), touch()),
              { "data-fu": "" },
            ),
          ),
        );
        fields.push(field("Yakuman", select(YAKUMAN, h.yakuman, (v) => ((h.yakuman = Number(v)), touch()))));
        const liable = el("select", {}, playerOptions(h.liable, "nobody"));
        liable.addEventListener("change", () => {
          h.liable = liable.value;
          touch();
        });
        fields.push(field("Liable (pao)", liable));
      } else if (h.kind === "draw") {
        fields.push(group("Tenpai", chips(h.tenpai, "Tenpai", touch)));
      } else if (h.kind === "chombo") {
        const offender = el("select", { "data-offender": "" }, playerOptions(h.offender));
        offender.addEventListener("change", () => {
          h.offender = offender.value;
          touch();
        });
        fields.push(field("Offender", offender, true));
      } else if (h.kind === "deltas") {
        players.forEach((name, seat) => {
          fields.push(
            field(
              name,
              numberInput(h.deltas[seat], (v) => ((h.deltas[seat] = v), touch()), {
                step: 100,
                placeholder: "+/− points",
                "data-delta": seat,
              }),
            ),
          );
        });
      } else if (h.kind === "raw") {
        fields.push(el("div", { className: "wide raw-hand", text: JSON.stringify(h.raw) }));
      }
      if (h.kind !== "raw") {
        fields.push(group("Riichi", chips(h.riichi, "Riichi", touch)));
      }
      return el("section", { className: "hand", "data-hand": index + 1 }, [
        el("header", {}, [
          el("h3", {}, ["Hand " + (index + 1) + " ", el("span", { className: "label", "data-hand-label": "" })]),
          el("button", {
            type: "button",
            className: "small",
            "aria-label": "Remove hand " + (index + 1),
            text: "Remove",
            onclick: () => {
              state.hands.splice(index, 1);
              renderHands();
              changed();
            },
          }),
        ]),
        el("div", { className: "fields" }, fields),
        el("ul", { className: "errors", "data-hand-errors": "" }),
        el("div", { className: "running", "data-running": "" }),
      ]);
    }

    function renderHands() {
      handsBox.replaceChildren(...state.hands.map(handCard));
    }

    function renderFinal() {
      const box = form.querySelector("[data-final-points]");
      box.replaceChildren(
        ...players.map((name, seat) =>
          el("div", { className: "field" }, [
            el("label", { for: "final-" + seat, text: winds[seat] + ": " + name }),
            numberInput(state.final.points[seat], (v) => ((state.final.points[seat] = v), changed()), {
              id: "final-" + seat,
              step: 100,
              placeholder: "e.g. 31200",
              "data-final-seat": seat,
            }),
          ]),
        ),
      );
      const sticks = form.querySelector("[data-sticks]");
      sticks.value = state.final.sticks;
      bind(sticks, (v) => ((state.final.sticks = v), changed()));
      form.querySelector("[data-chombo]").replaceChildren(chips(state.final.chombo, "Chombo"));
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
      const ended = form.querySelector("[data-ended-by-time]");
      ended.checked = state.endedByTime;
      ended.addEventListener("change", () => {
        state.endedByTime = ended.checked;
        changed();
      });
    }

    function showForm() {
      form.querySelector("[data-final]").hidden = state.form !== "final";
      form.querySelector("[data-hands-section]").hidden = state.form !== "hands";
      for (const radio of form.querySelectorAll("[data-form-choice]")) radio.checked = radio.value === state.form;
    }

    /* ---------------------------------------------------------------- the engine's verdict */

    function paintVerdict(verdict) {
      const cards = handsBox.querySelectorAll("[data-hand]");
      const byHand = new Map();
      const general = [];
      for (const error of verdict.errors || []) {
        if (state.form === "hands" && error.hand && error.hand <= cards.length) {
          if (!byHand.has(error.hand)) byHand.set(error.hand, []);
          byHand.get(error.hand).push(error.message);
        } else {
          general.push(error.message);
        }
      }
      const hands = verdict.hands || [];
      let clean = true;
      let shown = general.length;
      let waiting = 0;
      cards.forEach((card, i) => {
        const number = i + 1;
        const untouched = !state.hands[i].touched;
        const found = byHand.get(number) || [];
        const messages = untouched ? [] : found;
        shown += messages.length;
        if (untouched && found.length) waiting += 1;
        card.classList.toggle("invalid", messages.length > 0);
        card.querySelector("[data-hand-errors]").replaceChildren(...messages.map((m) => el("li", { text: m })));
        const info = hands[i];
        card.querySelector("[data-hand-label]").textContent = info
          ? "· " + info.round + ", " + info.honba + " honba, dealer " + info.dealer + (info.sticks ? ", " + info.sticks + " riichi on the table" : "")
          : "";
        if (found.length) clean = false;
        const running = card.querySelector("[data-running]");
        running.textContent =
          clean && info && info.points
            ? "After: " + players.map((name) => name + " " + R.points(info.points[name])).join(" · ")
            : "";
      });
      generalErrors.replaceChildren(...general.map((m) => el("li", { text: m })));
      verdictBox.className = "verdict " + (verdict.valid ? "ok" : shown ? "bad" : "wait");
      if (!verdict.valid && !shown) {
        verdictBox.textContent = "Enter hand " + (state.hands.findIndex((h) => !h.touched) + 1) + ": its result and players.";
      } else if (verdict.valid) {
        let text = "The rules engine accepts this sheet.";
        if (state.form === "hands" && verdict.finished === false && !state.endedByTime) {
          text += " The hanchan is not over yet: add the next hands, or tick the time limit to submit.";
        }
        verdictBox.textContent = text;
      } else {
        verdictBox.textContent =
          shown + " problem" + (shown === 1 ? "" : "s") + " to correct (in the rules engine's words, beside each hand)." +
          (waiting ? " " + waiting + " new hand" + (waiting === 1 ? " is" : "s are") + " still empty." : "");
      }
      summaryBox.replaceChildren();
      if (verdict.valid && verdict.final_points) {
        summaryBox.append(
          el("div", { className: "table-wrap" }, [
            el("table", { className: "data" }, [
              el("thead", {}, el("tr", {}, [el("th", { text: "Player" }), el("th", { className: "num", text: "Points" }), el("th", { className: "num", text: "Place" }), el("th", { className: "num", text: "Score" })])),
              el(
                "tbody",
                {},
                players.map((name) =>
                  el("tr", {}, [
                    el("td", { text: name }),
                    el("td", { className: "num", text: R.points(verdict.final_points[name]) }),
                    el("td", { className: "num", text: verdict.ranks ? verdict.ranks[name] : "" }),
                    el("td", { className: "num", text: verdict.scores ? verdict.scores[name] : "" }),
                  ]),
                ),
              ),
            ]),
          ]),
        );
      }
    }

    async function check() {
      const mine = ++sequence;
      verdictBox.className = "verdict wait";
      verdictBox.textContent = "Checking…";
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
          verdictBox.textContent = "Your session has ended: sign in again in another tab, then change any field.";
          return;
        }
        if (!response.ok) {
          verdictBox.className = "verdict bad";
          verdictBox.textContent = "The check did not answer (" + response.status + "); sign in again if your session ended.";
          return;
        }
        paintVerdict(await response.json());
      } catch (e) {
        if (mine === sequence) {
          verdictBox.className = "verdict bad";
          verdictBox.textContent = "No connection: the sheet is checked again when you save.";
        }
      }
    }

    const checkSoon = R.debounce(check, 300);

    function changed() {
      entryInput.value = JSON.stringify(entryFromState(state, players));
      sequence += 1; /* an answer still on its way is about an older entry: ignore it */
      verdictBox.className = "verdict wait";
      verdictBox.textContent = "Checking…";
      checkSoon();
    }

    /* ---------------------------------------------------------------- wiring */

    for (const radio of form.querySelectorAll("[data-form-choice]")) {
      radio.addEventListener("change", () => {
        state.form = radio.value;
        showForm();
        changed();
      });
    }
    form.querySelector("[data-add-hand]").addEventListener("click", () => {
      state.hands.push(blankHand());
      renderHands();
      changed();
      const cards = handsBox.querySelectorAll("[data-hand]");
      cards[cards.length - 1].scrollIntoView({ behavior: "smooth", block: "start" });
    });
    /* Enter in a field must not submit the form: saving is a deliberate tap. */
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.tagName === "INPUT") event.preventDefault();
    });
    form.addEventListener("submit", () => {
      entryInput.value = JSON.stringify(entryFromState(state, players));
    });

    renderFinal();
    renderHands();
    showForm();
    entryInput.value = JSON.stringify(entryFromState(state, players));
    check();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.querySelector("[data-sheet-editor]");
    if (form) editor(form);
  });
})();

/* On every page: small helpers, the hanchan clock (counting down in the browser, refreshed from the
   server every few seconds, with a gong at zero made with the Web Audio API), "me" (the player a
   visitor chose, remembered in localStorage) and list filters. */
(function () {
  "use strict";

  const Riichi = (window.Riichi = window.Riichi || {});
  document.documentElement.classList.add("js");

  /* The words of the scripts in the page's language: Django's JavaScript catalogue (/jsi18n/, loaded
     before this file) defines gettext, ngettext and interpolate; without it (a copy kept offline) the
     words stay English. */
  if (typeof window.gettext !== "function") {
    window.gettext = (text) => text;
    window.pgettext = (context, text) => text;
    window.gettext_noop = (text) => text;
    window.ngettext = (one, many, count) => (count === 1 ? one : many);
    window.interpolate = (format, values, named) =>
      named
        ? format.replace(/%\((\w+)\)s/g, (match, name) => String(values[name]))
        : format.replace(/%s/g, () => String(values.shift()));
  }
  const language = document.documentElement.lang || "en";

  /* A table "stacked" on a phone (each row on two lines: site.css) goes back to one line a row where its
     columns fit its box; measured again when the screen turns or the window changes. */
  const fitted = new Set();
  Riichi.fitTable = function (table) {
    table.classList.remove("stacked");
    const box = table.parentElement || table;
    if (table.scrollWidth > box.clientWidth + 1) table.classList.add("stacked");
    fitted.add(table);
  };
  window.addEventListener("resize", function () {
    fitted.forEach(function (table) {
      if (table.isConnected) Riichi.fitTable(table);
      else fitted.delete(table);
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("table[data-fit]").forEach(Riichi.fitTable);
  });

  Riichi.csrfToken = function () {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  };

  Riichi.points = function (value) {
    return Number(value).toLocaleString(language);
  };

  /* A score as a column shows it (the server's ``score`` filter, tournament/templatetags/scores.py): one
     decimal in the reader's language ("78.0", "-12.0", in German "78,0"), more only when the exact string
     of the API has them. */
  Riichi.score = function (value) {
    if (value === null || value === undefined || value === "") return "";
    const text = String(value);
    const places = Math.max(1, (text.split(".")[1] || "").length);
    return Number(text).toLocaleString(language, { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: false });
  };

  Riichi.signed = function (value) {
    const n = Number(value);
    return (n > 0 ? "+" : "") + n.toLocaleString(language);
  };

  /* Latin letters whose mark is part of the letter (no combining accent to strip): as tournament.names. */
  const LETTERS = { ł: "l", ø: "o", đ: "d", ð: "d", ħ: "h", ı: "i", ß: "ss", æ: "ae", œ: "oe", þ: "th" };

  /* Case- and accent-insensitive text for name searches ("chloe" finds "Chloé", "lukasz" Łukasz). */
  Riichi.fold = function (text) {
    return String(text || "")
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[łøđðħıßæœþ]/g, (letter) => LETTERS[letter])
      .normalize("NFC")
      .trim();
  };

  /* A standings row's name as the reader sees it: the page's "shown-names" (the players whose name this
     reader's language shows in its own script, tournament.views.base.shown_names), else the Latin name. */
  let shownNames = null;
  Riichi.shownName = function (row) {
    if (shownNames === null) {
      const data = document.getElementById("shown-names");
      shownNames = data ? JSON.parse(data.textContent) : {};
    }
    return shownNames[row.player] || row.name;
  };

  Riichi.debounce = function (fn, ms) {
    let timer = null;
    return function (...args) {
      clearTimeout(timer);
      timer = setTimeout(() => fn.apply(this, args), ms);
    };
  };

  /* Poll ``url`` every ``everyMs`` and call ``paint`` with its JSON when the answer differs from the last
     one (four times slower in a hidden tab). While a live stream is open (live.js) the poll is a safety
     net every ``liveMs``: a "riichi:live" event of ``kind`` brings the data with it (the public copy,
     painted at once), or asks for a fetch at once (the staff's fuller copy), as an event of a kind in
     ``refetchOn`` does. ``waitFirst``: the page holds the data already, the first fetch waits. */
  Riichi.poll = function (url, paint, { kind, refetchOn = [], everyMs, liveMs = 30000, waitFirst = false }) {
    let last = null;
    let timer = null;
    async function tick() {
      clearTimeout(timer);
      try {
        const response = await fetch(url, { cache: "no-cache", headers: { Accept: "application/json" } });
        if (response.ok) {
          const text = await response.text();
          if (text !== last && last !== null) Riichi.beat();
          if (text !== last) paint(JSON.parse(text));
          last = text;
        }
      } catch (e) {
        /* a dropped request: the next one catches up */
      }
      const live = Riichi.live && Riichi.live.connected;
      timer = setTimeout(tick, live ? liveMs : document.hidden ? everyMs * 4 : everyMs);
    }
    document.addEventListener("riichi:live", (event) => {
      const { kind: eventKind, payload } = event.detail;
      if (eventKind === kind && payload) {
        paint(payload);
        Riichi.beat();
        last = null;
      } else if (eventKind === kind || refetchOn.includes(eventKind)) {
        tick();
      }
    });
    document.addEventListener("riichi:live-state", (event) => {
      if (!event.detail.connected) {
        tick(); /* the stream dropped: poll at once, then as before */
      } else {
        clearTimeout(timer); /* the stream is open: the next poll after liveMs */
        timer = setTimeout(tick, liveMs);
      }
    });
    if (waitFirst) timer = setTimeout(tick, Riichi.live && Riichi.live.connected ? liveMs : everyMs);
    else tick();
  };

  /* ``node``'s text set to ``text`` only when it differs: an unchanged write still costs a layout. */
  Riichi.setText = function (node, text) {
    const value = String(text);
    if (node.textContent !== value) node.textContent = value;
  };

  /* The live dot of the page beats once: new data has just been painted. (A dot pulsing for ever kept
     the phone drawing sixty frames a second while nothing changed.) */
  Riichi.beat = function () {
    for (const dot of document.querySelectorAll(".live-dot")) {
      if (dot.classList.contains("beat")) continue;
      dot.addEventListener("animationend", () => dot.classList.remove("beat"), { once: true });
      dot.classList.add("beat");
    }
  };

  Riichi.el = function (tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of [].concat(children || [])) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  /* "Me": the player this visitor follows in one tournament. */
  Riichi.me = {
    key: (slug) => "riichi.me." + slug,
    get(slug) {
      try {
        return JSON.parse(localStorage.getItem(this.key(slug)) || "null");
      } catch (e) {
        return null;
      }
    },
    set(slug, player) {
      try {
        if (player) localStorage.setItem(this.key(slug), JSON.stringify(player));
        else localStorage.removeItem(this.key(slug));
      } catch (e) {
        /* private browsing: nothing remembered */
      }
      document.dispatchEvent(new CustomEvent("riichi:me", { detail: { slug, player } }));
    },
  };

  /* ------------------------------------------------------------------ the gong */

  let audio = null;

  /* The gong sounds where the room hears it: on by default on a projector screen (a toggle marked
     data-sound-default="on"), off on the pages people hold in their hands, where forty phones would
     gong at once; a visitor's own choice, once made, is kept. */
  function soundWanted() {
    const byDefault = document.querySelector("[data-sound-toggle][data-sound-default='on']") !== null;
    try {
      const chosen = localStorage.getItem("riichi.sound");
      return chosen === null ? byDefault : chosen === "on";
    } catch (e) {
      return byDefault;
    }
  }

  function audioContext() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  /* A struck gong: a low fundamental with inharmonic partials, a fast attack and a long decay. */
  function strike(ctx, at, loudness) {
    const master = ctx.createGain();
    master.gain.setValueAtTime(0.0001, at);
    master.gain.exponentialRampToValueAtTime(loudness, at + 0.015);
    master.gain.exponentialRampToValueAtTime(0.0001, at + 5.5);
    master.connect(ctx.destination);
    const partials = [
      [98, 1.0],
      [196.7, 0.55],
      [263.4, 0.4],
      [348.9, 0.25],
      [471.2, 0.16],
      [603.8, 0.1],
      [809.5, 0.06],
    ];
    for (const [frequency, amplitude] of partials) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(frequency * 1.004, at);
      osc.frequency.exponentialRampToValueAtTime(frequency, at + 1.5);
      gain.gain.value = amplitude;
      osc.connect(gain);
      gain.connect(master);
      osc.start(at);
      osc.stop(at + 5.6);
    }
  }

  Riichi.gong = function (times) {
    if (!soundWanted()) return false;
    const ctx = audioContext();
    if (!ctx) return false;
    const now = ctx.currentTime + 0.05;
    for (let i = 0; i < (times || 3); i++) strike(ctx, now + i * 2.2, 0.5);
    return true;
  };

  /* Browsers let a page make sound only after a tap or a key: wake the audio on the first one. */
  function unlockAudio() {
    if (soundWanted()) audioContext();
    window.removeEventListener("pointerdown", unlockAudio);
    window.removeEventListener("keydown", unlockAudio);
  }
  window.addEventListener("pointerdown", unlockAudio);
  window.addEventListener("keydown", unlockAudio);

  function setupSoundToggles() {
    for (const button of document.querySelectorAll("[data-sound-toggle]")) {
      const show = () => {
        const on = soundWanted();
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.textContent = on ? gettext("Sound: on") : gettext("Sound: off");
      };
      show();
      button.addEventListener("click", () => {
        const on = !soundWanted();
        try {
          localStorage.setItem("riichi.sound", on ? "on" : "off");
        } catch (e) {
          /* nothing to remember it in */
        }
        for (const other of document.querySelectorAll("[data-sound-toggle]")) {
          other.setAttribute("aria-pressed", on ? "true" : "false");
          other.textContent = on ? gettext("Sound: on") : gettext("Sound: off");
        }
        if (on) Riichi.gong(1);
      });
    }
  }

  /* ------------------------------------------------------------------ the hanchan clock */

  Riichi.formatSeconds = function (seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  };

  const STATE_WORDS = {
    stopped: gettext("not started"),
    running: pgettext("time on the clock", "left"),
    paused: gettext("paused"),
    over: gettext("time is up"),
    /* A hanchan being played (a sheet submitted) whose clock nobody started: the clock is optional. */
    unclocked: gettext("in play, no clock"),
    none: "",
  };

  function setupClock() {
    const widgets = Array.from(document.querySelectorAll("[data-clock]"));
    if (!widgets.length) return;
    const url = widgets[0].dataset.clockUrl;
    const state = {
      round: widgets[0].dataset.round || null,
      state: widgets[0].dataset.state || "none",
      roundStatus: widgets[0].dataset.roundStatus || "",
      seconds: parseFloat(widgets[0].dataset.seconds || "0"),
      at: performance.now(),
      shown: null,
    };

    function left() {
      if (state.state !== "running") return state.seconds;
      return Math.max(0, state.seconds - (performance.now() - state.at) / 1000);
    }

    function paint() {
      const seconds = left();
      let shownState = state.state === "running" && seconds <= 0 ? "over" : state.state;
      if (shownState === "stopped" && state.roundStatus === "started") shownState = "unclocked";
      /* Four times a second, but the page is touched only where what it shows changes (once a second
         while the clock runs, never while it waits): each write costs the phone a style, a layout and a
         paint, and its battery. */
      for (const widget of widgets) {
        if (widget.dataset.state !== shownState) widget.dataset.state = shownState;
        widget.classList.toggle("ending", shownState === "running" && seconds <= 300);
        for (const node of widget.querySelectorAll("[data-clock-time]")) {
          Riichi.setText(node, shownState === "unclocked" ? "" : Riichi.formatSeconds(seconds));
        }
        for (const node of widget.querySelectorAll("[data-clock-state]")) {
          Riichi.setText(node, STATE_WORDS[shownState] || "");
        }
        for (const node of widget.querySelectorAll("[data-clock-round]")) {
          Riichi.setText(node, state.round || "");
        }
      }
      /* The gong sounds when this page sees the time run out, once per hanchan. */
      if (state.state === "running" && state.shown !== null && state.shown > 0 && seconds <= 0) {
        const key = "riichi.gong." + url + "." + state.round;
        let done = false;
        try {
          done = sessionStorage.getItem(key) === "1";
          sessionStorage.setItem(key, "1");
        } catch (e) {
          done = false;
        }
        if (!done) Riichi.gong(3);
      }
      state.shown = seconds;
    }

    function apply(data) {
      if (String(data.round) !== String(state.round)) state.shown = null; /* a new hanchan */
      state.round = data.round;
      state.state = data.state === "over" ? "running" : data.state;
      state.roundStatus = data.round_status || "";
      state.seconds = Number(data.seconds_left || 0);
      state.at = performance.now();
      document.dispatchEvent(new CustomEvent("riichi:clock", { detail: data }));
    }

    let skipped = 0;
    async function refresh() {
      /* With a live stream open (live.js) the clock comes with its events: ask only every 40 s. */
      if (Riichi.live && Riichi.live.connected && ++skipped % 10) return;
      try {
        const response = await fetch(url, { cache: "no-store", headers: { Accept: "application/json" } });
        if (!response.ok) return;
        apply(await response.json());
      } catch (e) {
        /* offline for a moment: keep counting down locally */
      }
    }

    document.addEventListener("riichi:live", (event) => {
      if (event.detail.kind === "clock" && event.detail.payload) apply(event.detail.payload);
    });

    paint();
    setInterval(paint, 250);
    setInterval(refresh, 4000);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) refresh();
    });
  }

  /* ------------------------------------------------------------------ list filters */

  function setupFilters() {
    for (const input of document.querySelectorAll("[data-filter]")) {
      const items = () => document.querySelectorAll(input.dataset.filter);
      const apply = () => {
        const query = Riichi.fold(input.value);
        for (const item of items()) {
          item.hidden = query !== "" && !Riichi.fold(item.dataset.names || item.dataset.name).includes(query);
        }
      };
      input.addEventListener("input", apply);
      Riichi.applyFilters = apply;
    }
  }

  /* ------------------------------------------------------------------ the service worker */

  /* The worker (/sw.js, see static/js/sw.js) keeps the pages a user opened for when the network is
     gone. This page and its files loaded before the worker controlled it: it is asked to keep them.
     Signing out (or in) empties its page cache. */
  function setupServiceWorker() {
    const meta = document.querySelector('meta[name="service-worker"]');
    if (!meta || !("serviceWorker" in navigator)) return;
    for (const form of document.querySelectorAll("form[data-account-form]")) {
      form.addEventListener("submit", () => {
        const worker = navigator.serviceWorker.controller;
        if (worker) worker.postMessage({ type: "forget-pages" });
      });
    }
    const files = performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((name) => name.startsWith(location.origin + "/static/"));
    Riichi.serviceWorker = navigator.serviceWorker
      .register(meta.content, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        registration.active.postMessage({ type: "keep", urls: [location.href].concat(files) });
        return registration;
      })
      .catch(() => null); /* no worker (a private window, say): the site works as before */
  }

  /* After a save, the kept copy of a page is refreshed. */
  Riichi.keepPage = function (url) {
    if (!Riichi.serviceWorker) return;
    Riichi.serviceWorker.then((registration) => {
      if (registration) registration.active.postMessage({ type: "keep", urls: [url || location.href] });
    });
  };

  /* The language switcher: a plain form that works without JavaScript (choose, then the button); with
     JavaScript, choosing is enough. */
  function setupLanguageSwitcher() {
    for (const form of document.querySelectorAll("[data-language-form]")) {
      const select = form.querySelector("[data-language-select]");
      const button = form.querySelector("[data-language-submit]");
      if (!select || !button) continue;
      button.hidden = true;
      select.addEventListener("change", () => form.submit());
    }
  }

  /* The header's menu on a phone (the CSS folds it there only): the button opens and folds it; Escape
     folds it and gives the focus back to the button. */
  function setupMenu() {
    const toggle = document.querySelector("[data-menu-toggle]");
    const menu = toggle && document.getElementById(toggle.getAttribute("aria-controls"));
    if (!menu) return;
    const open = (wanted) => {
      toggle.setAttribute("aria-expanded", String(wanted));
      menu.classList.toggle("open", wanted);
    };
    toggle.addEventListener("click", () => open(toggle.getAttribute("aria-expanded") !== "true"));
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || toggle.getAttribute("aria-expanded") !== "true") return;
      if (document.activeElement !== toggle && !menu.contains(document.activeElement)) return;
      open(false);
      toggle.focus();
    });
  }

  /* A table wider than the screen scrolls sideways in its frame (.table-wrap): while it does, the frame
     takes the keyboard's focus, so that the arrow keys scroll it, and is a region named after its table's
     caption or the heading before it (WCAG 2.1.1). Checked again when the screen's size changes and when
     a script redraws a table. */
  function frameName(frame) {
    const caption = frame.querySelector("caption");
    if (caption) return caption.textContent.trim();
    for (let node = frame; node && node !== document.body; node = node.parentElement) {
      for (let before = node.previousElementSibling; before; before = before.previousElementSibling) {
        const heading = before.matches("h1, h2, h3, h4") ? before : before.querySelector("h1, h2, h3, h4");
        if (heading) return heading.textContent.trim().replace(/\s+/g, " ");
      }
    }
    return document.title;
  }

  function markScrollingFrames() {
    for (const frame of document.querySelectorAll(".table-wrap")) {
      const scrolls = frame.scrollWidth > frame.clientWidth + 1;
      if (scrolls && !frame.hasAttribute("data-scroll-frame")) {
        frame.setAttribute("data-scroll-frame", "");
        frame.tabIndex = 0;
        frame.setAttribute("role", "region");
        frame.setAttribute("aria-label", frameName(frame));
      } else if (!scrolls && frame.hasAttribute("data-scroll-frame")) {
        for (const name of ["data-scroll-frame", "tabindex", "role", "aria-label"]) frame.removeAttribute(name);
      }
    }
  }

  function setupScrollingFrames() {
    let pending = false;
    const check = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        markScrollingFrames();
      });
    };
    markScrollingFrames();
    window.addEventListener("resize", check);
    const main = document.querySelector("main");
    if (main) new MutationObserver(check).observe(main, { childList: true, subtree: true });
  }

  document.addEventListener("DOMContentLoaded", () => {
    setupScrollingFrames();
    setupMenu();
    setupLanguageSwitcher();
    setupSoundToggles();
    setupClock();
    setupFilters();
    setupServiceWorker();
  });
})();

/* "Find my table": type a name, see the table and the wind; the player chosen is remembered on this
   device (the same "me" as the standings), so the next visit shows the seat at once. */
(function () {
  "use strict";

  const R = window.Riichi;

  function findTable(root) {
    const slug = root.dataset.slug;
    const input = root.querySelector("[data-find-input]");
    const result = root.querySelector("[data-find-result]");
    const seats = Array.from(document.querySelectorAll("[data-seat-name]"));

    function clear() {
      for (const node of document.querySelectorAll(".found")) node.classList.remove("found");
    }

    function show(scroll) {
      clear();
      const query = R.fold(input.value);
      result.replaceChildren();
      if (!query) return;
      const exact = seats.filter((li) => R.fold(li.dataset.seatName) === query);
      const matches = exact.length
        ? exact
        : seats.filter((li) => R.fold(li.dataset.names || li.dataset.seatName).includes(query));
      if (matches.length === 1) {
        const li = matches[0];
        const card = li.closest("[data-table]");
        li.classList.add("found");
        card.classList.add("found");
        result.append(
          R.el("span", {}, [
            interpolate(
              gettext("%(name)s: table %(table)s, %(wind)s"),
              { name: li.dataset.seatName, table: card.dataset.table, wind: li.dataset.wind },
              true,
            ),
          ]),
        );
        if (!R.me.get(slug) || String(R.me.get(slug).id) !== li.dataset.player) {
          result.append(
            " ",
            R.el("button", {
              type: "button",
              className: "small",
              text: gettext("Remember me"),
              onclick: () => R.me.set(slug, { id: Number(li.dataset.player), name: li.dataset.seatName }),
            }),
          );
        }
        if (scroll) card.scrollIntoView({ behavior: "smooth", block: "center" });
      } else if (matches.length > 1) {
        result.textContent = interpolate(
          gettext("%(count)s names match: %(names)s"),
          { count: matches.length, names: matches.slice(0, 6).map((li) => li.dataset.seatName).join(", ") },
          true,
        );
      } else {
        result.textContent = gettext("Nobody of that name plays this hanchan.");
      }
    }

    input.addEventListener("input", () => show(false));
    input.addEventListener("change", () => show(true));
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") show(true);
    });
    const me = R.me.get(slug);
    if (me && seats.some((li) => li.dataset.player === String(me.id))) {
      input.value = me.name;
      show(false);
    }
    document.addEventListener("riichi:me", () => show(false));
  }

  function nextSeat(box) {
    const slug = box.dataset.slug;
    const data = JSON.parse(document.getElementById("next-seats").textContent);
    function paint() {
      const me = R.me.get(slug);
      const seat = me && data[String(me.id)];
      if (!seat) {
        box.textContent = "";
      } else if (seat.hanchan) {
        // A club session's table: a hanchan of its own, named by it.
        box.textContent = interpolate(gettext("%(name)s: hanchan %(hanchan)s, %(wind)s"), { name: me.name, hanchan: seat.hanchan, wind: seat.wind }, true);
      } else {
        box.textContent = interpolate(gettext("%(name)s: table %(table)s, %(wind)s"), { name: me.name, table: seat.table, wind: seat.wind }, true);
      }
    }
    paint();
    document.addEventListener("riichi:me", paint);
  }

  function thisIsMe(button) {
    const slug = button.dataset.slug;
    function paint() {
      const me = R.me.get(slug);
      const mine = me && String(me.id) === button.dataset.id;
      button.setAttribute("aria-pressed", mine ? "true" : "false");
      button.textContent = mine ? "★ " + gettext("This is me (tap to forget)") : "☆ " + gettext("This is me");
    }
    button.addEventListener("click", () => {
      const me = R.me.get(slug);
      if (me && String(me.id) === button.dataset.id) R.me.set(slug, null);
      else R.me.set(slug, { id: Number(button.dataset.id), name: button.dataset.name });
    });
    document.addEventListener("riichi:me", paint);
    paint();
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const root of document.querySelectorAll("[data-find]")) findTable(root);
    for (const box of document.querySelectorAll("[data-next-seat]")) nextSeat(box);
    for (const button of document.querySelectorAll("[data-this-is-me]")) thisIsMe(button);
  });
})();

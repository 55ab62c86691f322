/* Check-in at the door: one tap checks a player in (or undoes it) without reloading the page; ticked
   players are checked in at once. Each answer is the server's JSON: the player's new status and the
   check-in plan, which this script redraws. Without JavaScript the forms post as usual. */
(function () {
  "use strict";
  const R = window.Riichi;
  const table = document.querySelector("[data-check-in-table]");
  if (!table) return;
  const toast = document.querySelector("[data-check-in-toast]");
  const planHeading = document.querySelector("[data-plan-heading]");
  const planText = document.querySelector("[data-plan-text]");

  function say(text, undo) {
    toast.replaceChildren(text);
    if (undo) {
      toast.append(" ", R.el("button", { type: "button", className: "small", text: gettext("Undo"), onclick: undo }));
    }
    toast.hidden = false;
  }

  async function post(form, body) {
    const response = await fetch(form.action, {
      method: "POST",
      body: body || new FormData(form),
      headers: { Accept: "application/json", "X-CSRFToken": R.csrfToken() },
      credentials: "same-origin",
    });
    const data = await response.json();
    if (!response.ok) throw new Error((data.errors || []).map((e) => e.message).join("; ") || response.statusText);
    return data;
  }

  // The same sentences as the page's (templates/tournament/check_in.html), from the same catalogue.
  function counted(format, count, values) {
    return interpolate(format, Object.assign({ count: count }, values || {}), true);
  }

  function drawPlan(plan) {
    const checkedIn = plan.checked_in;
    planHeading.textContent = counted(
      ngettext("%(count)s player checked in", "%(count)s players checked in", checkedIn),
      checkedIn
    );
    let parts;
    if (plan.checked_in === 0) {
      parts = [gettext("Nobody has checked in yet; until someone does, the seating takes every registered player.")];
    } else if (plan.substitutes_needed === 0) {
      parts = [
        counted(ngettext("That fills %(count)s table exactly.", "That fills %(count)s tables exactly.", plan.tables), plan.tables),
      ];
    } else {
      parts = [
        R.el("b", { text: gettext("With substitutes:") }),
        " " +
          counted(
            ngettext(
              "%(count)s substitute completes the last table; %(available)s available.",
              "%(count)s substitutes complete the last table; %(available)s available.",
              plan.substitutes_needed
            ),
            plan.substitutes_needed,
            { available: plan.substitutes_available }
          ) +
          " " +
          counted(ngettext("%(count)s table plays.", "%(count)s tables play.", plan.tables), plan.tables) +
          " ",
      ];
      if (plan.substitutes_to_check_in) {
        parts.push(
          R.el("span", {
            className: "badge warn",
            "data-substitutes-to-check-in": "",
            text: counted(
              ngettext(
                "%(count)s substitute is registered but not checked in yet: check them in",
                "%(count)s substitutes are registered but not checked in yet: check them in",
                plan.substitutes_to_check_in
              ),
              plan.substitutes_to_check_in
            ),
          }),
          " "
        );
      }
      if (plan.substitutes_to_register) {
        parts.push(
          R.el("span", {
            className: "badge warn",
            "data-substitutes-to-register": "",
            text: interpolate(gettext("%(count)s short: register more substitutes"), { count: plan.substitutes_to_register }, true),
          }),
          " "
        );
      }
      parts.push(
        R.el("b", { text: gettext("Or, without substitutes:") }),
        " " +
          counted(
            ngettext(
              "%(count)s player sits out (the last to check in: %(names)s);",
              "%(count)s players sit out (the last to check in: %(names)s);",
              plan.sitting_out.length
            ),
            plan.sitting_out.length,
            { names: plan.sitting_out.join(", ") }
          ) +
          " " +
          counted(
            ngettext("%(count)s table plays.", "%(count)s tables play.", plan.sit_out_tables),
            plan.sit_out_tables
          )
      );
    }
    planText.replaceChildren(...parts);
  }

  function drawPlayer(player) {
    const row = table.querySelector('tr[data-player="' + player.id + '"]');
    if (!row) return;
    row.dataset.status = player.status;
    const label = row.querySelector("[data-status-label]");
    label.textContent = player.status_label;
    label.className = "badge " + player.status;
    row.querySelector("[data-checked-in-at]").textContent = player.checked_in_at;
    const form = row.querySelector("form[data-check-in-toggle]");
    const checkedIn = player.status === "checked_in";
    form.querySelector("input[name=checked_in]")?.remove();
    if (!checkedIn) form.prepend(R.el("input", { type: "hidden", name: "checked_in", value: "on" }));
    const button = form.querySelector("button");
    button.textContent = checkedIn ? gettext("Undo check-in") : pgettext("action", "Check in");
    button.classList.toggle("primary", !checkedIn);
    const box = row.querySelector("input[type=checkbox]");
    if (box) {
      box.checked = false;
      box.hidden = checkedIn;
    }
  }

  function draw(data) {
    drawPlan(data.plan);
    data.players.forEach(drawPlayer);
  }

  table.addEventListener("submit", async (event) => {
    const form = event.target.closest("form[data-check-in-toggle]");
    if (!form) return;
    event.preventDefault();
    const row = form.closest("tr");
    const name = row.dataset.name;
    try {
      const data = await post(form);
      draw(data);
      const checkedIn = data.players[0] && data.players[0].status === "checked_in";
      const done = checkedIn ? gettext("%(name)s is checked in.") : gettext("%(name)s: check-in undone.");
      say(interpolate(done, { name: name }, true), () => {
        toast.hidden = true;
        form.requestSubmit();
      });
    } catch (error) {
      say(name + ": " + error.message);
    }
  });

  const many = document.querySelector("form[data-check-in-many]");
  many.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await post(many);
      draw(data);
      const count = data.players.length;
      say(counted(ngettext("%(count)s checked in.", "%(count)s checked in.", count), count));
    } catch (error) {
      say(error.message);
    }
  });
})();

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
      toast.append(" ", R.el("button", { type: "button", className: "small", text: "Undo", onclick: undo }));
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

  function drawPlan(plan) {
    planHeading.textContent = plan.checked_in + (plan.checked_in === 1 ? " player" : " players") + " checked in";
    let text;
    if (plan.checked_in === 0) {
      text = "Nobody has checked in yet; until someone does, the seating takes every registered player.";
    } else if (plan.substitutes_needed === 0) {
      text = "That fills " + plan.tables + " table" + (plan.tables === 1 ? "" : "s") + " exactly.";
    } else {
      text =
        "With substitutes: " + plan.substitutes_needed + " complete the last table (" + plan.tables +
        " tables); " + plan.substitutes_available + " available" +
        (plan.short_of_substitutes ? ", " + plan.short_of_substitutes + " short: register more substitutes" : "") +
        ". Or, without substitutes: " + plan.sitting_out.length + " sit out (the last to check in: " +
        plan.sitting_out.join(", ") + ") and " + plan.sit_out_tables +
        (plan.sit_out_tables === 1 ? " table plays." : " tables play.");
    }
    planText.replaceChildren(text);
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
    button.textContent = checkedIn ? "Undo check-in" : "Check in";
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
      say(name + (checkedIn ? " is checked in." : ": check-in undone."), () => {
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
      say(data.players.length + " checked in.");
    } catch (error) {
      say(error.message);
    }
  });
})();

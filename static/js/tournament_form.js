/* The tournament form (templates/tournament/tournament_form.html). When creating: the address follows
   the name as it is typed, until the organiser edits the address; the venue time zone is the browser's,
   unless the organiser has chosen one. Editing changes neither (an existing address never changes
   unasked). On both: "Not before hanchan n" enables its n, and the rule fields show the chosen preset's
   values as their placeholders. After an invalid submit the summary of the fields in error takes the
   focus, and each of its links opens the folded part holding its field and moves the focus there. */
(function () {
  "use strict";

  const form = document.querySelector("form[data-tournament-form]");
  if (!form) return;

  const SLUG_LENGTH = 80;

  const summary = form.querySelector("[data-error-summary]");
  if (summary) {
    summary.focus();
    summary.addEventListener("click", function (event) {
      const link = event.target.closest("a[href^='#']");
      if (!link) return;
      const field = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (!field) return;
      event.preventDefault();
      const part = field.closest("details");
      if (part) part.open = true;
      field.focus();
      field.scrollIntoView({ block: "center" });
    });
  }

  /* As django.utils.text.slugify: accents dropped, lower case, anything else a hyphen. */
  function slugify(text) {
    return text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9\s_-]/g, "")
      .trim()
      .replace(/[-\s]+/g, "-")
      .slice(0, SLUG_LENGTH)
      .replace(/^[-_]+|[-_]+$/g, "");
  }

  const name = form.querySelector("[name=name]");
  const slug = form.querySelector("[name=slug]");
  if (form.hasAttribute("data-creating") && name && slug) {
    let followed = slug.value === "" || slug.value === slugify(name.value);
    slug.addEventListener("input", () => {
      followed = slug.value === "";
    });
    name.addEventListener("input", () => {
      if (followed) slug.value = slugify(name.value);
    });
  }

  const zone = form.querySelector("select[name=time_zone]");
  if (form.hasAttribute("data-browser-time-zone") && zone) {
    let browser = "";
    try {
      browser = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      browser = "";
    }
    const offered = Array.from(zone.options).some((option) => option.value === browser);
    const untouched = zone.value === zone.querySelector("option[selected]")?.value;
    if (browser && offered && untouched) zone.value = browser;
  }

  for (const choice of form.querySelectorAll("select[name$=_rule][name^=separate_]")) {
    const number = form.querySelector(`[name=${choice.name.replace(/_rule$/, "")}]`);
    if (!number) continue;
    const follow = () => {
      const from = choice.value === "from";
      number.disabled = !from;
      if (from) number.required = true;
      else number.required = false;
    };
    choice.addEventListener("change", follow);
    follow();
  }

  const preset = form.querySelector("select[name=ruleset_preset]");
  const presets = preset && preset.dataset.presets ? JSON.parse(preset.dataset.presets) : null;
  if (presets) {
    const show = () => {
      const values = presets[preset.value];
      if (!values) return;
      for (const [field, value] of Object.entries(values)) {
        const input = form.querySelector(`[name=${field}]`);
        if (input) input.placeholder = String(value);
      }
    };
    preset.addEventListener("change", show);
  }
})();

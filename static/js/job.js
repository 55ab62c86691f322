/* The seating run's page: follow the background job's state and progress, then show its report. */
(function () {
  "use strict";

  /* The states' names as the page's own badge shows them (SeatingJob.State), in the page's language. */
  const STATES = {
    queued: pgettext("job state", "Queued"),
    running: pgettext("job state", "Running"),
    done: pgettext("job state", "Done"),
    failed: pgettext("job state", "Failed"),
  };

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.querySelector("[data-job]");
    if (!root || !["queued", "running"].includes(root.dataset.state)) return;
    const bar = root.querySelector("[data-job-progress]");
    const percent = root.querySelector("[data-job-percent]");
    const state = root.querySelector("[data-job-state]");
    const asPercent = new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "percent" });
    async function tick() {
      try {
        const response = await fetch(root.dataset.url, { cache: "no-store" });
        if (response.ok) {
          const job = await response.json();
          bar.value = job.progress;
          percent.textContent = asPercent.format(job.progress);
          state.textContent = STATES[job.state] || job.state;
          if (job.state === "done" || job.state === "failed") {
            window.location.reload();
            return;
          }
        }
      } catch (e) {
        /* try again on the next tick */
      }
      setTimeout(tick, 1000);
    }
    tick();
  });
})();

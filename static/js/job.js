/* The seating run's page: follow the background job's state and progress, then show its report. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.querySelector("[data-job]");
    if (!root || !["queued", "running"].includes(root.dataset.state)) return;
    const bar = root.querySelector("[data-job-progress]");
    const percent = root.querySelector("[data-job-percent]");
    const state = root.querySelector("[data-job-state]");
    async function tick() {
      try {
        const response = await fetch(root.dataset.url, { cache: "no-store" });
        if (response.ok) {
          const job = await response.json();
          bar.value = job.progress;
          percent.textContent = Math.round(job.progress * 100) + "%";
          state.textContent = job.state.charAt(0).toUpperCase() + job.state.slice(1);
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

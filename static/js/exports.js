// The exports page (templates/exports/index.html): start an export without leaving the page, then show
// its progress and the download link. A static file: the Content-Security-Policy allows no inline script.
// Its words come from Django's JavaScript catalogue (djangojs.po; site.js keeps them English without it);
// the job's name, state_label and error come translated from the server.
(function () {
  "use strict";
  function show(cell, job) {
    cell.textContent = "";
    if (job.download_url) {
      var link = document.createElement("a");
      link.href = job.download_url;
      link.textContent = interpolate(gettext("Download %(filename)s"), { filename: job.filename }, true);
      cell.appendChild(link);
    } else if (job.state === "failed") {
      var error = document.createElement("span");
      error.className = "error";
      error.textContent = interpolate(gettext("Failed: %(error)s"), { error: job.error }, true);
      cell.appendChild(error);
    } else if (job.errors && !job.state) {
      cell.textContent = job.errors.map(function (problem) { return problem.message; }).join("; ");
    } else if (job.error && !job.state) {
      cell.textContent = job.error;
    } else {
      var bar = document.createElement("progress");
      bar.max = 1;
      bar.value = job.progress || 0;
      cell.appendChild(bar);
      cell.appendChild(document.createTextNode(" " + (job.state_label || job.state)));
      return true;
    }
    return false;
  }
  function poll(cell, url) {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) { return response.json(); })
      .then(function (job) { if (show(cell, job)) { setTimeout(function () { poll(cell, url); }, 1000); } })
      .catch(function () { cell.textContent = gettext("Could not reach the server; reload the page."); });
  }
  document.querySelectorAll(".export-form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var cell = document.getElementById("status-" + form.dataset.exporter);
      var button = form.querySelector("button");
      button.disabled = true;
      fetch(form.action, {
        method: "POST",
        headers: {"Accept": "application/json"},
        body: new FormData(form),
        credentials: "same-origin"
      })
        .then(function (response) { return response.json(); })
        .then(function (job) {
          button.disabled = false;
          if (show(cell, job) && job.status_url) { setTimeout(function () { poll(cell, job.status_url); }, 500); }
        })
        .catch(function () { button.disabled = false; cell.textContent = gettext("Could not reach the server."); });
    });
  });
  var focus = document.getElementById("focus");
  if (focus && focus.querySelector("progress")) { poll(focus, focus.dataset.statusUrl); }
})();

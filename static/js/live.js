/* Live updates: one Server-Sent Events stream per page (/t/<slug>/live, or a series' /series/<slug>/live,
   the URL in this script tag's data-live-url). Each event becomes a "riichi:live" DOM event ({kind, version, payload}) that the
   existing code listens to: the standings and the live tables redraw from the payload (or fetch when
   there is none), the clock takes the new time, and a published seating shows a notice. While the stream is open the
   pages poll rarely (Riichi.live.connected); when it fails (no stream on this server, Redis down, too
   many viewers, an old browser) they poll as before, and this script tries the stream again later. */
(function () {
  "use strict";

  const R = (window.Riichi = window.Riichi || {});
  const RETRY_MS = 60000;
  const KINDS = ["hello", "standings", "seating", "clock", "tables", "series"];
  const script = document.currentScript;

  R.live = { connected: false };

  function setConnected(connected) {
    if (R.live.connected === connected) return;
    R.live.connected = connected;
    document.dispatchEvent(new CustomEvent("riichi:live-state", { detail: { connected } }));
  }

  function seatingNotice(url) {
    const main = document.querySelector("main");
    if (!main || document.querySelector("[data-live-seating-notice]")) return;
    const onSeating = url && location.pathname.startsWith(url);
    main.prepend(
      R.el("ul", { className: "messages", "data-live-seating-notice": true }, [
        R.el("li", { className: "info" }, [
          gettext("The seating has changed.") + " ",
          onSeating
            ? R.el("a", { href: location.href, text: gettext("Reload the page") })
            : R.el("a", { href: url, text: gettext("Show the seating") }),
        ]),
      ]),
    );
  }

  function start(url, seatingUrl) {
    let source = null;

    function open() {
      source = new EventSource(url);
      source.addEventListener("open", () => setConnected(true));
      for (const kind of KINDS) {
        source.addEventListener(kind, (event) => {
          let data = null;
          try {
            data = JSON.parse(event.data);
          } catch (e) {
            return;
          }
          setConnected(true);
          if (data.kind === "seating" && seatingUrl) seatingNotice(seatingUrl);
          document.dispatchEvent(new CustomEvent("riichi:live", { detail: data }));
        });
      }
      source.addEventListener("error", () => {
        setConnected(false);
        if (source.readyState === EventSource.CLOSED) {
          /* Refused (204, 503) or not a stream: poll, and try again in a while. */
          setTimeout(open, RETRY_MS);
        }
        /* Otherwise the browser reconnects by itself, with Last-Event-ID; the pages poll meanwhile. */
      });
    }

    open();
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!script || !script.dataset.liveUrl || !window.EventSource) return;
    start(script.dataset.liveUrl, script.dataset.seatingUrl || "");
  });
})();

// Live updates (templates/components/live.html): check at once when a page comes back into view
// (a phone waking up, a tab brought forward, the network back), not only every 2 s.
"use strict";
(() => {
  if (window.tableeLive) return; // the script may be included by several components
  window.tableeLive = true;
  // A page that has just loaded is up to date: the focus event it gets on load must not send
  // a check that the next navigation would abort.
  let lastCheck = Date.now();
  const checkNow = () => {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    if (Date.now() - lastCheck < 1000) return;
    lastCheck = Date.now();
    document.querySelectorAll("[data-live]").forEach((element) => {
      window.htmx.trigger(element, "live-check");
    });
  };
  document.addEventListener("visibilitychange", checkNow);
  window.addEventListener("focus", checkNow);
  window.addEventListener("online", checkNow);
  // Leaving the page aborts a check in flight; that is expected, not an error to log.
  const inFlight = new Set();
  document.addEventListener("htmx:beforeSend", (event) => {
    if (event.target.matches && event.target.matches("[data-live]")) inFlight.add(event.detail.xhr);
  });
  document.addEventListener("htmx:afterRequest", (event) => inFlight.delete(event.detail.xhr));
  window.addEventListener("beforeunload", () => {
    inFlight.forEach((xhr) => { xhr.onabort = null; });
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) checkNow(); // restored from the back/forward cache
  });
})();

// Live updates (templates/components/live.html): check at once when a page comes back into view
// (a phone waking up, a tab brought forward, the network back), not only every 2 s; and follow
// the page's pushed stream when it has one (apps/core/push.py).
"use strict";
(() => {
  if (window.tableeLive) return; // the script may be included by several components
  window.tableeLive = true;
  // A page that has just loaded is up to date: the focus event it gets on load must not send
  // a check that the next navigation would abort.
  let lastCheck = Date.now();
  const checkAll = () => {
    lastCheck = Date.now();
    document.querySelectorAll("[data-live]").forEach((element) => {
      window.htmx.trigger(element, "live-check");
    });
  };
  const checkNow = () => {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    if (Date.now() - lastCheck < 1000) return;
    checkAll();
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

  // The pushed stream. While it is open, the 2 s timer sends nothing (an idle phone costs no
  // request); each "changed" event runs the check, which fetches what changed. Whenever the
  // stream (re)opens the page checks at once: a change made while it was down, or between
  // the page's rendering and the stream's opening, is not lost.
  let streaming = false;
  // htmx drops a request triggered while the element's previous one is in flight: a change
  // pushed meanwhile would be missed, so it is checked for again once that one is answered.
  let checking = false;
  let again = false;
  const followed = new WeakSet();
  const lost = (shown) => {
    document.querySelectorAll("[data-live-stream] .live-lost").forEach((badge) => {
      badge.hidden = !shown;
    });
  };
  const shownVersion = () => {
    const live = document.querySelector("[data-live]");
    const url = live && live.getAttribute("hx-get");
    return url ? new URL(url, location.href).searchParams.get("v") : null;
  };
  const pushed = (event) => {
    // "<kind>:<id>:<version>": the page that made the change already shows it.
    if (event.data.split(":")[2] === shownVersion()) return;
    if (checking) again = true;
    else if (window.htmx) checkAll();
  };
  document.addEventListener("htmx:sseOpen", (event) => {
    const source = event.detail.source;
    if (!followed.has(source)) {
      followed.add(source);
      source.addEventListener("changed", pushed);
    }
    streaming = true;
    lost(false);
    checkAll();
  });
  document.addEventListener("htmx:sseError", () => {
    streaming = false;
    lost(true);
  });
  document.addEventListener("htmx:sseClose", () => { streaming = false; });
  // The element that sent the request: a swapped-out one reports through its parent.
  const isLive = (event) => {
    const config = event.detail.requestConfig;
    const element = (config && config.elt) || event.target;
    return Boolean(element.matches && element.matches("[data-live]"));
  };
  // A poll has no triggering event of its own (htmx passes the element); a check asked for
  // ("live-check") has one and always goes.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!isLive(event)) return;
    if (streaming && !(event.detail.requestConfig.triggeringEvent instanceof Event)) {
      event.preventDefault();
      return;
    }
    checking = true;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!isLive(event)) return;
    checking = false;
    if (again) {
      again = false;
      checkAll();
    }
  });
})();

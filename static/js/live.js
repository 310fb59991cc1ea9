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
  // Pacing, as the server asks in each event (apps/core/push.py): wait a random moment within
  // the spread, so that a big table's phones do not all ask at once, and refresh at most once
  // per pace while changes keep coming. A planned refresh fetches the latest state, so later
  // events only wait for it.
  let planned = null;
  let lastRefresh = 0;
  let pace = { spread: 0, pace: 0 };
  // A page whose live element says so (components/live.html, direct=) refreshes its regions
  // at once on a new version, without asking the check first.
  // Such a region may come back a little older than the newest version told (the server
  // serves a fresh render again rather than render for each phone): the page then refreshes
  // again, paced, until it shows the newest.
  let newestTold = null;
  const directEvent = () => {
    const live = document.querySelector("[data-live]");
    return live ? live.dataset.liveDirect : undefined;
  };
  const behind = () => newestTold !== null && Number(shownVersion()) < newestTold;
  const refresh = () => {
    planned = null;
    if (ownSteps.size) {
      waitingForSteps = true;
      return;
    }
    if (checking) {
      again = true;
      return;
    }
    if (!window.htmx) return;
    const direct = directEvent();
    if (direct && !behind()) return;
    lastRefresh = Date.now();
    if (direct) window.htmx.trigger(document.body, direct);
    else checkAll();
  };
  const refreshSoon = () => {
    if (planned !== null) return;
    const wait = Math.max(Math.random() * pace.spread, lastRefresh + pace.pace - Date.now());
    planned = setTimeout(refresh, wait);
  };
  // The page's own step (a form it posts) commits before its answer arrives, so the change
  // pushed for it, or a check sent meanwhile, beats the answer: refreshing then would redraw
  // the page under the answer, which is then swapped into a page that is gone (its message
  // lost), and the console would render twice per step. While the page's own steps are in
  // flight, refreshes wait; once they are answered, the page refreshes only if it is still
  // behind what it was told (a change someone else made meanwhile).
  const ownSteps = new Set();
  let waitingForSteps = false;
  document.addEventListener("htmx:beforeSend", (event) => {
    const config = event.detail.requestConfig;
    if (config && config.verb !== "get") ownSteps.add(event.detail.xhr);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!ownSteps.delete(event.detail.xhr) || ownSteps.size || !waitingForSteps) return;
    waitingForSteps = false;
    // Once the answer has settled: htmx sets up the elements it brought only then, and a
    // check asked of a live element not yet set up would be lost.
    const settled = window.htmx.config.defaultSettleDelay + 20;
    setTimeout(() => { if (behind()) refreshSoon(); }, settled);
  });
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
    let told;
    try {
      told = JSON.parse(event.data);
    } catch {
      return;
    }
    // "<kind>:<id>:<version>": the page that made the change already shows it.
    const version = String(told.change).split(":")[2];
    if (version === shownVersion()) return;
    newestTold = Math.max(newestTold || 0, Number(version) || 0);
    pace = { spread: Number(told.spread_ms) || 0, pace: Number(told.pace_ms) || 0 };
    refreshSoon();
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
  const requester = (event) => {
    const config = event.detail.requestConfig;
    return (config && config.elt) || event.target;
  };
  const isLive = (element) => Boolean(element.matches && element.matches("[data-live]"));
  // A region that carries the live element back (a direct refresh) counts as a check.
  const isRefresh = (element) =>
    isLive(element) || Boolean(element.querySelector && element.querySelector("[data-live]"));
  // A poll has no triggering event of its own (htmx passes the element); a check asked for
  // ("live-check") has one and always goes.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const element = requester(event);
    if (!isRefresh(element)) return;
    const polled = !(event.detail.requestConfig.triggeringEvent instanceof Event);
    if (streaming && polled && isLive(element)) {
      event.preventDefault();
      return;
    }
    if (ownSteps.size) {
      event.preventDefault();
      waitingForSteps = true;
      return;
    }
    checking = true;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!isRefresh(requester(event))) return;
    checking = false;
    if (again || (directEvent() && behind())) {
      again = false;
      refreshSoon();
    }
  });
})();

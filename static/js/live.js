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
  // The server paces the events it pushes (apps/core/push.py: a big table's phones are not
  // told all at once, and at most about once a second while changes keep coming), so a page
  // refreshes when told; its own refreshes (a region that came back older, below) still wait
  // a second after the last one. A planned refresh fetches the latest state, so later events
  // only wait for it.
  const MIN_PACE_MS = 1000;
  let planned = null;
  let lastRefresh = 0;
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
  // What the page was told and what it has since refreshed: every change told counts one;
  // a refresh answered (check or region) covers what had been told when it was sent. A
  // keep-alive that finds a change told but not covered — its refresh failed, or was never
  // sent — refreshes again.
  let toldCount = 0;
  let coveredCount = 0;
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
    if (direct && !behind() && coveredCount >= toldCount) return;
    lastRefresh = Date.now();
    if (direct) window.htmx.trigger(document.body, direct);
    else checkAll();
  };
  const refreshSoon = () => {
    if (planned !== null) return;
    const wait = Math.max(0, lastRefresh + MIN_PACE_MS - Date.now());
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
    setTimeout(() => {
      if (behind()) refreshSoon();
      else if (newestTold !== null && Number(shownVersion()) >= newestTold) coveredCount = toldCount;
      else if (coveredCount < toldCount) refreshSoon();
    }, settled);
  });
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
  const parsed = (event) => {
    try {
      return JSON.parse(event.data);
    } catch {
      return null;
    }
  };
  // What the stream has told the page: each event says how many changes that makes
  // (``seq``), with the version the page follows (none for a sheet).
  let heardSeq = 0;
  const told = (news) => {
    heardSeq = Math.max(heardSeq, Number(news.seq) || 0);
    // The page that made the change already shows it.
    const version = String(news.version);
    if (version === shownVersion()) return;
    toldCount += 1;
    newestTold = Math.max(newestTold || 0, Number(news.version) || 0);
    refreshSoon();
  };
  const pushed = (event) => {
    const news = parsed(event);
    if (news) told(news);
  };

  // The stream's keep-alives (apps/core/push.py) say how many changes the page should have
  // been told. The first, as the stream opens, is what the page's check then brings; a later
  // one above what this page heard (an event lost on the way) refreshes it, and so does a
  // change told whose refresh never came back.
  let keepaliveMs = 25000;
  let baseline = false;
  const alive = (event) => {
    const news = parsed(event);
    if (!news) return;
    keepaliveMs = Number(news.keepalive_ms) || keepaliveMs;
    if (baseline) {
      baseline = false;
      heardSeq = Number(news.seq) || 0;
      return;
    }
    if ((Number(news.seq) || 0) > heardSeq) told(news);
    if (coveredCount < toldCount || behind()) refreshSoon();
  };

  // The stream itself: an EventSource on the URL of the page's [data-live-stream] element.
  // A stream that says nothing for two keep-alives (a phone's network gone quiet without
  // closing it) is taken for dead: "reconnexion…" shows, the 2 s checks resume and a new
  // stream is opened; so is one refused by the server (503 while the database restarts), a
  // little later each time.
  const SILENCE_SLACK_MS = 5000;
  const RETRY_MIN_MS = 2000;
  const RETRY_MAX_MS = 30000;
  let source = null;
  let heardAt = 0;
  let retryMs = RETRY_MIN_MS;
  let reopening = null;
  const streamUrl = () => {
    const element = document.querySelector("[data-live-stream]");
    return element ? element.dataset.liveStream : null;
  };
  const heard = () => { heardAt = Date.now(); };
  const down = () => {
    streaming = false;
    lost(true);
  };
  const reopenLater = () => {
    if (reopening !== null) return;
    reopening = setTimeout(() => {
      reopening = null;
      openStream();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
  const openStream = () => {
    const url = streamUrl();
    if (!url || typeof EventSource === "undefined") return;
    if (source) source.close();
    clearTimeout(reopening);
    reopening = null;
    const mine = new EventSource(url, { withCredentials: true });
    source = mine;
    heard(); // the silence is measured from the attempt
    const current = (handler) => (event) => { if (mine === source) handler(event); };
    mine.addEventListener("open", current(() => {
      heard();
      streaming = true;
      retryMs = RETRY_MIN_MS;
      baseline = true;
      lost(false);
      checkAll();
    }));
    mine.addEventListener("error", current(() => {
      down();
      // CONNECTING: the browser tries again by itself (the server's retry); CLOSED: the
      // server refused the stream, and only a new one will do.
      if (mine.readyState === EventSource.CLOSED) reopenLater();
    }));
    mine.addEventListener("changed", current((event) => { heard(); pushed(event); }));
    mine.addEventListener("alive", current((event) => { heard(); alive(event); }));
  };
  const silentTooLong = () => Date.now() - heardAt > 2 * keepaliveMs + SILENCE_SLACK_MS;
  setInterval(() => {
    if (source && silentTooLong()) {
      down();
      openStream();
    }
  }, 1000);
  // The network back, or the phone awake: a stream that is not open is tried again at once.
  const wakeStream = () => {
    if (source && !streaming && document.visibilityState === "visible") openStream();
  };
  window.addEventListener("online", wakeStream);
  document.addEventListener("visibilitychange", wakeStream);
  window.addEventListener("pagehide", () => { if (source) source.close(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) openStream(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openStream);
  } else {
    openStream();
  }

  // The element that sent the request: a swapped-out one reports through its parent.
  const requester = (event) => {
    const config = event.detail.requestConfig;
    return (config && config.elt) || event.target;
  };
  const isLive = (element) => Boolean(element.matches && element.matches("[data-live]"));
  // A region that carries the live element back (a direct refresh) counts as a check.
  const isRefresh = (element) =>
    isLive(element) || Boolean(element.querySelector && element.querySelector("[data-live]"));
  // A region fetched because a check said so (the event named by the check's HX-Trigger).
  let regionEvent = null;
  const askedByCheck = (event) => {
    const triggering = event.detail.requestConfig.triggeringEvent;
    return Boolean(regionEvent && triggering && triggering.type === regionEvent);
  };
  // A poll has no triggering event of its own (htmx passes the element); a check asked for
  // ("live-check") has one and always goes.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const element = requester(event);
    const config = event.detail.requestConfig;
    if (config.verb !== "get") return;
    if (askedByCheck(event)) event.detail.xhr.tableeTold = toldCount;
    if (!isRefresh(element)) return;
    const polled = !(config.triggeringEvent instanceof Event);
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
    event.detail.xhr.tableeTold = toldCount;
  });
  // What a refresh answered covers: a check that found nothing new, or a region (the direct
  // one, or one the check asked for) fetched — everything told before it was sent. A check
  // that found something covers nothing by itself: it has moved the page's version on, so if
  // its region then fails, asking the check again would answer "nothing new"; the region is
  // asked for again instead, until it comes.
  const answered = (xhr) => xhr.status >= 200 && xhr.status < 300;
  const cover = (xhr) => {
    if (xhr.tableeTold !== undefined) coveredCount = Math.max(coveredCount, xhr.tableeTold);
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    const config = event.detail.requestConfig;
    if (!config || config.verb !== "get") return;
    const element = requester(event);
    const byCheck = askedByCheck(event);
    if (isLive(element) && !byCheck) {
      const trigger = answered(xhr) && xhr.status !== 204 && xhr.getResponseHeader("HX-Trigger");
      if (trigger) regionEvent = trigger;
      else if (answered(xhr)) cover(xhr);
    } else if (byCheck || isRefresh(element)) {
      if (answered(xhr)) {
        cover(xhr);
      } else if (byCheck) {
        const name = regionEvent;
        setTimeout(() => window.htmx.trigger(document.body, name), RETRY_MIN_MS);
      } else {
        setTimeout(refreshSoon, RETRY_MIN_MS);
      }
    }
    if (!isRefresh(element)) return;
    checking = false;
    if (again || (directEvent() && behind())) {
      again = false;
      refreshSoon();
    }
  });
})();

// The "À toi" panel of the players' table view (templates/encounters/_my_turn.html):
// - whose turn it is comes from the region every phone shares (#table-body's rows): "À toi !"
//   when the acting fighter is one of the viewer's, "Tu es le prochain." when the next is;
// - the viewer's own requests come through a stream of their own (data-request-stream), each
//   change refreshing the panel at once;
// - the phone vibrates, where the browser can, when a roll is asked or the turn comes.
"use strict";
(() => {
  if (window.tableeTurn) return;
  window.tableeTurn = true;
  // Before the page's first tap the browser refuses to vibrate and logs an error saying so:
  // a phone opened from a link buzzes from its first tap on.
  const buzz = () => {
    const untouched = navigator.userActivation && !navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && !untouched) navigator.vibrate([120, 60, 120]);
  };
  let wasMine = false;
  const seenRequests = new Set();
  let firstLook = true;
  const look = () => {
    const panel = document.getElementById("my-turn");
    if (!panel) return;
    const mine = (panel.dataset.mine || "").split(" ").filter(Boolean);
    const acting = document.querySelector("#table-body [aria-current='true']");
    const upcoming = document.querySelector("#table-body [data-upcoming]");
    const isMine = !!acting && mine.includes(acting.dataset.combatant);
    const isNext = !isMine && !!upcoming && mine.includes(upcoming.dataset.combatant);
    panel.querySelectorAll("[data-turn-now]").forEach((e) => { e.hidden = !isMine; });
    panel.querySelectorAll("[data-turn-next]").forEach((e) => { e.hidden = !isNext; });
    let asked = false;
    panel.querySelectorAll("[data-request-id]").forEach((form) => {
      if (!seenRequests.has(form.dataset.requestId)) asked = true;
      seenRequests.add(form.dataset.requestId);
    });
    if (!firstLook && ((isMine && !wasMine) || asked)) buzz();
    firstLook = false;
    wasMine = isMine;
  };
  document.addEventListener("htmx:afterSettle", look);
  document.addEventListener("DOMContentLoaded", look);

  // The panel's own stream: one per page, following only the viewer's requests.
  let source = null;
  const open = () => {
    const panel = document.getElementById("my-turn");
    const url = panel && panel.dataset.requestStream;
    if (!url || source || !window.EventSource) return;
    source = new EventSource(url);
    source.addEventListener("changed", () => {
      const current = document.getElementById("my-turn");
      if (current && window.htmx) window.htmx.trigger(current, "request-changed");
    });
  };
  document.addEventListener("DOMContentLoaded", open);
})();

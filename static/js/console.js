// Keyboard shortcuts of the encounter console: N next turn, A attack, U undo.
// Buttons carry data-key; a shortcut never fires while typing in a field.
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
  const key = event.key.toLowerCase();
  if (key === "a") {
    const first = document.querySelector("#ew-attack select, #ew-attack input:not([type=hidden]), .attack-form select");
    if (first) { event.preventDefault(); first.focus(); }
    return;
  }
  const button = document.querySelector(`.console-controls button[data-key="${key}"]:not([disabled])`);
  if (button) { event.preventDefault(); button.click(); }
});
// Announce the new turn to screen readers: the live region is replaced with the console (or
// its text out of band, after a step), so copy its text into a region that stays.
function announceTurn() {
  const fresh = document.getElementById("turn-announcer");
  let stable = document.getElementById("turn-announcer-stable");
  if (!fresh) return;
  if (!stable) {
    stable = document.createElement("div");
    stable.id = "turn-announcer-stable";
    stable.className = "sr-only";
    stable.setAttribute("aria-live", "polite");
    document.body.appendChild(stable);
  }
  if (stable.textContent !== fresh.textContent) stable.textContent = fresh.textContent;
}
document.addEventListener("htmx:afterSwap", announceTurn);
document.addEventListener("htmx:oobAfterSwap", announceTurn);
// An attack or a test answered with fragments (HX-Reswap: none) leaves its form as the GM
// set it, to strike or test again; only the faces typed from physical dice belonged to the
// roll just made.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (!["ew-attack", "ew-test"].includes(form.id) || !event.detail.successful) return;
  if (event.detail.xhr.getResponseHeader("HX-Reswap") !== "none") return;
  form.querySelectorAll(".face-input").forEach((input) => { input.value = ""; });
});

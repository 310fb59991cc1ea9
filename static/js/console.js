// Keyboard shortcuts of the encounter console: N next turn, A the acting fighter's attack
// (its roll button, in view and focused: Enter rolls it), U undo, ? the list of them.
// Buttons carry data-key; a shortcut never fires while typing in a field.
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
  const key = event.key.toLowerCase();
  if (key === "?") {
    const help = document.getElementById("console-shortcuts");
    if (help) { event.preventDefault(); help.open = !help.open; }
    return;
  }
  if (key === "a") {
    const roll = document.querySelector("[data-main-action]");
    if (roll) {
      event.preventDefault();
      roll.scrollIntoView({ block: "nearest" });
      roll.focus();
    }
    return;
  }
  const button = document.querySelector(
    `.console-controls :is(button, a)[data-key="${key}"]:not([disabled])`
  );
  if (button) { event.preventDefault(); button.click(); }
});
// "Tour suivant" when it opens a new round rolled again: its form comes into view, its
// first button focused (Enter opens the round with the app's dice), instead of rolling them
// without asking.
document.addEventListener("click", (event) => {
  const opener = event.target.closest && event.target.closest("[data-opens]");
  if (!opener) return;
  const form = document.getElementById(opener.dataset.opens);
  if (!form) return;
  event.preventDefault();
  form.scrollIntoView({ block: "center" });
  const first = form.querySelector("button, input:not([type=hidden])");
  if (first) first.focus({ preventScroll: true });
});
// Its physical dice unfolded, the new round's form grows: all of it stays in view.
document.addEventListener("toggle", (event) => {
  const form = event.target.open && event.target.closest && event.target.closest("#new-round");
  if (form) bringIntoView(form, "nearest");
}, true);
// Once a turn passes from a form far down the actions (the new round's, the start's), the
// acting fighter's panel comes back into view rather than leaving the page on the log.
document.addEventListener("htmx:afterRequest", (event) => {
  // The element that sent the request (a swapped-out one reports through its parent).
  const config = event.detail.requestConfig;
  const elt = (config && config.elt) || event.detail.elt;
  if (!event.detail.successful || !elt.closest || !elt.closest("[data-passes-turn]")) return;
  setTimeout(() => {
    const actions = document.getElementById("actions-title");
    if (actions) bringIntoView(actions, "start");
  }, window.htmx.config.defaultSettleDelay + 20);
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
// When the console reloads itself because someone else acted (a second GM tab, a player
// spending from their sheet), what the GM had chosen or typed in a form and not yet sent — a
// target, a modifier, faces of physical dice — is put back in the new console, if that form
// still acts for the same combatant; the odds are then drawn again for those choices. The
// fields the GM touched are remembered by name, per form: some forms are redrawn by the
// server at each change, so their elements do not last.
const ACTOR_FIELDS = ["attacker", "caster", "combatant"];
const touched = new Map();
let typedBeforeReload = [];
function actorOf(form) {
  const actor = [...form.elements].find((f) => f.type === "hidden" && ACTOR_FIELDS.includes(f.name));
  return actor ? actor.value : "";
}
function rememberTouch(event) {
  const field = event.target;
  if (!field.form || !field.form.id || !field.name) return;
  if (!touched.has(field.form.id)) touched.set(field.form.id, new Set());
  touched.get(field.form.id).add(field.name);
}
document.addEventListener("input", rememberTouch);
document.addEventListener("change", rememberTouch);
function valuesOf(form, name) {
  const fields = [...form.elements].filter((f) => f.name === name);
  return fields
    .filter((f) => !["checkbox", "radio"].includes(f.type) || f.checked)
    .map((f) => f.value);
}
function putBack(saved) {
  const form = document.getElementById(saved.id);
  if (!form || actorOf(form) !== saved.actor) return;
  let redraw = null;
  for (const [name, values] of saved.fields) {
    for (const field of [...form.elements].filter((f) => f.name === name)) {
      if (["checkbox", "radio"].includes(field.type)) {
        field.checked = values.includes(field.value);
      } else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === values[0])) {
        field.value = values[0];
      }
      redraw = redraw || (field.closest("fieldset.plan") && field);
    }
  }
  if (redraw) redraw.dispatchEvent(new Event("change", { bubbles: true }));
}
// A stale click (409: someone acted first) also redraws the console: the GM's other choices
// are put back the same way.
document.addEventListener("htmx:beforeSwap", (event) => {
  const reloading = event.detail.target;
  const stale = event.detail.xhr.status === 409;
  if (!reloading || reloading.id !== "console") return;
  if (event.detail.requestConfig.verb !== "get" && !stale) return;
  typedBeforeReload = [...touched].flatMap(([id, names]) => {
    const form = document.getElementById(id);
    if (!form) return [];
    return [{ id, actor: actorOf(form), fields: [...names].map((name) => [name, valuesOf(form, name)]) }];
  });
});
document.addEventListener("htmx:afterSettle", () => {
  const saved = typedBeforeReload;
  typedBeforeReload = [];
  saved.forEach(putBack);
});
// On a tablet or a phone held upright (the stylesheet decides when), the order keeps in view
// only the fighters the GM deals with now: the acting one, the target of the attack form and
// the next two still standing, when that leaves at least two others out; the button under
// the list shows them. Which rows are far is worked out again after every swap, because a
// step's answer redraws only the rows it changed; the GM's choice to see them all lasts for
// the tab.
const ORDER_UNFOLDED = "tablee.order.unfolded";
function foldOrder() {
  const list = document.getElementById("combatants");
  const toggle = document.getElementById("order-toggle");
  if (!list || !toggle) return;
  const rows = [...list.querySelectorAll(":scope > li.combatant")];
  const acting = rows.findIndex((row) => row.classList.contains("acting"));
  if (acting < 0) return;
  const near = new Set([rows[acting]]);
  for (let step = 1; step < rows.length && near.size < 3; step++) {
    const row = rows[(acting + step) % rows.length];
    if (!row.classList.contains("out")) near.add(row);
  }
  const target = document.querySelector("#console-actions select[name=target]");
  const aimed = target && document.getElementById(`combatant-${target.value}`);
  if (aimed) near.add(aimed);
  // Folding a single row would save little and only surprise.
  const far = rows.length - near.size >= 2 ? rows.length - near.size : 0;
  rows.forEach((row) => row.classList.toggle("far", far > 0 && !near.has(row)));
  const unfolded = sessionStorage.getItem(ORDER_UNFOLDED) === "1";
  list.classList.toggle("unfolded", unfolded);
  toggle.hidden = far === 0;
  toggle.setAttribute("aria-expanded", String(unfolded));
  toggle.querySelector(".order-folded-count").textContent = `+${far}`;
}
document.addEventListener("click", (event) => {
  if (!event.target.closest("#order-toggle")) return;
  const unfolded = sessionStorage.getItem(ORDER_UNFOLDED) === "1";
  sessionStorage.setItem(ORDER_UNFOLDED, unfolded ? "0" : "1");
  foldOrder();
  // A big fight's far rows came light from the server: unfolded, they are asked whole.
  const whole = document.getElementById("order-whole");
  if (!unfolded && whole) whole.click();
});
// Once the GM asked for a big fight's whole order (folding.py), every request of the tab
// says so: the console refreshing itself, a step's answer, a reload by htmx.
const WHOLE_ORDER = "tablee.order.whole";
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-whole-order]")) sessionStorage.setItem(WHOLE_ORDER, "1");
});
document.addEventListener("htmx:configRequest", (event) => {
  if (sessionStorage.getItem(WHOLE_ORDER) === "1") event.detail.headers["Tablee-Order"] = "full";
});
document.addEventListener("change", (event) => {
  if (event.target.matches("#console-actions select[name=target]")) foldOrder();
});
document.addEventListener("htmx:oobAfterSwap", foldOrder);
document.addEventListener("htmx:afterSettle", foldOrder);
document.addEventListener("DOMContentLoaded", foldOrder);
// The outcome of the roll just made comes into view (issue 29): under a form scrolled down
// to its button, or at the top of the actions once the fighter has acted, it could land
// below the fold or above the screen. Only after the GM's own step (a post), once its answer
// has settled (an attack's fragments swap out of band), never when the console refreshes
// itself while the GM reads.
// The sticky header covers the top of the screen: what is under it is not in view.
function viewTop() {
  const header = document.querySelector(".site-header");
  return header ? header.getBoundingClientRect().bottom : 0;
}
function bringIntoView(element, block) {
  const box = element.getBoundingClientRect();
  if (box.top < viewTop() || box.bottom > window.innerHeight) element.scrollIntoView({ block });
}
function showRollResult() {
  const shown = document.querySelector(".roll-result.shown");
  if (shown) bringIntoView(shown, "nearest");
}
document.addEventListener("htmx:afterRequest", (event) => {
  const config = event.detail.requestConfig;
  if (!config || config.verb !== "post" || !event.detail.successful) return;
  setTimeout(showRollResult, window.htmx.config.defaultSettleDelay + 20);
});

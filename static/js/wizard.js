// The creation wizard, one step at a time (templates/systems/<code>/create.html).
// Without JavaScript every step shows on one page; with it, the steps become tabs with
// Previous/Next, and a tab is marked while a rule of its step is broken.
"use strict";
(() => {
  const form = document.querySelector("[data-wizard]");
  if (!form) return;
  const steps = Array.from(form.querySelectorAll("fieldset.step"));
  const tabs = Array.from(document.querySelectorAll("[data-wizard-tab]"));
  const nav = document.querySelector("[data-wizard-nav]");
  const prev = nav.querySelector("[data-wizard-prev]");
  const next = nav.querySelector("[data-wizard-next]");
  const position = nav.querySelector("[data-wizard-position]");
  let current = 0;

  const hasProblems = (step) =>
    Array.from(step.querySelectorAll(".field-errors")).some((slot) => slot.textContent.trim());

  const markProblems = () => {
    steps.forEach((step, index) => {
      if (tabs[index]) tabs[index].classList.toggle("has-problems", hasProblems(step));
    });
  };

  const show = (index, focus) => {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((step, i) => { step.hidden = i !== current; });
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-current", i === current ? "step" : "false");
    });
    prev.disabled = current === 0;
    next.hidden = current === steps.length - 1;
    position.textContent = `${current + 1} / ${steps.length}`;
    if (focus) {
      const first = steps[current].querySelector("input:not([type=hidden]), select, textarea");
      if (first) first.focus({ preventScroll: true });
      form.scrollIntoView({ block: "start" });
    }
  };

  // "Suivant" stops on a required input left empty: says so under it, and puts the cursor
  // there (the live check says nothing of an empty input while the user types).
  const firstEmpty = (step) =>
    Array.from(step.querySelectorAll("input[required], select[required], textarea[required]"))
      .find((input) => !input.disabled && input.type !== "hidden" && !input.value.trim());
  // Said until filled: the live check, which leaves an empty input unmarked while the user
  // types, redraws the error slots after the click that left the input.
  const saidEmpty = new Set();
  const sayRequired = (input) => {
    const slot = document.getElementById(`err-${input.name}`);
    if (slot && !slot.textContent.trim()) {
      const message = document.createElement("p");
      message.className = "field-error";
      message.textContent = nav.dataset.requiredMessage;
      slot.replaceChildren(message);
    }
    input.setAttribute("aria-invalid", "true");
    saidEmpty.add(input);
  };
  const sayAgain = () => {
    saidEmpty.forEach((input) => {
      if (input.value.trim()) saidEmpty.delete(input);
      else sayRequired(input);
    });
    markProblems();
  };
  form.addEventListener("input", (event) => event.target.removeAttribute("aria-invalid"));
  const forward = () => {
    const empty = firstEmpty(steps[current]);
    if (!empty) {
      show(current + 1, true);
      return;
    }
    sayRequired(empty);
    empty.focus();
    markProblems();
  };

  document.querySelector("[data-wizard-tabs]").hidden = false;
  nav.hidden = false;
  prev.addEventListener("click", () => show(current - 1, true));
  next.addEventListener("click", forward);
  tabs.forEach((tab, index) => tab.addEventListener("click", () => show(index, true)));
  // After a refused submit, open the first step that has a problem.
  const firstBroken = steps.findIndex(hasProblems);
  show(firstBroken >= 0 ? firstBroken : 0, false);
  markProblems();
  document.body.addEventListener("htmx:afterSettle", sayAgain);
  document.body.addEventListener("htmx:oobAfterSwap", sayAgain);
})();

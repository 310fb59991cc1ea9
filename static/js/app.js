// Tablée's own script: small behaviours htmx does not cover. No inline script anywhere (CSP).
"use strict";

// Close an open <details class="menu"> when clicking elsewhere or pressing Escape.
document.addEventListener("click", (event) => {
  document.querySelectorAll("details.menu[open]").forEach((menu) => {
    if (!menu.contains(event.target)) menu.removeAttribute("open");
  });
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  document.querySelectorAll("details.menu[open]").forEach((menu) => menu.removeAttribute("open"));
});

// "Copier le lien": a button with data-copy="<selector>" copies that field's value (or that
// link's address) and says so for a moment (data-copied). Without the clipboard (a page not
// served over HTTPS), the text is selected for the person to copy it.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  const text = source.value || source.href || source.textContent.trim();
  const said = button.textContent;
  const done = () => {
    button.textContent = button.dataset.copied || said;
    setTimeout(() => { button.textContent = said; }, 2000);
  };
  const select = () => {
    const range = document.createRange();
    if (source.select) source.select();
    else {
      range.selectNodeContents(source);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
    }
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, select);
  } else {
    select();
  }
});
// A text with a limit (components/wizard_field.html) counts its characters as they are typed.
document.addEventListener("input", (event) => {
  const area = event.target;
  if (!area.matches || !area.matches("textarea[maxlength]")) return;
  const count = document.querySelector(`[data-count-for="${area.id}"] [data-count]`);
  if (count) count.textContent = area.value.length;
});

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

// What becomes of a request a person makes, on every page (templates/base.html):
// - At most once per tap. A step (any request that changes something: not a GET) is not sent
//   again while it is on its way, nor within DOUBLE_TAP_MS of the tap that sent it; its form's
//   buttons are disabled meanwhile. htmx would otherwise queue the second tap and send it once
//   the first answer had refreshed the form's version, which then let it through. The server
//   refuses a replay too (the encounter's version, or the form's one-time key).
// - Its failure told where the eyes are. An error answer, a lost network or no answer within
//   htmx.config.timeout puts a message beside the control that was pressed — what happened,
//   whether anything was applied, and "réessayer" — and gives the button back. The words come
//   translated from the page (#request-failure in base.html).
// Requests the page makes by itself (live checks, regions refreshing) say nothing here:
// static/js/live.js asks them again, and "reconnexion…" tells a lost server.
"use strict";
(() => {
  if (window.tableeRequests) return;
  window.tableeRequests = true;
  const DOUBLE_TAP_MS = 800;
  // A step: its URL and what its form says, but not what each rendering of the form carries
  // (a refreshed form has a new version and key). The same tap twice is the same step; a
  // confirmation posted to the same URL as the form that asked for it, or the same form
  // with other choices, is another.
  // "POST /rencontres/3/suivant/ " -> when it was sent, while a second would be a replay.
  const guarded = new Map();
  const PER_RENDER = new Set(["csrfmiddlewaretoken", "once", "version"]);
  const keyOf = (verb, path, element) => {
    const said =
      element && element.tagName === "FORM"
        ? [...new FormData(element)]
            .filter(([name]) => !PER_RENDER.has(name))
            .map(([name, value]) => `${name}=${value}`)
            .sort()
        : [];
    return `${verb.toUpperCase()} ${new URL(path, location.href).pathname} ${said.join("&")}`;
  };
  const disable = (buttons) => {
    buttons.forEach((button) => {
      if (button.disabled) return;
      button.disabled = true;
      button.dataset.busy = "";
    });
    return buttons;
  };
  const enable = (buttons) => {
    buttons.forEach((button) => {
      if (!("busy" in button.dataset)) return;
      delete button.dataset.busy;
      button.disabled = false;
    });
  };
  const buttonsOf = (element) => {
    if (element.tagName === "FORM") {
      return [...element.querySelectorAll("button, input[type=submit]")].filter(
        (button) => button.type === "submit",
      );
    }
    return element.matches("button, input[type=submit]") ? [element] : [];
  };
  // The same step's forms the answer brought (a redrawn "Tour suivant"): their buttons wait
  // too, so that a tap on them is seen not to count rather than silently dropped.
  const sameStep = (key) =>
    [...document.querySelectorAll("form[hx-post], form[method=post]")].filter(
      (form) => keyOf("post", form.getAttribute("hx-post") || form.action, form) === key,
    );
  // Released once answered and DOUBLE_TAP_MS after the tap, whichever comes last; at once
  // when it failed (its message offers "réessayer", which must not be taken for a replay).
  const release = (key, buttons, failed) => {
    const sentAt = guarded.get(key);
    const wait =
      sentAt === undefined || failed ? 0 : Math.max(0, sentAt + DOUBLE_TAP_MS - Date.now());
    const waiting = wait ? disable(sameStep(key).flatMap(buttonsOf)) : [];
    setTimeout(() => {
      if (guarded.get(key) === sentAt) guarded.delete(key);
      enable([...buttons, ...waiting]);
    }, wait);
  };

  // A step is a change a person asked for by a tap (a button, a form sent): not a read, nor
  // the check a form posts as its fields are typed in (the creation wizard's), which must
  // follow every keystroke.
  const TAPS = new Set(["submit", "click"]);
  const isStep = (verb, triggering) =>
    verb !== "get" && Boolean(triggering && TAPS.has(triggering.type));
  // htmx asks this before it sends (or queues) a request: a second tap stops here.
  document.addEventListener("htmx:confirm", (event) => {
    const { verb, path, elt, triggeringEvent } = event.detail;
    if (isStep(verb, triggeringEvent) && guarded.has(keyOf(verb, path, elt))) {
      event.preventDefault();
    }
  });
  const steps = new WeakMap(); // xhr -> {key, buttons}
  document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    if (!config || !isStep(config.verb, config.triggeringEvent)) return;
    const key = keyOf(config.verb, config.path, config.elt);
    guarded.set(key, Date.now());
    steps.set(event.detail.xhr, { key, buttons: disable(buttonsOf(config.elt)) });
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const step = steps.get(event.detail.xhr);
    if (!step) return;
    steps.delete(event.detail.xhr);
    release(step.key, step.buttons, !event.detail.successful);
  });
  // A plain form (no htmx) navigates: a second submit would post again.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || (form.method || "get").toLowerCase() !== "post") return;
    const key = keyOf("post", form.action || location.href, form);
    if (guarded.has(key)) {
      event.preventDefault();
      return;
    }
    guarded.set(key, Date.now());
    // After this event: a disabled submitter would not send its own name and value.
    setTimeout(() => disable(buttonsOf(form)), 0);
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return; // back to a page left by a plain form: its buttons again
    guarded.clear();
    enable([...document.querySelectorAll("[data-busy]")]);
  });

  // --- Failures ---------------------------------------------------------------------------
  const words = () => {
    const template = document.getElementById("request-failure");
    return template ? template.dataset : null;
  };
  const USER_EVENTS = new Set(["click", "submit", "change", "input", "keyup", "keydown", "search"]);
  const madeByPerson = (config) => {
    if (!config) return false;
    if (config.verb !== "get") return true;
    const triggering = config.triggeringEvent;
    return Boolean(triggering && USER_EVENTS.has(triggering.type));
  };
  // What happened, and whether the step was applied: true (certainly not), or null (unknown).
  const diagnose = (type, xhr, said) => {
    if (type === "htmx:timeout") return { what: said.timeout, notApplied: null };
    if (type === "htmx:sendError") {
      return navigator.onLine === false
        ? { what: said.offline, notApplied: true }
        : { what: said.network, notApplied: null };
    }
    const status = xhr ? xhr.status : 0;
    if (status === 503) {
      return { what: said.unavailable, notApplied: xhr.getResponseHeader("Tablee-Nothing-Applied") === "1" || null };
    }
    if (status >= 500) return { what: said.server, notApplied: null };
    const refused = { 403: said.forbidden, 404: said.gone, 429: said.throttled };
    // The server refused the request before acting on it.
    return { what: refused[status] || said.refused, notApplied: true };
  };
  const boxes = new WeakMap(); // control -> its failure message
  const controlOf = (config) => {
    const element = config.elt;
    const triggering = config.triggeringEvent;
    const submitter = triggering && triggering.submitter;
    if (submitter && element.contains(submitter)) return submitter;
    if (element.tagName === "FORM") return buttonsOf(element)[0] || element;
    return element;
  };
  const forget = (control) => {
    const box = boxes.get(control);
    if (box) box.remove();
    boxes.delete(control);
  };
  const retry = (config) => {
    const element = config.elt;
    const triggering = config.triggeringEvent;
    if (!element.isConnected) return;
    if (element.tagName === "FORM") {
      const submitter = triggering && triggering.submitter;
      if (submitter && submitter.isConnected && submitter.form === element) element.requestSubmit(submitter);
      else element.requestSubmit();
    } else if (triggering && triggering.type !== "click") {
      window.htmx.trigger(element, triggering.type);
    } else {
      element.click();
    }
  };
  const show = (config, what, notApplied, said) => {
    const control = controlOf(config);
    forget(control);
    const box = document.createElement("div");
    box.className = "request-failure";
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = what;
    if (isStep(config.verb, config.triggeringEvent)) {
      text.textContent += ` ${notApplied ? said.notApplied : said.unknown}`;
    }
    const again = document.createElement("button");
    again.type = "button";
    again.className = "button small";
    again.textContent = said.retry;
    again.addEventListener("click", () => {
      forget(control);
      retry(config);
    });
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link-button small";
    close.textContent = said.close;
    close.addEventListener("click", () => forget(control));
    box.append(text, again, close);
    control.insertAdjacentElement("afterend", box);
    boxes.set(control, box);
  };
  const failed = (event) => {
    const config = event.detail.requestConfig;
    const said = words();
    if (!said || !madeByPerson(config) || !config.elt) return;
    const { what, notApplied } = diagnose(event.type, event.detail.xhr, said);
    show(config, what, notApplied, said);
  };
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach((name) => {
    document.addEventListener(name, failed);
  });
  // The same control answered this time: its old failure no longer stands.
  document.addEventListener("htmx:afterRequest", (event) => {
    const config = event.detail.requestConfig;
    if (event.detail.successful && config && config.elt) forget(controlOf(config));
  });
})();

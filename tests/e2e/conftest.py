"""Browser tests: Playwright driving the machine's Chromium (never a downloaded browser).

Chromium is looked for at CHROMIUM_PATH, else /usr/bin/chromium. Without it the browser
tests are skipped with one line — unless REQUIRE_BROWSER=1 (CI), where that is a failure.
"""

import difflib
import json
import os
import re
from pathlib import Path

import pytest

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/tablee-screenshots"))
# How long a browser action or an expectation may wait. Generous: CI shares two cores between
# the live server, Chromium and the test, and a failed wait cost a whole stop (a stream took
# over 10 s to open once). A passing test waits no longer for it.
ACTION_TIMEOUT_MS = 20_000
EXPECT_TIMEOUT_MS = 15_000
# A live page's set-up (its stream opened, its first check answered) on a busy machine: once
# over 10 s, once over 30 s while other browser tests ran beside the suite.
LIVE_SETUP_TIMEOUT_MS = 60_000

CHROMIUM_FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # this machine's network is closed
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    return path if Path(path).is_file() and os.access(path, os.X_OK) else None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "e2e" in item.path.parts:
            item.add_marker(pytest.mark.browser)


# Module scope: while Playwright runs, the test thread holds an event loop, which Django's
# async-safety check would trip on in any other test; each module starts and stops its own.
@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        reason = "no Chromium at CHROMIUM_PATH or /usr/bin/chromium"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        # The ORM calls a browser test makes from that thread are plain synchronous calls.
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_FLAGS
        )
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, live_server):
    """Open a fresh browser context at a viewport; collects console errors (CSP included)."""
    contexts = []

    def _open(viewport: dict, path: str = "/"):
        context = browser.new_context(viewport=viewport, locale="en-US")
        contexts.append(context)
        page = context.new_page()
        page.console_errors = []
        page.on(
            "console",
            lambda message: message.type == "error" and page.console_errors.append(message.text),
        )
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        page.goto(live_server.url + path)
        return page

    yield _open
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


# What a step's fragments leave on the console, region by region, read in the page.
CONSOLE_REGIONS = """(extra) => {
  const html = (selector) => [...document.querySelectorAll(selector)].map((e) => e.outerHTML);
  return {
    extra: extra.map(html),
    rows: html("#console .combatants > li"),
    status: html("#status-line"),
    announced: document.getElementById("turn-announcer").textContent.trim(),
    undo_redo: html("#undo-redo"),
    log: html("#log-lines > li").slice(0, 6),
    eclat: html("#ew-eclat"),
    odds: html("#ew-attack-odds"),
    // Every form must carry the current version (how many forms are open may differ).
    versions: [...new Set(
      [...document.querySelectorAll(".encounter-version")].map((e) => e.value)
    )],
  };
}"""


def console_regions(page, *extra: str) -> dict:
    """The encounter console's regions as the page holds them (``extra``: more selectors),
    cleaned of what differs between two renders of the same state: CSRF tokens, htmx's
    attributes and transient classes, whitespace."""

    def clean(html: str) -> str:
        html = re.sub(r'\s*name="csrfmiddlewaretoken" value="[^"]+"', "", html)
        # An empty style attribute is Chromium's, left on inputs after typing in a form.
        html = html.replace(' hx-swap-oob="true"', "").replace(' style=""', "")
        html = re.sub(r"\s*\bhtmx-[a-z]+\b", "", html).replace(' class=""', "")
        return re.sub(r"\s+", " ", html).replace(" >", ">")

    found = page.evaluate(CONSOLE_REGIONS, list(extra))

    def cleaned(value):
        return [cleaned(part) for part in value] if isinstance(value, list) else clean(value)

    return {name: cleaned(value) for name, value in found.items()}


def act_and_compare_with_reload(console, reloaded, url: str, action, *extra: str) -> None:
    """Run ``action`` on the console (a step answered with fragments), wait for its log line,
    then check that the console reads exactly as ``reloaded`` (another page) loading ``url``."""
    newest = console.locator("#log-lines > li").first.get_attribute("id")
    action()
    console.wait_for_function(
        "(id) => document.querySelector('#log-lines > li').id !== id", arg=newest
    )
    console.wait_for_timeout(150)  # htmx settles the swapped fragments
    # The double-tap guard (static/js/requests.js) gives the step's buttons back.
    console.wait_for_function("() => !document.querySelector('[data-busy]')")
    reloaded.goto(url)
    after_step, after_reload = console_regions(console, *extra), console_regions(reloaded, *extra)
    assert after_step == after_reload, "\n".join(
        difflib.unified_diff(
            json.dumps(after_reload, indent=1).splitlines(),
            json.dumps(after_step, indent=1).splitlines(),
            "reload",
            "after the step",
            lineterm="",
        )
    )

"""Click to settled in a real browser (Playwright, the machine's Chromium): an EW attack
and its undo tapped on the console, from the tap to the page at rest (the step's log line
in, htmx done swapping and settling). Printed and recorded, never judged: a browser's time
on a shared machine is no regression (issue #33)."""

import statistics
import time

import pytest

from tests.bench.figures import load_average, record
from tests.e2e.conftest import browser, open_page
from tests.e2e.test_console_taps import LAPTOP, ew_fight

__all__ = ["browser", "open_page"]  # the browser tests' fixtures

ROUNDS = 20
# The console lets a step button be tapped again only after its double-tap guard (800 ms).
GUARD_MS = 900
SETTLED = """(newest) => {
  const first = document.querySelector('#log-lines > li');
  return first && first.id !== newest
    && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added');
}"""


def settled_ms(page, action) -> float:
    """Milliseconds from ``action`` (a tap) to the console at rest with a new log line."""
    page.wait_for_timeout(GUARD_MS)
    newest = page.locator("#log-lines > li").first.get_attribute("id")
    start = time.perf_counter()
    action()
    page.wait_for_function(SETTLED, arg=newest, polling="raf")
    return (time.perf_counter() - start) * 1000


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1]


@pytest.mark.django_db(transaction=True)
def test_attack_and_undo_click_to_settled(open_page):
    console, _encounter = ew_fight(open_page, LAPTOP)
    attacks, undos = [], []
    for _ in range(ROUNDS):
        attacks.append(settled_ms(console, console.locator("#ew-attack-roll").click))
        undos.append(settled_ms(console, lambda: console.keyboard.press("u")))
    figures = {
        "browser_attack_settled_ms_p50": statistics.median(attacks),
        "browser_attack_settled_ms_p95": p95(attacks),
        "browser_undo_settled_ms_p50": statistics.median(undos),
        "browser_undo_settled_ms_p95": p95(undos),
    }
    print(f"\nclick to settled, Chromium, {ROUNDS} rounds, load average {load_average()}")
    for key, value in figures.items():
        print(f"  {key} = {value:.1f} (printed, not judged)")
    record(**figures)

"""``make bench`` fails when a deterministic budget is broken (``figures.judge``): the
figures are all printed and recorded first, then the run says which budgets broke."""

from tests.bench.figures import BROKEN


def pytest_sessionfinish(session, exitstatus):
    if BROKEN:
        print("\nDeterministic budgets broken:\n  " + "\n  ".join(BROKEN))
        session.exitstatus = 1

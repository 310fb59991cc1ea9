"""The project's settings with the benchmarks' URLs (the bare "hello" view), for the servers
the benchmarks start in a process of their own (tests/bench/bench_push.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.urls"

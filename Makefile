# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format messages bench soak faults check-deploy clean lock

# (Re)install when the lock changes: exactly the pinned, hash-checked versions, then the project.
$(STAMP): pyproject.toml requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

## After editing the dependencies of pyproject.toml: pin them again, with hashes, for every
## platform and Python >= 3.11 (requirements.lock: production; requirements-dev.lock: + dev).
## UPGRADE=1 moves every pin to the newest allowed version, not only the changed ones.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --quiet --generate-hashes --universal --python-version 3.11 $(if $(UPGRADE),--upgrade) -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --quiet --extra dev --generate-hashes --universal --python-version 3.11 $(if $(UPGRADE),--upgrade) -o requirements-dev.lock

## Start the app on http://127.0.0.1:8000 with the demo data (embedded PostgreSQL unless DATABASE_URL);
## ADDR=127.0.0.1:8001 (or ADDR=8001) serves on another address or port.
run: $(STAMP)
	DEBUG=$${DEBUG:-1} exec $(BIN)/python manage.py start $(ADDR)

## Run the whole test suite against a real PostgreSQL (DATABASE_URL, or a throwaway embedded one).
test: $(STAMP)
	DEBUG=1 $(BIN)/python -m pytest $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Recompile the translations after editing locale/*/LC_MESSAGES/django.po (needs gettext).
messages: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py makemessages -l en --no-location --no-wrap --ignore '.venv/*' --ignore 'tests/*'
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore '.venv/*'

## Speed measurements (ratios against a bare Django view, in one run); with BENCH_JSON=<file>,
## every figure printed is also written to that JSON file, one key each. Fails when a
## deterministic budget (Python calls, compressed kilobytes: tests/bench/bench_calls.py) is broken.
bench: $(STAMP)
	$(BIN)/python tests/bench/bench_rules.py
	DEBUG=1 $(BIN)/python -m pytest -p no:randomly -o python_files="bench_*.py" tests/bench -q -s $(ARGS)

## Soak (README, "Faults and soak"): 100 pushed phones and a GM acting for SOAK_MINUTES (10);
## prints the server's memory, file descriptors and database connections at the start and the
## end, and the screens still behind 5 s after the last change.
soak: $(STAMP)
	DEBUG=1 $(BIN)/python -m pytest -p no:randomly -o python_files="soak_*.py" tests/faults -q -s $(ARGS)

## Fault drills: the server killed at random moments during 100 steps (no step half applied),
## and `make run`'s embedded database killed with kill -9 five times (nothing lost).
faults: $(STAMP)
	DEBUG=1 $(BIN)/python -m pytest -p no:randomly -o python_files="fault_*.py" tests/faults -q -s $(ARGS)

## Delete the virtual environment and collected static files; the embedded database (.pgdata:
## every local campaign, character and account) only when you type yes.
clean:
	rm -rf $(VENV) staticfiles
	@if [ -d .pgdata ]; then \
	  echo ".pgdata/ holds the embedded database: every local campaign, character and account."; \
	  printf "Delete it for good? Type yes to delete it: "; \
	  read answer || true; \
	  if [ "$$answer" = yes ]; then rm -rf .pgdata && echo "Deleted .pgdata/."; \
	  else echo "Kept .pgdata/."; fi; \
	fi

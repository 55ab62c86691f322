# The two commands: `make run` (the product with a demo tournament) and `make test` (the whole suite).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on the real services of this machine.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
# One pytest-xdist worker per core and one more (a browser test's worker mostly waits for Chromium, whose
# work is counted apart); `make test TEST_WORKERS=0` runs the suite in one process. The tests are handed
# out longest first (tests/conftest.py), one by one as workers come free (`--dist load --maxschedchunk 1`:
# two to each worker, then one more each time one ends), so the run ends on short tests with every worker
# busy.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 1 )))
# A run starts a Python process for each pytest-xdist worker, Celery worker, server and command it runs,
# and each compiles what it imports: they keep their bytecode (__pycache__, ignored by git) even where the
# environment says not to write it (PYTHONDONTWRITEBYTECODE). Collecting the suite takes a worker 5 s
# with it, 11 s without.
TEST_ENV = PYTHONDONTWRITEBYTECODE= DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) TEST_RUN_ID=$$$$

.PHONY: run serve test test-quick test-all lint format bench services clean handbook

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

# PyICU (requirements-dev.txt) builds against Debian's libicu-dev: scripts/ensure-packages.sh first.
$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	scripts/ensure-packages.sh
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

# The PDF fonts of every script, when this machine can install them (docs/languages.md); never required.
run: $(VENV)/.installed
	-STRICT=0 scripts/ensure-packages.sh
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py load_demo
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, health: http://$(HOST):$(PORT)/healthz)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

services:
	WITH_BROWSER=$(WITH_BROWSER) scripts/ensure-services.sh

# The suite includes browser tests: Debian's chromium-headless-shell comes with the services.
test: $(VENV)/.installed-dev
	WITH_BROWSER=1 scripts/ensure-services.sh
	$(TEST_ENV) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load --maxschedchunk 1 $(PYTEST_ARGS)

# The developer's loop: the suite without the browser, the servers and the Celery workers (marked
# `browser`, `integration` and `server`, tests/conftest.py), nor the tests whose own work takes seconds
# (`slow`: a seating search to its budget, the API's fuzzer, the walks of every route, a migration round
# trip): the pure packages, the models, the pages through Django's test client and the API.
test-quick: $(VENV)/.installed-dev
	scripts/ensure-services.sh
	$(TEST_ENV) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load --maxschedchunk 1 \
	  -m "not browser and not integration and not server and not slow" $(PYTEST_ARGS)

# Everything `make test` runs, with the every-page check in every language at every size (before a change
# to the templates or the styles lands: docs/testing.md).
test-all:
	EVERY_SIZE=1 $(MAKE) test

# The handbooks' screenshots (docs/handbook/img/), taken again by the browser tests that do each step.
handbook: $(VENV)/.installed-dev
	WITH_BROWSER=1 scripts/ensure-services.sh
	$(TEST_ENV) SCREENSHOTS=en $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load --maxschedchunk 1 -q -m browser tests/browser $(PYTEST_ARGS)
	$(BIN)/python scripts/handbook_images.py

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy scoring/rules tournament/core tournament/seating tournament/ratings seatinglab exports/progress.py

format: $(VENV)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Production mode on one machine: gunicorn + Celery worker (+ beat) from the Procfile, on PostgreSQL
# and Redis. Needs SECRET_KEY, DATABASE_URL and REDIS_URL in the environment.
serve: $(VENV)/.installed
	@test -n "$$SECRET_KEY" -a -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || \
	  { echo "make serve needs SECRET_KEY, DATABASE_URL and REDIS_URL (see the README, Production)"; exit 2; }
	DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v 0
	DEBUG=0 PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/honcho start -f Procfile -p $(PORT)

bench: $(VENV)/.installed-dev
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles var

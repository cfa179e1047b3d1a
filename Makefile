# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Without SECRET_KEY, local runs use a random key kept in .secret_key (see config/deployment.py).
export HIDEOUT_LOCAL_KEY ?= 1
# `make run PORT=8101` serves on another port; links in e-mails follow it unless SITE_URL is set.
PORT ?= 8000

.PHONY: run test test-backends lint bench messages clean

# uv (from PyPI, pinned here) installs the requirements in seconds where pip takes about 40.
# --compile-bytecode writes the packages' .pyc files at install, as pip does: without them every
# Python process the site or the tests start compiles Django and the rest again, about 3.5 s of CPU
# each (docs/decisions/0027-bytecode-at-install.md).
UV_VERSION := 0.13.9

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements-dev.txt
	touch $(STAMP)

locale/zh_Hant/LC_MESSAGES/django.mo: locale/zh_Hant/LC_MESSAGES/django.po $(STAMP)
	$(BIN)/python manage.py compilemessages --locale zh_Hant --ignore .venv > /dev/null

messages: locale/zh_Hant/LC_MESSAGES/django.mo

SITE := SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)}

run: $(STAMP) messages
	$(SITE) $(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(SITE) HIDEOUT_DEV_BEAT=$${HIDEOUT_DEV_BEAT:-1} $(BIN)/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

test: $(STAMP) messages
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The tests whose outcome can depend on the database, the channel layer or the broker: CI's second
# pass, on PostgreSQL + Redis. The engine tests are pure Python, so they run once, in `make test`; so
# do the platform tests that touch no backend (tests/platform/conftest.py). tests/deploy starts its
# own PostgreSQL + Redis stack in either pass: CI runs it once, at the end of this pass (.ci/run),
# with two engine files (the bridge_race and heist property playouts) that balance the two passes.
# The browser tests come first here and last in `make test`, so that in CI (both passes at once) the
# two browsers do not run side by side.
test-backends: $(STAMP) messages
	HIDEOUT_BACKENDS_PASS=1 $(BIN)/python -m pytest tests/e2e tests/platform $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/load_bench.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3

# LVL Rules. `make serve` builds and serves the site; `make test` runs every test.
# Both set up what they need first (a virtualenv, pip packages, npm packages, Chromium).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.ready
WHEEL_READY := $(VENV)/.wheel-ready

.PHONY: serve site test lint format wheel bench clean

$(READY): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# The tests run against the installed wheel, as the browser does, not the source tree.
wheel: $(READY)
	rm -rf dist
	$(BIN)/python -m build --wheel --outdir dist --no-isolation . > /dev/null
	$(BIN)/pip install --quiet --force-reinstall --no-deps dist/lvl_rules-*.whl
	touch $(WHEEL_READY)

lint: $(READY)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(READY)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint wheel
	$(BIN)/pytest

bench: wheel
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) site dist build .pytest_cache .ruff_cache .hypothesis *.egg-info

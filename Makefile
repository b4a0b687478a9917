# LVL Rules. `make serve` builds and serves the site; `make test` runs every test.
# Both set up what they need first: a virtualenv with pinned pip packages, the pinned
# npm packages (Pyodide), and (for the browser tests) Debian's Chromium.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.ready
NODE_READY := node_modules/.package-lock.json
CHROMIUM := /usr/bin/chromium
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site test lint format wheel bench clean

$(READY): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

$(NODE_READY): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The tests run against the installed wheel, as the browser does, not the source tree.
wheel: $(READY)
	rm -rf dist build
	$(BIN)/python -m build --wheel --outdir dist --no-isolation . > /dev/null
	$(BIN)/pip install --quiet --force-reinstall --no-deps dist/lvl_rules-*.whl

# The static site a host would publish, in site/: the pages, the engine, the printable
# PDFs of each edition (/data/<edition>.pdf, printed by Chromium), the offline files.
site: wheel $(NODE_READY) $(CHROMIUM)
	$(BIN)/python -m build_scripts.build_site site

serve: site
	$(BIN)/python build_scripts/serve.py site --host 127.0.0.1 --port 8000

lint: $(READY)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(READY)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint wheel $(NODE_READY) $(CHROMIUM)
	$(BIN)/pytest

bench: site $(CHROMIUM)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/site_build.py
	$(BIN)/python benchmarks/browser_start.py
	$(BIN)/python benchmarks/network.py
	$(BIN)/python benchmarks/lighthouse.py

clean:
	rm -rf $(VENV) site dist build .cache .pytest_cache .ruff_cache .hypothesis node_modules

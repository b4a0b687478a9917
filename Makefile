# LVL Rules. `make serve` builds and serves the site; `make test` runs every test.
# Both set up what they need first: a virtualenv with pinned pip packages, the pinned
# npm packages (Pyodide), and (for the browser tests) Debian's Chromium.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.ready
ON_PATH := $(VENV)/.repository-on-path
NODE_READY := node_modules/.package-lock.json
CHROMIUM := /usr/bin/chromium
CADDY := /usr/bin/caddy
# `make serve HOST=0.0.0.0` serves a venue's network (it prints the address phones open).
HOST ?= 127.0.0.1
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site test lint format wheel bench clean

$(READY): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# Everything else runs as `python -m` from the repository root, which puts the root on
# sys.path. The tests import build_scripts too, but lvl_rules from the installed wheel, so
# for them the root must come after site-packages (`python -m pytest` would put it
# first): this .pth file does that for the virtualenv's Python. No module edits sys.path.
$(ON_PATH): $(READY)
	echo "$(CURDIR)" > "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/lvl_rules_repository.pth"
	touch $@

$(NODE_READY): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The web server of `make serve`, the tests and the PDF step (build_scripts/tools/serve.py).
$(CADDY):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy

# The tests run against the installed wheel, as the browser does, not the source tree.
# One wheel per build: dist/ holds it, remade only when lvl_rules/ has changed; the site
# build publishes the same wheel without what only the build reads (dist/browser/).
wheel: $(READY)
	$(BIN)/pip install --quiet --force-reinstall --no-deps "$$($(BIN)/python -m build_scripts.bundle.wheel)"

# The static site a host would publish, in site/: the pages, the engine, the printable
# PDFs of each edition (/data/<edition>.pdf, printed by Chromium), the offline files.
site: wheel $(NODE_READY) $(CHROMIUM) $(CADDY)
	$(BIN)/python -m build_scripts.build_site site

serve: site $(CADDY)
	$(BIN)/python -m build_scripts.tools.serve site --host $(HOST) --port $(PORT)

lint: $(READY)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(READY)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint wheel $(ON_PATH) $(NODE_READY) $(CHROMIUM) $(CADDY)
	$(BIN)/pytest

bench: site $(CHROMIUM)
	$(BIN)/python -m benchmarks.engine
	$(BIN)/python -m benchmarks.site_build
	$(BIN)/python -m benchmarks.browser_start
	$(BIN)/python -m benchmarks.network
	$(BIN)/python -m benchmarks.venue
	$(BIN)/python -m benchmarks.long_match
	$(BIN)/python -m benchmarks.layout_shift --site site=site
	$(BIN)/python -m benchmarks.lighthouse

clean:
	rm -rf $(VENV) site dist build .cache .pytest_cache .ruff_cache .hypothesis node_modules

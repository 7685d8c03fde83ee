# Every target bootstraps what it needs: a fresh clone with Python 3.11+, node and npm is enough.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.toolgen-installed
NODE_STAMP := node_modules/.toolgen-installed
# Both pinned compilers (package.json): `typescript` is 5.9, `typescript-7` the native 7; each is
# run by its path, since both packages name their command `tsc`.

.PHONY: generate check test lint regen clean

$(VENV_STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

generate: $(VENV_STAMP)
	$(PY) -m generator generate

# Regenerates the committed output and every golden case under tests/golden/.
regen: generate
	for case in tests/golden/*/; do $(PY) -m generator generate --project "$$case"; done

# `make check CHECK_FORMAT=github` annotates a CI log; `CHECK_FLAGS=--full` always regenerates.
CHECK_FORMAT ?= text
check: $(VENV_STAMP)
	$(PY) -m generator check --format $(CHECK_FORMAT) $(CHECK_FLAGS)

test: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m pytest

lint: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) -m ruff check generator tests bench generated/python
	$(PY) -m ruff format --check generator tests bench
	$(PY) -m mypy
	node node_modules/typescript/bin/tsc -p tsconfig.json
	node node_modules/typescript-7/bin/tsc -p tsconfig.json

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache

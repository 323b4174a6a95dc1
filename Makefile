# The two commands of the README's quick start: `make run` and `make test`.
PYTHON ?= python3
# Where `make run` serves: make run PORT=8080 HOST=0.0.0.0
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The modules setup.py compiles with mypyc (pyproject.toml, [tool.dailydeal] compiled)
COMPILED_SOURCES := $(shell $(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['dailydeal']['compiled'])")
BUILT := $(VENV)/.compiled
# A second environment with every runtime dependency at the lowest version pyproject allows
LOWEST := .venv-lowest

.PHONY: run test test-lowest lint install clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# An edit of a compiled module recompiles it (a stale build would run as Python source,
# slower: dailydeal/native.py); the install above has just compiled everything.
$(BUILT): $(STAMP) $(COMPILED_SOURCES)
	@if find $(COMPILED_SOURCES) -newer $(STAMP) | grep -q .; then \
		echo "recompiling the solvers (setup.py)"; $(BIN)/pip install --quiet --no-deps -e .; fi
	@touch $(BUILT)

install: $(BUILT)

run: $(BUILT)
	@echo "dailydeal: filling today's deals, then serving the daily page at http://$(HOST):$(PORT)/"
	$(BIN)/dailydeal serve --jobs 2 --host $(HOST) --port $(PORT)

# -rs: the summary names every skipped test and why (the browser tests without Chromium)
test: $(BUILT)
	$(BIN)/pytest -rs
	$(BIN)/ruff check dailydeal tests benchmarks setup.py
	$(BIN)/mypy dailydeal

# The tests again on the lowest versions pyproject.toml allows (CI runs it after `make test`).
test-lowest:
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/pip install --quiet --upgrade pip
	$(LOWEST)/bin/python .ci/lowest_constraints.py pyproject.toml > $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pip install --quiet -c $(LOWEST)/constraints.txt -e '.[dev]'
	@echo "lowest versions allowed by pyproject.toml:" && cat $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pytest -p no:cacheprovider $(PYTEST_ARGS)

lint: $(BUILT)
	$(BIN)/ruff check dailydeal tests benchmarks setup.py
	$(BIN)/mypy dailydeal

clean:
	rm -rf $(VENV) $(LOWEST) build dailydeal/compiled.json
	find dailydeal -name '*.so' -delete

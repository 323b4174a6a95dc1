# The two commands of the README's quick start: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# A second environment with every runtime dependency at the lowest version pyproject allows
LOWEST := .venv-lowest

.PHONY: run test test-lowest lint install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@echo "dailydeal: filling today's deals, then serving the daily page at http://127.0.0.1:8000/"
	$(BIN)/dailydeal serve --jobs 2

# -rs: the summary names every skipped test and why (the browser tests without Chromium)
test: $(STAMP)
	$(BIN)/pytest -rs
	$(BIN)/ruff check dailydeal tests benchmarks
	$(BIN)/mypy dailydeal

# The tests again on the lowest versions pyproject.toml allows (CI runs it after `make test`).
test-lowest:
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/pip install --quiet --upgrade pip
	$(LOWEST)/bin/python .ci/lowest_constraints.py pyproject.toml > $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pip install --quiet -c $(LOWEST)/constraints.txt -e '.[dev]'
	@echo "lowest versions allowed by pyproject.toml:" && cat $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pytest -p no:cacheprovider $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check dailydeal tests benchmarks
	$(BIN)/mypy dailydeal

clean:
	rm -rf $(VENV) $(LOWEST)

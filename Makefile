# The two commands of the README's quick start: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint install clean

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

lint: $(STAMP)
	$(BIN)/ruff check dailydeal tests benchmarks
	$(BIN)/mypy dailydeal

clean:
	rm -rf $(VENV)

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
	$(BIN)/dailydeal serve --jobs 2

test: $(STAMP)
	$(BIN)/pytest
	$(BIN)/ruff check dailydeal tests benchmarks
	$(BIN)/mypy dailydeal

lint: $(STAMP)
	$(BIN)/ruff check dailydeal tests benchmarks
	$(BIN)/mypy dailydeal

clean:
	rm -rf $(VENV)

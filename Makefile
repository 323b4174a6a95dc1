# The two commands of the README's quick start: `make run` and `make test`.
PYTHON ?= python3
# Where `make run` serves: make run PORT=8080 HOST=0.0.0.0
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
# The package and its runtime dependencies, the solvers as Python source: enough to serve.
# (DAILYDEAL_PURE_PYTHON at install: pip compiles nothing; the build below does, apart.)
RUNTIME := $(VENV)/.runtime
# ... and the tools of `make test` (pytest, ruff, mypy, Playwright)
STAMP := $(VENV)/.installed
# The modules setup.py compiles with mypyc (pyproject.toml, [tool.dailydeal] compiled)
COMPILED_SOURCES := $(shell $(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['dailydeal']['compiled'])")
# ... and the C sources of those written in C (a .c beside the .py)
C_SOURCES := $(wildcard $(COMPILED_SOURCES:.py=.c))
# What setup.py needs to compile them (pyproject.toml: [build-system] requires and
# [tool.dailydeal] compiler), quoted for the shell
BUILD_REQUIRES := $(shell $(PYTHON) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb')); print(*map(repr, p['build-system']['requires'] + p['tool']['dailydeal']['compiler']))")
BUILT := $(VENV)/.compiled
BUILD_LOG := $(VENV)/compile.log
# A second environment with every runtime dependency at the lowest version pyproject allows
LOWEST := .venv-lowest

.PHONY: run test test-lowest durations lint install clean

$(RUNTIME): pyproject.toml setup.py build_backend.py
	$(PYTHON) -m venv $(VENV)
	DAILYDEAL_PURE_PYTHON=1 $(BIN)/pip install --quiet --no-compile -e .
	@touch $@

# The tests' environment compiled to bytecode once here (the runtime was installed with
# --no-compile, so that `make run` serves at once): else the first processes of `make test`
# all compile the same dependencies at the same time.
$(STAMP): $(RUNTIME)
	$(BIN)/pip install --quiet --upgrade pip
	DAILYDEAL_PURE_PYTHON=1 $(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib dailydeal >/dev/null || true
	@touch $@

# The compiled solvers, in place (setup.py: the Python source runs until the build is
# complete, and whenever a compiled module's source is newer than its build:
# dailydeal/native.py). Again after an edit of a compiled module.
$(BUILT): $(RUNTIME) $(COMPILED_SOURCES) $(C_SOURCES)
	$(BIN)/pip install --quiet $(BUILD_REQUIRES)
	$(BIN)/python setup.py --quiet build_ext --inplace
	@touch $@

install: $(STAMP) $(BUILT)

# Serves at once, from the Python source while the solvers compile in the background (at
# the lowest priority, log in $(BUILD_LOG)); processes started once the build is complete
# (the scheduler's fills, a restart) run it. Today's deals are stored in the background too.
run: $(RUNTIME)
	@if ! $(MAKE) --no-print-directory -q $(BUILT) 2>/dev/null; then \
		echo "dailydeal: compiling the solvers in the background (log: $(BUILD_LOG))"; \
		( nice -n 19 $(MAKE) --no-print-directory $(BUILT) >$(BUILD_LOG) 2>&1; \
		  $(BIN)/python -c "from dailydeal import native; print('dailydeal: background build done; processes started from now on run the solvers', native.BUILD)" \
		) >&2 & \
	fi
	@$(BIN)/dailydeal serve --jobs 2 --fill background --host $(HOST) --port $(PORT)

# The test files shared among two pytest workers per core (pytest-xdist), a file kept whole on
# one worker: its module fixtures (servers, nginx, a browser) start once. Two a core, as
# about half of a worker's time is spent waiting (servers starting, browsers, the network):
# 2 cores, 1,523 tests: one a core 8:14, two a core 7:45 with a helper's load beside it.
# Serial: PYTEST_JOBS=
CORES := $(shell $(PYTHON) -c "import os; print(len(os.sched_getaffinity(0)))")
# --no-loadscope-reorder: the files longest first, as tests/helpers/longest_first.py orders them
# (xdist's own order, most tests first, left the long browser files to the end)
PYTEST_JOBS ?= -n $(shell echo $$(( 2 * $(CORES) ))) --dist loadfile --no-loadscope-reorder
# PYTHONDONTWRITEBYTECODE (set on these machines) is left out of the tests: with it, each of
# the five pytest processes rewrote the asserts of every test module again (collection
# 5.5 s a process; 2.1 s with the caches), and each server or command a test starts
# compiled its imports again.
TEST_ENV := PYTHONDONTWRITEBYTECODE=
# -rs: the summary names every skipped test and why (the browser tests without Chromium);
# then the board's logic in Node (tests/js/*.test.mjs: rules.js's answers to the board, input,
# renderers, the API client), without a browser
test: $(STAMP) $(BUILT)
	$(TEST_ENV) $(BIN)/pytest -rs $(PYTEST_JOBS)
	@if command -v node >/dev/null; then node --test tests/js/; \
	else echo "SKIPPED: the Node unit tests of the board (tests/js/*.test.mjs): node is not installed"; fi
	$(BIN)/ruff check dailydeal tests benchmarks setup.py build_backend.py
	$(BIN)/mypy dailydeal

# Each test file's seconds, measured by a whole run, into tests/durations.json: the order
# make test hands the files out in (longest first). Run it when files grow or move.
durations: $(STAMP) $(BUILT)
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_JOBS) --store-durations

# The tests again on the lowest versions pyproject.toml allows (CI runs it after `make test`),
# the browser tests in Debian's full chromium where make test drives the headless shell
# (tests/helpers/browser.py): CI tries every page in both.
# (looked up when test-lowest runs, not at every make)
FULL_CHROMIUM = $(shell command -v chromium)
test-lowest:
	$(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/pip install --quiet --upgrade pip
	$(LOWEST)/bin/python .ci/lowest_constraints.py pyproject.toml > $(LOWEST)/constraints.txt
	$(LOWEST)/bin/pip install --quiet -c $(LOWEST)/constraints.txt -e '.[dev]'
	@echo "lowest versions allowed by pyproject.toml:" && cat $(LOWEST)/constraints.txt
	$(TEST_ENV) TEST_CHROMIUM=$(FULL_CHROMIUM) $(LOWEST)/bin/pytest -p no:cacheprovider $(PYTEST_JOBS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check dailydeal tests benchmarks setup.py build_backend.py
	$(BIN)/mypy dailydeal

clean:
	rm -rf $(VENV) $(LOWEST) build dailydeal/compiled.json dailydeal/compiled.stat.json
	find dailydeal -name '*.so' -delete

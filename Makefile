# pirate-sim: every target creates the virtual environment first if it is missing.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp
TSTAMP  = $(VENV)/.test-installed-stamp
DEMO    = reports/pirates_peak_default
JOBS   ?= 2

.PHONY: demo test test-fast bench lint clean-cache clean help

help:
	@echo "make demo         set up, run Pirate's Peak (1,000,000 games), summary + report under $(DEMO)"
	@echo "make test         set up, lint (ruff), run every test (default suite + slow statistical checks)"
	@echo "make test-fast    the default suite only (no slow statistical checks)"
	@echo "make bench        throughput of every game (games/s with and without the JIT)"
	@echo "make lint         ruff over the package and tests"
	@echo "make clean-cache  free the disk numba's compiled kernels take (never needed for correctness)"

# the package and what it runs on; the test tools (pytest, ruff, hypothesis...) come on top
# for the targets that need them, so a first `make demo` does not wait for them (15 s of 45).
# INSTALL: uv (pip-installed into the venv, 1.4 s) installs the same versions as pip, in
# 13 s instead of 31 s on 2 cores (measured: docs/performance.md); where uv cannot be installed or
# fails, pip does the install.  uv tries its own cache first (--offline: what an earlier install on
# this machine fetched; no wait on a slow index, which once took 2 min); where that cannot resolve
# (a first install), it goes online.  uv does not byte-compile the 870 MB it installs (that was 13 of
# its 14 s, 31 s of CPU): Python compiles each module a recipe imports once, on its first import,
# and keeps it (KEEP_BYTECODE below), so the first `make demo` starts 11 s sooner.
UV      = $(BIN)/python -m uv pip install --quiet --python $(BIN)/python
INSTALL = $(BIN)/python -m pip install --quiet uv && ($(UV) --offline -e $(1) 2>/dev/null || $(UV) -e $(1)) \
          || $(BIN)/python -m pip install --quiet -e $(1)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(call INSTALL,.)
	touch $(STAMP)

$(TSTAMP): $(STAMP)
	$(call INSTALL,'.[test]')
	touch $(TSTAMP)

# Python keeps the package's and the tests' bytecode (__pycache__, git-ignored) even where the
# environment turns it off (PYTHONDONTWRITEBYTECODE=1, common in containers; Python reads an empty
# value as unset): otherwise every test worker and every command a test starts compiles the
# package's sources again, and pytest rewrites the asserts of every test module again in each
# worker (a collection: 11 s of CPU instead of 5 s; docs/performance.md).
KEEP_BYTECODE = PYTHONDONTWRITEBYTECODE=

demo: $(STAMP)
	$(KEEP_BYTECODE) $(BIN)/pirate-sim run scenarios/pirates_peak/default.toml -o $(DEMO) --force
	$(KEEP_BYTECODE) $(BIN)/pirate-sim report $(DEMO) -o $(DEMO)/report --force
	@echo "summary: $(DEMO)/summary.txt   report: $(DEMO)/report/report.pdf"

# PIRATE_SIM_TEST_WARM: compile every kernel in $(JOBS) processes first (tests/conftest.py)
test: lint
	$(KEEP_BYTECODE) PIRATE_SIM_TEST_WARM=$(JOBS) $(BIN)/python -m pytest --no-header -n $(JOBS) -m "slow or not slow" --durations=25

test-fast: $(TSTAMP)
	$(KEEP_BYTECODE) PIRATE_SIM_TEST_WARM=$(JOBS) $(BIN)/python -m pytest --no-header -n $(JOBS)

bench: $(STAMP)
	$(BIN)/pirate-sim bench

lint: $(TSTAMP)
	$(BIN)/ruff check pirate_sim tests docs

# numba's cache: one folder per digest of the sources under the user cache (pirate_sim/_cache.py;
# the package's kernels: one per digest of what each kernel module imports, under kernels/), so an
# edit never runs stale machine code and nothing needs wiping; clean-cache frees the disk.
# It also removes cache files an older layout left beside the sources (-delete would turn on
# -depth, which GNU find refuses to combine with -prune, so rm does the deleting).
NUMBA_CACHE = find . -path ./$(VENV) -prune -o -type f \( -name '*.nbi' -o -name '*.nbc' \)

clean-cache:
	@n=$$($(NUMBA_CACHE) -print | wc -l) && $(NUMBA_CACHE) -exec rm -f {} + && echo "removed $$n numba cache files"
	@if [ -x $(BIN)/python ]; then for d in $$($(BIN)/python -c "from pirate_sim import _cache; print(_cache.root() / 'numba', _cache.kernels_dir())"); do \
	  rm -rf "$$d" && echo "removed $$d"; done; fi

clean: clean-cache
	rm -rf $(VENV) .pytest_cache .hypothesis

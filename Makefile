# pirate-sim: every target creates the virtual environment first if it is missing.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp
DEMO    = reports/pirates_peak_default
JOBS   ?= 2

.PHONY: demo test test-fast bench lint clean-cache fresh-cache clean help

help:
	@echo "make demo         set up, run Pirate's Peak (1,000,000 games), summary + report under $(DEMO)"
	@echo "make test         set up, lint (ruff), run every test (default suite + slow statistical checks)"
	@echo "make test-fast    the default suite only (no slow statistical checks)"
	@echo "make bench        throughput of every game (games/s with and without the JIT)"
	@echo "make lint         ruff over the package and tests"
	@echo "make clean-cache  drop numba's compiled-function cache (after editing an imported kernel)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pirate-sim run scenarios/pirates_peak/default.toml -o $(DEMO) --force
	$(BIN)/pirate-sim report $(DEMO) -o $(DEMO)/report --force
	@echo "summary: $(DEMO)/summary.txt   report: $(DEMO)/report/report.pdf"

test: lint fresh-cache
	$(BIN)/python -m pytest --no-header -n $(JOBS) -m "slow or not slow"

test-fast: $(STAMP) fresh-cache
	$(BIN)/python -m pytest --no-header -n $(JOBS)

bench: $(STAMP)
	$(BIN)/pirate-sim bench

lint: $(STAMP)
	$(BIN)/ruff check pirate_sim tests docs

# numba's cache files outside the virtual environment (-delete would turn on -depth, which
# GNU find refuses to combine with -prune: it deleted nothing, so rm does the deleting)
NUMBA_CACHE = find . -path ./$(VENV) -prune -o -type f \( -name '*.nbi' -o -name '*.nbc' \)

clean-cache:
	@n=$$($(NUMBA_CACHE) -print | wc -l) && $(NUMBA_CACHE) -exec rm -f {} + && echo "removed $$n numba cache files"

# numba's cache checks only the edited function's own file, not the kernels it imports, so a
# long-lived checkout can run stale machine code after an edit. The tests first drop every
# cache when any numba-using source changed since the last run (fresh clones are unaffected).
CACHE_STAMP = .numba-sources-stamp
fresh-cache:
	@h=$$(grep -rl --include='*.py' numba pirate_sim tests | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16); \
	if [ "$$(cat $(CACHE_STAMP) 2>/dev/null)" != "$$h" ]; then \
	  n=$$($(NUMBA_CACHE) -print | wc -l); $(NUMBA_CACHE) -exec rm -f {} +; \
	  echo "$$h" > $(CACHE_STAMP); [ "$$n" = 0 ] || echo "numba sources changed: removed $$n cache files"; fi

clean: clean-cache
	rm -rf $(VENV) .pytest_cache .hypothesis $(CACHE_STAMP)

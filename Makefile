# pirate-sim: every target creates the virtual environment first if it is missing.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp
DEMO    = reports/pirates_peak_default
JOBS   ?= 2

.PHONY: demo test test-fast bench lint clean-cache clean help

help:
	@echo "make demo         set up, run Pirate's Peak (1,000,000 games), summary + report under $(DEMO)"
	@echo "make test         set up, run every test (default suite + slow statistical checks)"
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

test: $(STAMP)
	$(BIN)/python -m pytest --no-header -n $(JOBS) -m "slow or not slow"

test-fast: $(STAMP)
	$(BIN)/python -m pytest --no-header -n $(JOBS)

bench: $(STAMP)
	$(BIN)/pirate-sim bench

lint: $(STAMP)
	$(BIN)/python -m pip install --quiet ruff
	$(BIN)/ruff check pirate_sim tests

clean-cache:
	find . -path ./$(VENV) -prune -o -name '*.nbi' -print -delete -o -name '*.nbc' -print -delete | wc -l

clean: clean-cache
	rm -rf $(VENV) .pytest_cache .hypothesis

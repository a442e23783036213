# Two commands for a fresh machine:
#   make demo   set up .venv, install docparse, parse a bundled real PDF and its twin, print a summary
#   make test   set up .venv, install docparse with test extras, run ruff, mypy --strict and pytest
# Installs take the exact versions in $(LOCK) (ranges stay in pyproject.toml);
# `make lock` rewrites it from a fresh venv after a dependency change.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
EXTRAS := all,test,fuzz
# The CPU torch wheel goes in first, so unstructured[pdf] does not pull a CUDA build.
TORCH := torch==2.13.0
export DO_NOT_TRACK := 1

.PHONY: setup demo test lint typecheck unit explore fuzz bench lock clean

# Re-installs whenever pyproject.toml or the lock changes.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c $(LOCK) --upgrade pip
	$(BIN)/python -m pip install -q -c $(LOCK) "$(TORCH)"
	$(BIN)/python -m pip install -q -c $(LOCK) -e ".[$(EXTRAS)]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python -m docparse.demo

lint: setup
	$(BIN)/ruff check docparse align tests benchmarks
	$(BIN)/ruff format --check docparse align tests benchmarks

typecheck: setup
	$(BIN)/mypy

# Property tests run derandomized (the `ci` Hypothesis profile): the same
# examples on every machine and run; the header names the profile.
unit: setup
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest

test: lint typecheck unit

# Random exploration: every property test with EXPLORE_FACTOR x its own budget,
# then normalize's properties over NORMALIZE_EXAMPLES examples. A failure found
# here is fixed and pinned with @example.
EXPLORE_FACTOR ?= 10
NORMALIZE_EXAMPLES ?= 100000
explore: setup
	HYPOTHESIS_PROFILE=explore HYPOTHESIS_EXPLORE_FACTOR=$(EXPLORE_FACTOR) \
		$(BIN)/pytest -m "hypothesis and not slow" -p no:cacheprovider -q
	HYPOTHESIS_PROFILE=explore HYPOTHESIS_EXPLORE_EXAMPLES=$(NORMALIZE_EXAMPLES) \
		$(BIN)/pytest tests/align/test_normalize.py -k "idempotent or offset_map" \
		-p no:cacheprovider -q --hypothesis-show-statistics --timeout=0

fuzz: setup
	$(BIN)/python -m tests.fuzz.run --seconds $${FUZZ_SECONDS:-600}

# Every script in benchmarks/ with its table; BENCH_ARGS=--quick for a short run.
bench: setup
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

# Rewrite $(LOCK) from a fresh venv: what pyproject.toml resolves to today.
# The comment block at the top of the lock is kept.
LOCK_VENV := .venv-lock
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install -q --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install -q "$(TORCH)"
	$(LOCK_VENV)/bin/python -m pip install -q -e ".[$(EXTRAS)]"
	{ sed -n '/^#/!q;p' $(LOCK) 2>/dev/null; \
	  $(LOCK_VENV)/bin/python -m pip freeze --all --exclude-editable \
	  | grep -v -i '^docparse[=@ ]'; } > $(LOCK).new
	mv $(LOCK).new $(LOCK)
	rm -rf $(LOCK_VENV)
	@echo "wrote $(LOCK): $$(grep -c '==' $(LOCK)) pinned packages"

clean:
	rm -rf $(VENV) $(LOCK_VENV) .mypy_cache .ruff_cache .pytest_cache

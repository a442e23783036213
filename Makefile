# Two commands for a fresh machine:
#   make demo   set up .venv, install docparse, parse a bundled real PDF and its twin, print a summary
#   make test   set up .venv, install docparse with test extras, run ruff, mypy --strict and pytest
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DO_NOT_TRACK := 1

.PHONY: setup demo test lint typecheck unit fuzz bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# The CPU torch wheel first, so unstructured[pdf] does not pull a CUDA build.
	$(BIN)/python -m pip install -q "torch==2.13.0"
	$(BIN)/python -m pip install -q -e ".[all,test,fuzz]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python -m docparse.demo

lint: setup
	$(BIN)/ruff check docparse align tests benchmarks

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest

test: lint typecheck unit

fuzz: setup
	$(BIN)/python -m tests.fuzz.run --seconds $${FUZZ_SECONDS:-600}

bench: setup
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

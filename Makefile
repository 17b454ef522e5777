# The README's two commands are `make demo` and `make test`; both set up .venv first.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: setup test lint demo bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest -q

lint: setup
	$(VENV)/bin/ruff check .

demo: setup
	$(VENV)/bin/cardlab simulate ass --players 5 --games 200000 --seed 7

bench: setup
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .numba_cache *.egg-info

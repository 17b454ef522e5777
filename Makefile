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

# Every study on a small budget, then the HTML report in report/index.html (a few minutes on
# 2 cores). Bigger budgets: make demo SCALE=10
SCALE ?= 1
demo: setup
	$(VENV)/bin/cardlab study all --out runs/studies --scale $(SCALE) --report report

bench: setup
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .numba_cache *.egg-info

# The README's two commands are `make demo` and `make test`; both set up .venv first.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: setup bytecode test test-deep lint demo replicate bench bench-scaling clean-cache clean

# uv installs the same packages from PyPI as pip, in parallel: about 10 s instead of about 65 s
# on the 2-core machine (make demo and make test from a fresh clone start here). The venv is
# made without pip (ensurepip alone took about 8 s) and the system's pip puts uv into it
# (`pip --python`, pip 22.3 or later), then installs pip itself with the project (a wheel, so
# that .venv/bin/pip is there for the user); where that fails the venv gets its pip from
# ensurepip, and where uv cannot be had at all, pip does the same install.
# Where PYTHONDONTWRITEBYTECODE is set (as on the CI machine) every process, each test's and
# each worker's, would compile numba, pandas and matplotlib from source on import unless their
# .pyc files exist: scripts/write_bytecode.py imports what the project, its tests and scripts
# import, once, with the variable cleared, and compiles numba and pydantic whole (both import
# much of themselves lazily), which writes them for the about 2,000 modules cardlab uses,
# where uv's --compile-bytecode compiled all 6,500 installed ones, the packages' own tests
# included: setup from a fresh clone about 30 s instead of 47 s.

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	if $(PYTHON) -m pip --python $(PY) install -q uv \
	   || { $(PY) -m ensurepip --default-pip > /dev/null && $(PY) -m pip install -q uv; }; then \
	  $(VENV)/bin/uv pip install -q --python $(PY) pip -e '.[dev,openspiel]'; \
	else \
	  $(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q -e '.[dev,openspiel]'; \
	fi
	PYTHONDONTWRITEBYTECODE= $(PY) scripts/write_bytecode.py
	touch $@

# The project's own .pyc files, for the same reason (compileall writes them even under
# PYTHONDONTWRITEBYTECODE; unchanged files are skipped, an edited one is rewritten).
bytecode: $(VENV)/.installed
	$(PY) -m compileall -q -j 0 cardlab analyzer strategies reports scripts tests > /dev/null

setup: $(VENV)/.installed bytecode

# pytest-xdist: one test process per core (at most 8) after the conftest's side-by-side
# compile; TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 8 ] && n=8; echo $$n)

# The layers (import-linter contracts in pyproject.toml) are checked before the tests.
# pytest rewrites the test modules' asserts on import, in every test process, and keeps the
# result as .pyc files unless PYTHONDONTWRITEBYTECODE is set (as on the CI machine): there
# every run rewrote them again, about 5 s of CPU per test process (9.4 s -> 3.9 s to collect
# the suite once the files exist), so the variable is cleared for pytest.
test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -q -n $(TEST_WORKERS)

# The same suite with the sampling tests' full samples (tests/depth.py): the engines against
# their references on five times the games. Before a release, or after a change to an engine,
# a reference or a strategy.
test-deep: export CARDLAB_TEST_DEEP := 1
test-deep: test

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# Every study on a small budget, then the HTML report in report/index.html (a few minutes on
# 2 cores). Bigger budgets: make demo SCALE=10
SCALE ?= 1
demo: setup
	$(VENV)/bin/cardlab study all --out runs/studies --scale $(SCALE) --report report

# After `make demo`: the same suite at another seed, every claim compared; the report says
# for each claim whether it replicated (runs/replicate holds the rerun).
REPLICATE_SEED ?= 60013
replicate: setup
	$(VENV)/bin/cardlab study replicate --from runs/studies --seed $(REPLICATE_SEED) \
		--out runs/replicate --report report

# One core, both games, engine against the pure-Python reference (about two minutes).
bench: setup
	$(PY) scripts/bench.py

# Scaling 1 -> 2 workers, Dask overhead, memory of big runs (see the script's --help).
bench-scaling: setup
	$(PY) scripts/bench_scaling.py scaling

# The numba cache lives in .numba_cache/<hash of the kernels' sources> (analyzer/numba_env.py),
# so an edit to a kernel already gets freshly compiled code; this only frees the space.
clean-cache:
	rm -rf .numba_cache
	find analyzer strategies -name '*.nbi' -delete -o -name '*.nbc' -delete

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .numba_cache *.egg-info runs report

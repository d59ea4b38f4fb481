# croupier: every target creates the virtual environment itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint docs typecheck pytest bare bench clean native constraints

# Every package at the version constraints.txt pins (a bump there rebuilds the environment).
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# constraints.txt again from the newest releases pyproject.toml admits (a venv of its own under
# build/, its header kept): run on purpose, then `make test` and `make bench`.
CVENV := build/constraints-venv
constraints:
	rm -rf $(CVENV)
	$(PYTHON) -m venv $(CVENV)
	$(CVENV)/bin/python -m pip install --quiet --upgrade pip
	$(CVENV)/bin/python -m pip install --quiet -e '.[dev]'
	{ sed '/^[^#]/,$$d' constraints.txt; $(CVENV)/bin/python -m pip freeze --exclude-editable; } \
		> constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(CVENV)

# The round engine's hot modules compiled with Cython from their own .py files (croupier/_native.py
# says which and why; a module is imported from its build only while its source is unchanged).
# Incremental: a run with nothing changed compiles nothing; a clean checkout's build (31 modules at
# -O2: scripts/build_native.py says why) takes about 100 s of one core.
native: $(STAMP)
	$(BIN)/python scripts/build_native.py

run: native
	$(BIN)/croupier serve --demo-devices

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The documentation site (mkdocs.yml, docs/): strict, so a broken link, anchor or API reference
# fails; the site goes to build/site (gitignored).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir build/site

typecheck: $(STAMP)
	$(BIN)/mypy --strict

# Every process of the suite (the workers and the servers, launchers and command-line runs
# they start) imports croupier from this checkout: with PYTHONDONTWRITEBYTECODE set (some CI
# images set it) each one compiles every module again (a worker's collection: ~20 CPU-s, not ~9).
# Bytecode goes to __pycache__ (gitignored), as Python does by default.
unexport PYTHONDONTWRITEBYTECODE

# Three worker processes (pytest-xdist) on this 2-core machine: the live and browser tests spend
# much of their wall time waiting on servers and Chromium, and a third worker fills those waits
# (cold, clean clone, mypy beside: -n 2 434 s, -n 3 389 s, -n 4 450 s of pytest; on the machine of
# 2026-12-03, -n 3 362 s, -n 4 397 s). Each file's
# tests run in one worker (its module fixtures built once) but the groups of tests/work_units.py
# (tests sharing one exact solve), the heaviest units first (its order: --no-loadscope-reorder,
# else xdist hands out the units with the most tests first); every test is safe in parallel (own
# tmp paths, free ports, own PostgreSQL cluster). PYTEST_WORKERS overrides the count.
PYTEST_WORKERS ?= 3
pytest: native
	CROUPIER_NATIVE_REQUIRED=1 $(BIN)/pytest -q -W error -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# The bare install (no extras) in a fresh venv: builds the wheel, replays a scenario, checks a
# Rules Submission, and checks that a command of a missing extra refuses in one line (exit 2).
# Offline once its wheelhouse (~/.cache/croupier/bare-wheelhouse) holds the base requirements.
bare: $(STAMP)
	scripts/bare-install.sh $(BIN)/python

# mypy --strict runs beside pytest (one core for about a minute: a clean checkout has no mypy
# cache) so that no core idles while it runs, then the bare install; each prints its own result.
test: lint docs
	$(MAKE) --no-print-directory -j2 typecheck pytest bare

bench: native
	mkdir -p bench-results
	$(BIN)/python benchmarks/bench_eval.py --json bench-results/eval.json
	$(BIN)/python benchmarks/bench_par.py --json bench-results/par.json
	$(BIN)/python benchmarks/bench_par_cli.py --json bench-results/par-cli.json
	$(BIN)/python benchmarks/bench_solvers.py --json bench-results/solvers.json
	$(BIN)/python benchmarks/bench_solved.py --json bench-results/solved.json
	$(BIN)/python benchmarks/bench_mc.py
	$(BIN)/python benchmarks/bench_engine.py --json bench-results/engine.json
	$(BIN)/python benchmarks/bench_rng.py --json bench-results/rng.json
	$(BIN)/python benchmarks/bench_fuzz.py --messages 100000 --json bench-results/fuzz.json
	$(BIN)/python benchmarks/bench_chaos.py --kills 1000 --pg-kills 100 --parallel 4 --json bench-results/chaos.json
	$(BIN)/python benchmarks/bench_failover.py --kills 100 --minutes 40 --json bench-results/failover.json
	$(BIN)/python benchmarks/bench_meters.py --minutes 4 --json bench-results/meters.json
	$(BIN)/python benchmarks/bench_soak.py --minutes 30 --json bench-results/soak.json
	$(BIN)/python benchmarks/bench_floor.py --json bench-results/floor.json
	$(BIN)/python benchmarks/bench_protect.py --json bench-results/protect.json
	$(BIN)/python benchmarks/bench_server.py --json bench-results/server.json
	$(BIN)/python benchmarks/bench_server.py --carry events --json bench-results/server-events.json
	$(BIN)/python benchmarks/bench_server.py --table-streams none --backend sqlite --json bench-results/server-no-streams.json
	$(BIN)/python benchmarks/bench_locust.py --json bench-results/locust.json
	$(BIN)/python benchmarks/bench_locust.py --processes 2 --backend postgresql --tables 100 --seconds 60 --search-steps 0 --settle 5 --versus-one --json bench-results/locust-scale-100.json
	$(BIN)/python benchmarks/bench_locust.py --processes 2 --backend postgresql --tables 400 --seconds 60 --search-steps 0 --settle 5 --versus-one --json bench-results/locust-scale-400.json
	$(BIN)/python benchmarks/bench_pit.py --json bench-results/pit.json
	$(BIN)/python benchmarks/bench_command_floor.py --json bench-results/command-floor.json
	$(BIN)/python benchmarks/bench_carried_state.py --json bench-results/carried-state.json
	$(BIN)/python benchmarks/bench_sessions.py --json bench-results/sessions.json
	$(BIN)/python benchmarks/bench_proofs.py --json bench-results/proofs.json
	$(BIN)/python benchmarks/bench_oracle.py --json bench-results/oracle.json

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build src/croupier/_compiled

# Every target sets itself up. `make demo` needs python3 only: it installs the
# product (which includes its harness) into .venv. `make test` and the other
# test targets also install the test tools, Node packages (npm ci) and Debian's
# chromium (apt-get, as root or through sudo) when /usr/bin/chromium is missing.
# Each step prints one line; the tools' own output goes to reports/setup/*.log.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
TEST_STAMP := $(VENV)/.installed-test-stamp
CHROMIUM := /usr/bin/chromium
SETUP_LOGS := reports/setup
# `make demo` installs the product with both its extras (a variable: `call` splits at commas).
PRODUCT_EXTRAS := harness,postgres
# Python keeps the bytecode it compiles (in __pycache__, ignored by git) for every
# command these targets run, whatever the shell says: with PYTHONDONTWRITEBYTECODE set
# (these machines set it) each of the suite's ~380 Python processes compiled Beacon's
# modules and the test tools again, and each pytest worker rewrote every test module's
# asserts again (collection 17 s → 9 s of CPU a worker). An empty value is Python's "unset".
export PYTHONDONTWRITEBYTECODE :=
PYTEST_ARGS ?=
# The verdicts are the product's claim: every branch of them must be exercised.
COVERAGE_ARGS ?= --cov=beacon.adjudication --cov-branch --cov-report=term-missing:skip-covered \
	--cov-fail-under=100

.PHONY: setup setup-test chromium node postgresql demo test lint typecheck pytest sweep conformance mutation bench eval clean

# Runs a set-up command quietly: its output goes to a log, shown (the tail) only on failure.
# $(call quietly,LOG,COMMAND)
quietly = mkdir -p $(SETUP_LOGS); { $(2); } >>$(SETUP_LOGS)/$(1) 2>&1 || { \
	tail -n 30 $(SETUP_LOGS)/$(1) >&2; echo "set-up step failed; full log: $(SETUP_LOGS)/$(1)" >&2; exit 1; }

$(PY):
	@echo "setup: creating $(VENV) (python3 -m venv)"
	@python3 -m venv $(VENV)

# uv installs the packages (pip brings uv into the venv first): the same versions pip
# would choose, in ~10 s where pip took ~50 s of a fresh clone's `make test`.
UV := $(VENV)/bin/uv
UV_REQUIREMENT := uv>=0.13,<1
UV_INSTALL := $(UV) pip install --quiet --python $(PY)

$(UV): | $(PY)
	@$(call quietly,pip.log,$(PY) -m pip install --quiet --upgrade pip '$(UV_REQUIREMENT)')

$(STAMP): pyproject.toml | $(UV)
	@echo "setup: installing beacon and its dependencies into $(VENV) (uv, log: $(SETUP_LOGS)/pip.log)"
	@$(call quietly,pip.log,$(UV_INSTALL) -e '.[$(PRODUCT_EXTRAS)]')
	@touch $(STAMP)

$(TEST_STAMP): pyproject.toml $(STAMP)
	@echo "setup: installing the test tools (pytest, ruff, mypy, playwright, …) into $(VENV) (uv, log: $(SETUP_LOGS)/pip.log)"
	@$(call quietly,pip.log,$(UV_INSTALL) -e '.[test]')
	@touch $(TEST_STAMP)

# What `make demo` needs: the product, its stubs and its harness. No Node, no browser.
setup: $(STAMP)

# What the test targets need besides: the test tools, the conformance suite's Node
# packages, the browser suite's chromium and PostgreSQL's server programs (the suite
# starts and stops its own throwaway clusters; nothing is left running).
setup-test: $(TEST_STAMP) chromium node postgresql

# Outside MCP peers (the conformance suite) come from the committed lock file.
node:
	@if [ -f package.json ] && [ ! -d node_modules ]; then \
	  command -v npm >/dev/null || { echo "make test needs Node.js and npm (the MCP conformance suite)" >&2; exit 1; }; \
	  echo "setup: installing the conformance suite's Node packages (npm ci, log: $(SETUP_LOGS)/npm.log)"; \
	  $(call quietly,npm.log,npm ci --no-audit --no-fund --loglevel=error); \
	fi

# Installs Debian packages quietly, as root or through sudo, when MISSING (a shell test)
# holds; otherwise says what to install. $(call apt_install,MISSING,WHAT FOR,PACKAGES)
apt_install = if $(1); then \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else \
	    echo "$(2) needs Debian's $(3): run as root, or install it with" \
	      "'apt-get install --no-install-recommends $(3)'" >&2; exit 1; fi; \
	  echo "setup: installing Debian's $(3) for $(2) (apt-get, log: $(SETUP_LOGS)/apt.log)"; \
	  $(call quietly,apt.log,$$sudo apt-get update -qq && \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(3)); \
	fi

chromium:
	@$(call apt_install,[ ! -x $(CHROMIUM) ],the browser suite,chromium fonts-liberation fonts-dejavu-core)

# Debian's PostgreSQL server programs (initdb, pg_ctl, postgres) for the shared-store
# tests and benches. As root the clusters run as the `postgres` user the package creates.
postgresql:
	@$(call apt_install,! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1,the shared-store suite,postgresql)

demo: setup
	$(VENV)/bin/beacon demo

# The panel's vocabulary.js is generated from the Python source and checked in (a fresh
# clone needs no build step); a unit test fails when it is stale. This rewrites it.
.PHONY: vocabulary
vocabulary: $(STAMP)
	$(PY) -m beacon.server.vocabulary

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

typecheck: $(TEST_STAMP)
	$(VENV)/bin/mypy

# Three workers on two cores: with two, the cores sat idle for 30 % of the run (its
# workers wait on servers they started, subprocesses and PostgreSQL); a third worker
# fills most of it — on an idle 2-core machine, 9 min 30 s of pytest with two against
# 7 min 49 s with three (bench/README.md, "Suite time"). WORKERS=2 make test: the old way.
WORKERS ?= 3

# --durations=20: every run names its slowest tests (bench/README.md's suite-time table says
# why each is slow). pytest exits 5 when it collected no test: for us that is a broken suite,
# reported as such, never passed through as some other tool's exit code.
pytest: setup-test
	@mkdir -p reports; \
	$(PY) -m pytest -n $(WORKERS) --dist loadgroup --durations=20 --junitxml=reports/junit.xml $(COVERAGE_ARGS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: the suite is broken" >&2; exit 1; fi; \
	exit $$rc

# A fresh clone's set-up first, the Python packages beside the Node ones (npm ci is
# ~3.5 s; the Debian packages after them, one apt-get at a time). The type check and
# the contract sweep run beside the suite (a cold mypy is ~15 s of one core, the sweep
# ~5 s, and the suite leaves a sixth of the cores idle), each line printed whole
# (-Oline); a failure of any fails `make test`. After the suite: the executed-test
# check (the JUnit record must show every evidence test ran and passed) and the
# observe gate (exit 5 = stale sweep).
test:
	@$(MAKE) --no-print-directory -j2 $(TEST_STAMP) node
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory -j3 -Oline typecheck pytest sweep
	$(VENV)/bin/beacon check-executed --junit reports/junit.xml
	$(VENV)/bin/beacon gate observe --junit reports/junit.xml

sweep: $(TEST_STAMP)
	$(VENV)/bin/beacon sweep

# The MCP project's own conformance suite against the installed stub (~4 s).
conformance: setup-test
	$(PY) -m pytest -q -p no:cacheprovider suites/contract/test_conformance.py

# Mutation testing (not part of CI). First the transition tables (harness/table_mutation.py):
# every legal row's target of the frame FSM, the subset gate and the harness FSM is changed
# to each other state in turn, each legal cell of the panel's JS table once, and a table
# test must fail for every mutant (rows mutated / caught per table, ~3 min). Then mutmut
# over the verdicts and the PEP (beacon/adjudication, beacon/policy), judged by the unit
# tests derived from the package (harness/mutation_tests.py; `python -m harness.mutation_tests
# --write` rewrites pyproject's list): prints the kill rate and fails under 90 %.
mutation: setup-test
	$(PY) -m harness.table_mutation --all-targets --json reports/mutation/tables.json
	rm -rf mutants
	@# Its output (a spinner) goes to a log; a failed run shows the log's end, not just "Error 1".
	@$(VENV)/bin/mutmut run --max-children 2 >reports/mutation/mutmut.log 2>&1 || { \
		tail -n 25 reports/mutation/mutmut.log | tr '\r' '\n' | grep -v '^ *$$' | tail -n 25; \
		echo "mutation: mutmut failed (whole log: reports/mutation/mutmut.log)" >&2; exit 1; }
	@$(PY) -m harness.mutation_score --floor 90

# Benchmarks (SPEC §7), each on its own loopback stack (~1 min on 2 cores): figures are
# printed and written to reports/bench/<name>.json; a missed goal is reported, not failed.
bench: setup-test
	$(PY) -m bench --json-dir reports/bench

# The gold eval (223 questions, gold facts computed from the corpus) through the full
# stack: slots answered / total and grade correctness; the suite runs the same cases.
eval: setup-test
	$(PY) -m harness.eval_run

clean:
	rm -rf $(VENV) reports/junit.xml reports/screenshots $(SETUP_LOGS)

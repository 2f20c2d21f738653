# kiai: make report (main job), make test (tests), make bench (speed).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the extras installed: the tests, and training (PyTorch CPU; `kiai train` and its test). A variable,
# since a comma inside $(call ...) would split its arguments
EXTRAS := test,train

.PHONY: report test bench setup clean

# each stage prints how long it took; the first run's set-up and compile are the slow part
STAGE = t=$$(date +%s); echo "== $(1)"; $(2); echo "== $(firstword $(1)) done in $$(( $$(date +%s) - t )) s"

$(STAMP): pyproject.toml
	@set -e; $(call STAGE,set-up (virtualenv and install; once),\
	  test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); \
	  $(BIN)/python -m pip install --quiet --upgrade pip; \
	  $(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'; \
	  touch $(STAMP))

setup: $(STAMP)

# the default sweep (every level x 3-5 samurai x every line-up, plus every seating of every
# 4-samurai line-up at easy), the skill ladder's two sweeps, then the charts and pages in kiai-report/
report: $(STAMP)
	@set -e; t0=$$(date +%s); \
	$(call STAGE,sweep (the first run compiles the engine first),$(BIN)/kiai sweep --preset default --out kiai-report/results.parquet --csv --force); \
	$(call STAGE,skill ladder,$(BIN)/kiai sweep --preset ladder --out kiai-report/ladder.parquet --force); \
	$(call STAGE,skill ladder: planners,$(BIN)/kiai sweep --preset ladder-planners --out kiai-report/planners.parquet --force); \
	$(call STAGE,report,$(BIN)/kiai report kiai-report/results.parquet kiai-report/ladder.parquet kiai-report/planners.parquet --out kiai-report); \
	echo "== make report: sweep and report in $$(( $$(date +%s) - t0 )) s; open kiai-report/report.html"

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/kiai bench

clean:
	rm -rf $(VENV) kiai-report .pytest_cache

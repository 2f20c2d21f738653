# kiai: make report (main job), make test (tests), make bench (speed).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test bench setup clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# the default sweep (every level x 3-5 samurai x every line-up, plus every seating of every
# 4-samurai line-up at easy), then its charts and pages in kiai-report/
report: $(STAMP)
	$(BIN)/kiai sweep --preset default --out kiai-report/results.parquet --csv --force
	$(BIN)/kiai report kiai-report/results.parquet --out kiai-report

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/kiai bench

clean:
	rm -rf $(VENV) kiai-report .pytest_cache

# kiai: make report (main job), make test (tests), make bench (speed), make docs (generated outputs);
# make (or make help) lists the targets.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the extras installed: the tests, and training (PyTorch CPU; `kiai train learned` and its test). A variable,
# since a comma inside $(call ...) would split its arguments
EXTRAS := test,train
COMMA := ,

.PHONY: help report report-check test bench coverage reach docs setup clean verify-records
.DEFAULT_GOAL := help

# `make` alone: this list; it needs nothing installed
help:
	@echo "make report          set up, play the default sweeps, write the report to kiai-report/ (report.html);"
	@echo "                     WORKERS=N or SCHEDULER=tcp://host:8786 plays on Dask, PRECISION=0.01 narrows the headline"
	@echo "make report-check    open kiai-report/report.html in headless Chromium at 390, 1,400 and 1,920 px: overflow, images, errors"
	@echo "make test            set up, run the test suite"
	@echo "make bench           time the engine and its compilation (kiai bench)"
	@echo "make coverage        check that the report's intervals hold their promise over 200 seeds (minutes)"
	@echo "make reach           how far the solver reaches at Hard and Heroic, stored for the report (about an hour on 2 cores)"
	@echo "make docs            re-run the commands whose outputs README.md and docs/*.md show, speed tables too"
	@echo "make verify-records  record 20,016 games and replay them against the engine (kiai record, kiai replay)"
	@echo "make setup           create $(VENV)/ and install kiai with its extras (the other targets do it first)"
	@echo "make clean           remove $(VENV)/, kiai-report/, kiai-records/ and the test cache"
	@echo "make help            this list (also what make alone does)"

# each stage prints how long it took; the first run's set-up and compile are the slow part
STAGE = t=$$(date +%s); echo "== $(1)"; $(2); echo "== $(firstword $(1)) done in $$(( $$(date +%s) - t )) s"

# pip -e: the packages install under kiai (pyproject.toml), through an import hook that setuptools
# warns about at length; PYTHONWARNINGS=ignore keeps the set-up quiet
$(STAMP): pyproject.toml
	@set -e; $(call STAGE,set-up (virtualenv and install; once),\
	  test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); \
	  $(BIN)/python -m pip install --quiet --upgrade pip; \
	  PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'; \
	  touch $(STAMP))

setup: $(STAMP)

# first the compile stage (without SCHEDULER): the engine, every strategy the stages play and the
# solver, compiled on both cores from one queue (reports/playing/compile_stage.py; a second run finds
# them cached), then the default sweep (every level x 2-7 samurai x every line-up, every seating of every 4-samurai
# line-up at easy, the rule readings V-1..V-5 on a few line-ups, 2 samurai without absent tokens), the
# advice stage (every seating of the line-up the default sweep recommends per team size: its plan
# reads results.parquet, so it comes second), the agreement stage (every line-up of the default sweep
# played again by kiai's strongest player beside the default on the same deals: its plan reads
# results.parquet too), the skill ladder's two sweeps, the solve stage (Easy and Normal deals solved
# knowing every card, `kiai solve --bracket`: kiai-report/solved.parquet, kept per team size and level
# while the engine is the same), then the charts, tables and pages in kiai-report/. The first three are races (reports/playing/racing.py): each configuration plays as many
# games as the report's sentences need of it (docs/report.md says how many and why).
# --resume keeps the configurations a table already holds as played by this engine (same sources,
# model, component file and kiai version) and plays the rest: a second `make report` plays nothing
# again, one after an update replays what the update changed, one after a Ctrl-C finishes the job.
# A table of another grid (a preset changed by an update, or another recommended line-up) is
# refused: remove kiai-report/ first
# HOUSE=a.toml,b.toml: the House rules section also compares these component files with kiai's own,
# the rule readings' line-ups played under each (`kiai sweep --preset house`); by default the
# official file alone
# WORKERS=N: one local Dask cluster of N worker processes for the whole run
# (reports/playing/local_cluster.py), every stage playing on it (--scheduler); SCHEDULER=tcp://host:8786:
# a running cluster instead (docs/clusters.md). The tables are those of a run without a cluster.
# PRECISION=0.01: the default sweep and the agreement stage play until each headline cell's 95% interval
# is within +-0.01 (kiai sweep --headline; the report's own is 0.02)
WORKERS ?=
SCHEDULER ?=
PRECISION ?=
CLUSTER_ADDRESS := kiai-report/.cluster-address
HEADLINE = $(if $(PRECISION),--headline $(PRECISION))
HOUSE ?=
HOUSE_FILES = $(subst $(COMMA), ,$(HOUSE))
HOUSE_TABLE = kiai-report/house-$(basename $(notdir $(1))).parquet
report: $(STAMP)
	@set -e; t0=$$(date +%s); mkdir -p kiai-report; \
	if [ -n "$(WORKERS)" ] && [ -n "$(SCHEDULER)" ]; then echo "make report: give WORKERS or SCHEDULER, not both" >&2; exit 2; fi; \
	if [ -z "$(SCHEDULER)" ]; then $(call STAGE,compile (the engine$(COMMA) every strategy played and the solver$(COMMA) side by side; first run only),$(BIN)/python -m kiai.reports.playing.compile_stage); fi; \
	sched="$(SCHEDULER)"; \
	if [ -n "$(WORKERS)" ]; then \
	  rm -f $(CLUSTER_ADDRESS); \
	  $(BIN)/python -m kiai.reports.playing.local_cluster --workers $(WORKERS) --address-file $(CLUSTER_ADDRESS) & cpid=$$!; \
	  trap 'kill $$cpid 2>/dev/null; wait $$cpid 2>/dev/null' EXIT; \
	  while [ ! -s $(CLUSTER_ADDRESS) ]; do \
	    kill -0 $$cpid 2>/dev/null || { echo "make report: the local Dask cluster did not start" >&2; exit 1; }; sleep 0.5; done; \
	  sched=$$(cat $(CLUSTER_ADDRESS)); \
	fi; \
	on=$${sched:+--scheduler $$sched}; \
	$(call STAGE,sweep (every level$(COMMA) team size and line-up),$(BIN)/kiai sweep --preset default --out kiai-report/results.parquet --csv --resume $$on $(HEADLINE)); \
	$(call STAGE,advice (every seating of the line-up to pick$(COMMA) per team size),$(BIN)/kiai sweep --preset advice --from kiai-report/results.parquet --out kiai-report/advice.parquet --resume $$on); \
	$(call STAGE,agreement (every line-up replayed by kiai's strongest player beside the default),$(BIN)/kiai sweep --preset agreement --from kiai-report/results.parquet --out kiai-report/agreement.parquet --resume $$on $(HEADLINE)); \
	$(call STAGE,ladder (the skill ladder: reference$(COMMA) keeper$(COMMA) learned$(COMMA) selfplay),$(BIN)/kiai sweep --preset ladder --out kiai-report/ladder.parquet --resume $$on); \
	$(call STAGE,planners (the skill ladder: lookahead$(COMMA) judge and foresight),$(BIN)/kiai sweep --preset ladder-planners --out kiai-report/planners.parquet --resume $$on); \
	$(call STAGE,solve (how hard at best: Easy and Normal deals solved knowing every card),$(BIN)/kiai solve --bracket kiai-report/solved.parquet $$on); \
	$(foreach f,$(HOUSE_FILES),$(call STAGE,house ($(f)),$(BIN)/kiai sweep --preset house --components $(f) --out $(call HOUSE_TABLE,$(f)) --resume $$on);) \
	$(call STAGE,report,$(BIN)/kiai report kiai-report/results.parquet kiai-report/advice.parquet kiai-report/agreement.parquet kiai-report/ladder.parquet kiai-report/planners.parquet $(foreach f,$(HOUSE_FILES),$(call HOUSE_TABLE,$(f))) $(if $(HOUSE),--components $(HOUSE)) --out kiai-report); \
	echo "== make report: sweep and report in $$(( $$(date +%s) - t0 )) s; open kiai-report/report.html"

# the report as a browser shows it (tests/browser.py, Playwright driving the system's Chromium) at a
# phone's, a laptop's and a wide screen's width: no element wider than the page, every image loaded,
# no console error, no broken link; screenshots beside the page. Needs Chromium (apt-get install
# chromium); make setup installs Playwright (the test extra, through pytest-playwright)
report-check: $(STAMP)
	$(BIN)/python tests/browser.py kiai-report/report.html

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/kiai bench

# whether the report's intervals keep their promise: the default player's small study repeated over
# 200 seeds (reports/search/coverage.py, several minutes); the result is stored where the report's
# methods quote it from
coverage: $(STAMP)
	$(BIN)/python -m kiai.reports.search.coverage --seeds 200 --out reports/findings/coverage.json

# how far the solver reaches at Hard and Heroic, where make report's solve stage solves nothing: 100
# deals a team size at 2,000,000 nodes (reports/search/reach.py; the table in kiai-report/ is kept
# cell by cell, so a stopped run goes on); the result is stored where the report quotes it from
reach: $(STAMP)
	@mkdir -p kiai-report
	$(BIN)/python -m kiai.reports.search.reach --workers $$(nproc) --table kiai-report/reach.parquet --out reports/findings/reach.json

# the generated blocks of README.md and docs/*.md (docs/generate.py), the slow ones too (kiai bench's
# speed tables, a few minutes); tests/test_readme.py checks the others. Then the report's pictures
# the pages show, from the last make report
docs: $(STAMP)
	$(BIN)/python docs/generate.py --slow
	@if [ -f kiai-report/report.html ]; then $(BIN)/python docs/report_images.py && $(BIN)/python docs/report_tables.py; \
	else echo "make docs: no kiai-report/ (make report first) to take the README's report pictures from"; fi

# 20,016 games of the `random` strategy recorded and replayed (docs/records.md): 2 to 7 samurai x
# every level (834 games each), the rule readings taking turns so that each value of each is played
READINGS := "" "--rule heal=wounded" "--rule penalty=once" "--rule round-end=drawn" \
	"--rule end-kiai=on --rule second-fight=always" "--rule heal=wounded --rule penalty=once --rule round-end=drawn"
LINEUP := heihachi,daisuke,gorobei,kanbei,kyuzo,katsushiro,kikuchiyo
verify-records: $(STAMP)
	@set -e; rm -rf kiai-records; mkdir kiai-records; k=0; rot=$(LINEUP); \
	for n in 2 3 4 5 6 7; do for level in easy normal hard heroic; do \
	  set -- $(READINGS); shift $$(( k % 6 )); rules=$$1; k=$$((k + 1)); rot="$${rot#*,},$${rot%%,*}"; \
	  $(BIN)/kiai record -n 834 --strategy random -s $$(echo $$rot | cut -d, -f1-$$n) -d $$level --seed $$k \
	    $$rules --out kiai-records/$$n-$$level.jsonl.gz; \
	done; done; \
	$(BIN)/kiai replay kiai-records/*.jsonl.gz

clean:
	rm -rf $(VENV) kiai-report kiai-records .pytest_cache

"""make report's compile stage (reports.playing.compile_stage): every piece the report plays, from
one queue taken by two processes (strategies.run.warm: compile_all, warm_all)."""

import pytest

from kiai.reports.playing import compile_stage
from kiai.strategies.run import compiling, warm
from kiai.strategies.run.config import GameConfig


def test_the_queue_hands_out_the_engine_then_what_the_plans_build_on_then_the_plans(monkeypatch):
    monkeypatch.setattr(compiling, "in_cache", lambda dispatcher: False)
    todo = warm.queue(compile_stage.report_configs(), solver=True)
    assert todo[0] == warm.ENGINE and todo[-1] == warm.SOLVER
    plans = [i for i, p in enumerate(todo) if p.startswith("plan=")]
    assert {todo[i] for i in plans} == {"plan=judge", "plan=lookahead", "plan=foresight"}
    for base in ("decide=keeper", "decide=learned", "decide=counter"):  # the planners' bases, before any plan
        assert todo.index(base) < min(plans)
    for other in ("decide=selfplay", "decide=reference"):  # no plan builds on them: after the plans
        assert todo.index(other) > max(plans)
    assert len(todo) == len(set(todo))
    assert warm.SOLVER not in warm.queue(compile_stage.report_configs())


def test_nothing_is_compiled_or_started_when_the_cache_holds_everything(monkeypatch):
    monkeypatch.setattr(compiling, "in_cache", lambda dispatcher: True)
    monkeypatch.setattr("multiprocessing.get_context", lambda *a: pytest.fail("a process was started"))
    assert warm.compile_all(compile_stage.report_configs(), solver=True) == []
    notes = []
    warm.warm_all(compile_stage.report_configs(), solver=True, note=notes.append)
    assert notes == ["the engine and every strategy played are in the cache already"]


def test_a_piece_that_fails_is_named_in_one_line_and_left_to_the_run_that_plays_it(monkeypatch):
    config = GameConfig(("kyuzo", "kikuchiyo"), "easy", "reference", {})
    said = warm._compile_piece("decide=nosuch", config)
    assert said.startswith("decide=nosuch: KeyError") and "\n" not in said
    monkeypatch.setattr(warm, "queue", lambda configs, solver=False: ["engine", "decide=nosuch"])
    monkeypatch.setattr(warm, "compile_all", lambda configs, solver=False: [said])
    notes = []
    warm.warm_all([config], note=notes.append)
    assert warm._in_words(["engine", "decide=keeper", "plan=keeper", "plan=judge", "solver"]) == \
        "the engine, strategies keeper, judge and the solver"
    assert warm._in_words(["decide=keeper"]) == "strategy keeper"
    assert notes[-2].startswith("compiled 1 of 2 pieces in ")
    assert notes[-1] == f"not compiled here (the run that plays it compiles it): {said}"


def test_the_report_compiles_every_strategy_its_stages_play():
    from kiai.reports.playing.presets import DEFAULT_STRATEGY, LADDER_STRATEGIES, PLANNER_STRATEGIES
    from kiai.strategies.registry import strongest

    played = {(c.strategy, tuple(sorted(c.params.items()))) for c in compile_stage.report_configs()}
    for name in (DEFAULT_STRATEGY, *LADDER_STRATEGIES, *PLANNER_STRATEGIES):
        assert (name, ()) in played
    for n in range(2, 8):
        name, params = strongest(n, "easy")
        assert (name, tuple(sorted(params.items()))) in played


def test_the_stage_takes_no_arguments(capsys):
    assert compile_stage.main(["--fast"]) == 2
    assert capsys.readouterr().err.strip() == "compile_stage: takes no arguments"


def test_make_report_compiles_first():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\nreport:"):]
    assert recipe.index("kiai.reports.playing.compile_stage") < recipe.index("--preset default")

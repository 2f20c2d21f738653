"""`kiai sweep`: the table, resuming, atomic writes, seatings, --precision and Dask."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pandas as pd
import pytest
from pandas.api import types as ptypes

from kiai.cli.main import main
from kiai.reports.playing import play as P
from kiai.reports.playing import stopping
from kiai.reports.playing import grid as G
from kiai.reports.playing import sweep as S
from kiai.reports.playing import tables as T
from kiai.reports.findings.views import load_results
from kiai.simcore.seatings import canonical_seating, lineup_key, seating_key
from kiai.simcore.stats import proportion_ci
from kiai.reports.playing.summary import Tally
from kiai.simcore import results as L
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

# 2 levels x 2 sampled 3-samurai line-ups x 2 seatings each = 8 configurations
GRID = ["--strategy", "reference", "-d", "easy,normal", "--players", "3", "--lineups", "sample:2", "--seatings", "all",
        "--games", "2000", "--seed", "5"]  # fmt: skip


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The reference sweep, run once for the module (no capsys in a module fixture)."""
    path = tmp_path_factory.mktemp("sweep") / "grid.parquet"
    assert main(["sweep", "--out", str(path), "--csv", *GRID]) == 0
    return path


REAL_PLAY_BLOCK = P.play_block


class Counter:
    """Stands in for reports.playing.play.play_block and records which blocks were played."""

    def __init__(self, monkeypatch, stop_at_config: int | None = None):
        self.calls: list[tuple[str, str, int, int]] = []
        self.configs: list[tuple[str, str]] = []
        self.stop_at = stop_at_config
        monkeypatch.setattr(P, "play_block", self)

    def __call__(self, config, seed, offset, count):
        ident = (config.difficulty, ",".join(config.samurai))
        if ident not in self.configs:
            if self.stop_at is not None and len(self.configs) == self.stop_at:
                raise KeyboardInterrupt  # the sweep is killed while starting this configuration
            self.configs.append(ident)
        self.calls.append((*ident, offset, count))
        return REAL_PLAY_BLOCK(config, seed, offset, count)


# ------------------------------------------------------------------------ the table


def test_table_has_the_report_schema(table):
    df = pd.read_parquet(table)
    assert list(df.columns) == list(T.COLUMNS)
    assert len(df) == 8
    for col, dtype in T.COLUMNS.items():
        check = {"str": ptypes.is_string_dtype, "int64": ptypes.is_integer_dtype,
                 "float64": ptypes.is_float_dtype, "bool": ptypes.is_bool_dtype}[dtype]  # fmt: skip
        assert check(df[col]), (col, df[col].dtype)
    assert (df["games"] == 2000).all()
    # each seating meets deals of its own, drawn from --seed 5 and the seating (racing.seating_key)
    from kiai.reports.playing.racing import deal_seed

    assert df["seed"].tolist() == [deal_seed(5, s) for s in df["seating"]] and df["seating"].nunique() == 4
    assert (df[[f"out_{c}" for c in ("win", "death", "farmsteads", "families")]].sum(axis=1) == df["games"]).all()
    assert (df[[f"lost_round_{r}" for r in (1, 2, 3)]].sum(axis=1) == df["games"] - df["wins"]).all()
    assert (df[[f"score_{s}" for s in range(11)]].sum(axis=1) == df["wins"]).all()
    assert (df["out_win"] == df["wins"]).all() and np.allclose(df["win_rate"], df["wins"] / df["games"])
    assert ((df["ci_low"] <= df["win_rate"]) & (df["win_rate"] <= df["ci_high"])).all()
    assert df["lineup"].map(lineup_key).eq(df["lineup"]).all()
    assert (df.groupby(["difficulty", "lineup"]).size() == 2).all()
    assert df["params"].map(json.loads).eq({"T": 3}).all()
    assert df["strategy"].eq("reference").all() and df["honest"].all() and not df["absent_tokens"].any()
    assert df["wins"].sum() > 0  # easy is won now and then: the checks above are not vacuous


def test_rows_agree_with_kiai_simulate(table, capsys):
    df = pd.read_parquet(table)
    for i in (0, 5):
        row = df.iloc[i]
        code, out, _ = run(capsys, "simulate", "-s", row["seating"], "-d", row["difficulty"], "-n", 2000,
                           "--seed", int(row["seed"]), "--json", "--strategy", "reference")  # fmt: skip
        assert code == 0
        s = json.loads(out)
        assert row["wins"] == s["wins"] and row["games"] == s["games"]
        assert [row["ci_low"], row["ci_high"]] == s["ci95"] and row["ci_method"] == s["ci_method"]
        assert {k: row[f"out_{k}"] for k in s["outcomes"]} == s["outcomes"]
        assert {r: row[f"lost_round_{r}"] for r in s["lost_in_round"]} == s["lost_in_round"]
        for key in ("mean_barricades_left", "mean_farmsteads_left", "mean_families_left", "mean_wound_steps",
                    "kiai_activations_per_game", "cards_confronted_per_game", "cards_defended_per_game",
                    "stalled_games", "components_sha256", "kiai_version"):  # fmt: skip
            assert row[key] == s[key], key
        assert {str(k): row[f"score_{k}"] for k in range(11) if row[f"score_{k}"]} == s["scores"]


def test_csv_and_parquet_round_trip(table):
    parquet = load_results(table)
    csv = load_results(table.with_suffix(".csv"))
    assert list(csv.columns) == list(parquet.columns)
    pd.testing.assert_frame_equal(csv.astype(T.COLUMNS), parquet, check_exact=False, rtol=1e-12)
    frame, keys, info = T.read_table(table)
    pd.testing.assert_frame_equal(frame, parquet)
    assert len(keys) == 8 and len(set(keys)) == 8 and info["seed"] == 5
    assert "kiai sweep" in info["command"]


def test_existing_output_needs_resume_or_force(table, capsys):
    code, out, err = run(capsys, "sweep", "--out", table, *GRID)
    assert code == 2 and out == "" and "--resume" in err and "--force" in err


# ------------------------------------------------------------------------- resuming


def test_resume_after_a_kill_replays_nothing_finished(table, tmp_path, monkeypatch, capsys):
    path = tmp_path / "killed.parquet"
    killer = Counter(monkeypatch, stop_at_config=3)
    code, _, err = run(capsys, "sweep", "--out", path, "--csv", *GRID, "--threads", "2")
    assert code == 130 and "--resume" in err
    # a readable table of those that finished before the kill: the first three started, and on two
    # threads the local backend plays two blocks at once, so one of them may have been cut off
    partial, keys, _ = T.read_table(path)
    two = P.LocalBackend(threads=min(2, os.cpu_count() or 1)).threads > 1
    assert len(partial) == len(keys) and len(partial) in ((2, 3) if two else (3,))
    assert len(pd.read_csv(path.with_suffix(".csv"))) == len(partial)  # the CSV is written on the way out
    finished = set(zip(partial["difficulty"], partial["seating"]))
    assert finished <= set(killer.configs)

    again = Counter(monkeypatch)
    code, out, _ = run(capsys, "sweep", "--out", path, "--resume", *GRID)
    assert code == 0 and f"{8 - len(partial)} played, {len(partial)} resumed" in out
    assert len(again.configs) == 8 - len(partial) and not finished & set(again.configs)
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(table))

    # a finished sweep resumed plays nothing
    idle = Counter(monkeypatch)
    assert run(capsys, "sweep", "--out", path, "--resume", *GRID)[0] == 0
    assert idle.calls == []


def test_resume_refuses_another_sweeps_results(table, tmp_path, capsys):
    path = tmp_path / "other.parquet"
    path.write_bytes(table.read_bytes())
    other = [a if a != "2000" else "1000" for a in GRID]  # same grid, other number of games
    code, out, err = run(capsys, "sweep", "--out", path, "--resume", *other)
    assert code == 2 and out == "" and "not part of this sweep" in err
    assert run(capsys, "sweep", "--out", path, "--force", *other)[0] == 0
    assert (pd.read_parquet(path)["games"] == 1000).all()


def _rewrite(path, change):
    """Rewrite the sweep table at path with change(frame) applied, its metadata (the row keys) kept."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    old = pq.read_table(path)
    df = change(old.to_pandas())
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(old.schema.metadata), path)


def test_every_row_records_the_engine_that_played_it(table):
    from kiai.simcore.sources import source_hash

    df = pd.read_parquet(table)
    assert (df["engine"] == source_hash()).all() and len(source_hash()) == 16


def test_resume_reuses_what_this_engine_played(table, tmp_path, monkeypatch, capsys):
    path = tmp_path / "again.parquet"
    path.write_bytes(table.read_bytes())
    idle = Counter(monkeypatch)
    code, out, err = run(capsys, "sweep", "--out", path, "--resume", *GRID)
    assert code == 0 and idle.calls == [] and "0 played, 8 resumed" in out
    assert "resume: 8 of 8 configurations reused" in err and "played again" not in err
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(table))


def test_resume_plays_again_what_another_engine_played(table, tmp_path, monkeypatch, capsys):
    path = tmp_path / "stale.parquet"
    path.write_bytes(table.read_bytes())
    stale = pd.read_parquet(table).iloc[[1, 4, 6]]
    _rewrite(path, lambda df: df.assign(engine=df["engine"].where(~df.index.isin(stale.index), "0" * 16)))
    again = Counter(monkeypatch)
    code, out, err = run(capsys, "sweep", "--out", path, "--resume", *GRID)
    assert code == 0 and "3 played, 5 resumed" in out
    assert "resume: 5 of 8 configurations reused; 3 played again (engine changed)" in err
    assert set(again.configs) == set(zip(stale["difficulty"], stale["seating"]))
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(table))  # the same games, played again


def test_resume_after_an_engine_update_plays_everything_again(table, tmp_path, monkeypatch, capsys):
    path = tmp_path / "update.parquet"
    path.write_bytes(table.read_bytes())
    for module in (S, T):  # the key's engine (sweep) and the row's (tables)
        monkeypatch.setattr(module, "engine_hash", lambda: "feedfacefeedface")  # the sources changed since
    again = Counter(monkeypatch)
    code, out, err = run(capsys, "sweep", "--out", path, "--resume", *GRID)
    assert code == 0 and len(again.configs) == 8 and "8 played, 0 resumed" in out
    assert "resume: 0 of 8 configurations reused; 8 played again (engine changed)" in err
    df = pd.read_parquet(path)
    assert (df["engine"] == "feedfacefeedface").all()
    pd.testing.assert_frame_equal(df.drop(columns="engine"), pd.read_parquet(table).drop(columns="engine"))


@pytest.mark.parametrize("column, unknown, why", [("engine", "UNKNOWN_ENGINE", "engine not recorded"),
                                                  ("models", "UNKNOWN_MODELS", "models not recorded")])
def test_resume_plays_again_a_table_older_than_a_provenance_column(table, tmp_path, monkeypatch, capsys, column,
                                                                   unknown, why):
    path = tmp_path / "old.parquet"
    path.write_bytes(table.read_bytes())
    _rewrite(path, lambda df: df.drop(columns=column))
    frame, _, _ = T.read_table(path)  # still read, the column filled in as unknown
    assert list(frame.columns) == list(T.COLUMNS) and (frame[column] == getattr(T, unknown)).all()
    again = Counter(monkeypatch)
    code, out, err = run(capsys, "sweep", "--out", path, "--resume", *GRID)
    assert code == 0 and len(again.configs) == 8 and f"8 played again ({why})" in err
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(table))


def test_resume_plays_again_what_another_component_file_played(tmp_path, monkeypatch, capsys):
    from kiai.simcore.components import default_components_path

    comp = tmp_path / "components.toml"
    comp.write_text(default_components_path().read_text() + "\n# the same components, another file\n")
    path = tmp_path / "comp.parquet"
    small = ["--strategy", "reference", "-d", "easy", "--lineup", "kyuzo,heihachi,daisuke", "--games", 100]
    assert run(capsys, "sweep", "--out", path, *small)[0] == 0
    again = Counter(monkeypatch)
    code, _, err = run(capsys, "sweep", "--out", path, "--resume", "--components", comp, *small)
    assert code == 0 and len(again.configs) == 1
    assert "0 of 1 configuration reused; 1 played again (component file changed)" in err


def test_resume_plays_again_what_another_base_model_played(tmp_path, monkeypatch, capsys):
    """selfplay over learned's answers (base 1) reads learned's shipped model beside its own value:
    learned's model changed is another player, and --resume plays its rows again; every row names
    each model that played (the `models` column)."""
    from kiai.strategies.nets import modelfile as M

    path = tmp_path / "base.parquet"
    small = ["--strategy", "selfplay", "--param", "base=1", "-d", "easy", "--lineup", "kyuzo,heihachi,daisuke",
             "--games", 20]
    assert run(capsys, "sweep", "--out", path, *small)[0] == 0
    shipped = M.load(None, M.LEARNED)
    other = tmp_path / "learned.npz"  # learned retrained: the same networks, another file
    M.save(other, shipped.arrays, {**shipped.header, "date": "another day"}, M.LEARNED)
    real = M.shipped_path
    monkeypatch.setattr(M, "shipped_path", lambda kind: other if kind is M.LEARNED else real(kind))
    again = Counter(monkeypatch)
    code, _, err = run(capsys, "sweep", "--out", path, "--resume", *small)
    assert code == 0 and len(again.configs) == 1
    assert "0 of 1 configuration reused; 1 played again (base model changed)" in err
    models = T.models_of(pd.read_parquet(path).loc[0, "models"])
    assert models["base"] == M.load(other, M.LEARNED).sha256 != shipped.sha256 and set(models) == {"model", "base"}
    again = Counter(monkeypatch)
    code, _, err = run(capsys, "sweep", "--out", path, "--resume", *small)  # the same models: nothing to play
    assert code == 0 and again.configs == [] and "1 of 1 configuration reused" in err


def test_the_manual_names_every_column_of_the_table():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text()
    table = " ".join(text[text.index("The table (Parquet;"):].split("\n\n")[0].split())
    named = {c for c in T.COLUMNS if f"`{c}`" in table}
    grouped = {c for c in T.COLUMNS if c.startswith(("out_", "lost_round_", "score_", "mean_"))}  # named by pattern
    assert set(T.COLUMNS) - named - grouped == set()


def test_resume_with_no_table_yet_plays_everything(tmp_path, capsys):
    """`make report` runs its sweeps with --resume, the first time too, when no table exists."""
    from pathlib import Path

    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    report = makefile[makefile.index("\nreport:"):makefile.index("\ntest:")]
    sweeps = [line for line in report.splitlines() if "kiai sweep" in line]
    assert len(sweeps) == 6 and all("--resume" in s and "--force" not in s for s in sweeps)

    path = tmp_path / "first.parquet"
    small = ["--strategy", "reference", "-d", "easy", "--lineup", "kyuzo,heihachi,daisuke", "--games", 100]
    code, out, err = run(capsys, "sweep", "--out", path, "--csv", "--resume", *small)
    assert code == 0 and "1 played, 0 resumed" in out and "resume:" not in err
    assert len(pd.read_parquet(path)) == 1 and len(pd.read_csv(path.with_suffix(".csv"))) == 1


# --------------------------------------------------------------------- atomic writes


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path):
    path = tmp_path / "t.parquet"
    path.write_bytes(b"old table")

    def half_then_crash(tmp):
        tmp.write_bytes(b"half a tab")
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        T.atomic_write(path, half_then_crash)
    assert path.read_bytes() == b"old table"
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]  # no temporary left behind

    T.atomic_write(path, lambda tmp: tmp.write_bytes(b"new table"))
    assert path.read_bytes() == b"new table"
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]


def test_interrupted_table_write_keeps_the_previous_table(table, tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    path = tmp_path / "t.parquet"
    path.write_bytes(table.read_bytes())
    df, keys, _ = T.read_table(path)
    real = pq.write_table

    def crash(tbl, where, **kw):
        real(tbl.slice(0, 1), where, **kw)  # something on disk, then the process "dies"
        raise KeyboardInterrupt

    monkeypatch.setattr(pq, "write_table", crash)
    with pytest.raises(KeyboardInterrupt):
        T.write_table(df.iloc[:2], path, keys[:2])
    monkeypatch.undo()
    back, back_keys, _ = T.read_table(path)
    pd.testing.assert_frame_equal(back, df)
    assert back_keys == keys and len(list(tmp_path.iterdir())) == 1


# --------------------------------------------------------------------------- seatings


@pytest.mark.parametrize("n", [3, 4, 5])
def test_all_seatings_are_the_distinct_ones(n):
    lineups = G.expand_lineups([n], "all", None, 0)[:3]
    seatings = G.expand_seatings(lineups, "all")
    assert len(seatings) == 3 * math.factorial(n - 1)
    for lineup in lineups:
        mine = [s for s in seatings if lineup_key(s) == lineup_key(lineup)]
        assert len(mine) == math.factorial(n - 1)
        assert len({seating_key(s) for s in mine}) == len(mine)  # no two are rotations
        for s in mine:  # the mirror image is a different seating, and is listed
            assert canonical_seating(s[::-1]) in mine and canonical_seating(s[::-1]) != s
    assert G.expand_seatings(lineups, "given") == [tuple(x) for x in lineups]


def test_cli_plays_every_seating_of_a_given_lineup(tmp_path, capsys):
    path = tmp_path / "seatings.parquet"
    code, _, _ = run(capsys, "sweep", "--out", path, "--lineup", "kyuzo,heihachi,daisuke,gorobei",
                     "--lineup", "kanbei,kyuzo,katsushiro", "--seatings", "all", "--games", 300)  # fmt: skip
    assert code == 0
    df = pd.read_parquet(path)
    assert len(df) == 6 + 2
    assert df.groupby("lineup").size().to_dict() == {"heihachi,daisuke,gorobei,kyuzo": 6,
                                                     "kanbei,kyuzo,katsushiro": 2}  # fmt: skip
    assert df["seating"].map(seating_key).nunique() == 8


def test_given_lineups_keep_their_seat_order(tmp_path, capsys):
    path = tmp_path / "given.parquet"
    assert run(capsys, "sweep", "--out", path, "--lineup", "kyuzo,heihachi,daisuke", "--games", 200)[0] == 0
    row = pd.read_parquet(path).iloc[0]
    assert row["seating"] == "kyuzo,heihachi,daisuke" and row["lineup"] == "heihachi,daisuke,kyuzo"


# -------------------------------------------------------------------------- precision


def test_precision_stops_at_the_first_batch_precise_enough(monkeypatch):
    """Every fourth game won (rate 0.25): the Wilson half-width 1.96 sqrt(0.25 0.75 / N) is
    0.0134 at N = 4,000 and 0.0095 at N = 8,000, so H = 0.01 stops at 8,000."""
    played = []

    def quarter(config, seed, offset, count, on_games=None):
        played.append((offset, count))
        rows = np.ones((count, L.N_OUT), dtype=np.int32)
        rows[(np.arange(offset, offset + count) % 4) == 0, L.O_OUTCOME] = 0
        return Tally.of(rows)

    monkeypatch.setattr(P, "play_range", quarter)
    from kiai.strategies.run.config import GameConfig

    rows = S.run_plan([(0, GameConfig(("heihachi", "kyuzo", "daisuke")))], 1, G.Request(precision=0.01),
                      P.LocalBackend(), block=3000)  # fmt: skip
    assert rows[0]["games"] == 8000 and rows[0]["wins"] == 2000
    assert stopping.half_width(2000, 8000) <= 0.01 < stopping.half_width(1000, 4000)
    # batches 1,000 + 1,000 + 2,000 + 4,000, cut into blocks of at most 3,000, each index once
    assert sorted(played) == [(0, 1000), (1000, 1000), (2000, 2000), (4000, 3000), (7000, 1000)]


def test_precision_on_the_engine_matches_a_direct_count(tmp_path, capsys):
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import run_games

    seating, level, h = ("heihachi", "daisuke", "gorobei"), "normal", 0.004
    def half_width(k, n):
        lo, hi, _ = proportion_ci(k, n)
        return (hi - lo) / 2

    # keeper, not the default strategy: the rule under test must not hang on the shipped model
    from kiai.reports.playing.racing import deal_seed

    # the sweep's seating plays the deals of its own seed (racing.seating_key)
    wins = np.cumsum(run_games(GameConfig(seating, level, "keeper"), 32_000, deal_seed(3, ",".join(seating)))[:, L.O_OUTCOME] == 0)
    expected = next(n for n in (1000, 2000, 4000, 8000, 16000, 32000) if half_width(int(wins[n - 1]), n) <= h)
    assert expected > 1000  # the stopping rule has work to do here
    path = tmp_path / "p.parquet"
    code, _, _ = run(capsys, "sweep", "--out", path, "--lineup", ",".join(seating), "-d", level,
                     "--strategy", "keeper", "--precision", h, "--seed", 3)  # fmt: skip
    assert code == 0
    row = pd.read_parquet(path).iloc[0]
    assert row["games"] == expected and row["wins"] == wins[expected - 1]

    capped = tmp_path / "capped.parquet"
    assert run(capsys, "sweep", "--out", capped, "--lineup", ",".join(seating), "-d", level,
               "--strategy", "keeper", "--precision", 0.0001, "--max-games", 3000, "--seed", 3)[0] == 0  # fmt: skip
    assert pd.read_parquet(capped).iloc[0]["games"] == 3000


# -------------------------------------------------------------------------------- Dask


def test_dask_cluster_gives_the_same_table(tmp_path):
    from kiai.reports.playing.cluster import DaskBackend
    from kiai.reports.playing.presets import merge_plans

    def plan():
        lineups = G.expand_lineups([3, 4], "sample", 1, 2)
        return merge_plans(G.build_plan(["easy", "hard"], G.expand_seatings(lineups, "all"),
                                        G.strategy_variants(["reference"], {})))  # fmt: skip

    for request in (G.Request(games=2500), G.Request(precision=0.01, start=500, max_games=4000)):
        local = S.Sweep(plan(), 11, request, tmp_path / "local.parquet", force=True).run(P.LocalBackend(), block=700)
        with DaskBackend.local(2, 1, plan()[0], processes=False) as backend:
            assert len(backend.threads) == 2 and set(backend.threads.values()) == {1}
            dask = S.Sweep(plan(), 11, request, tmp_path / "dask.parquet", force=True).run(backend, block=700)
        assert len(local) == 2 * (2 + 6)
        pd.testing.assert_frame_equal(dask, local)
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dask.parquet"), local)


def test_cli_workers_and_scheduler_match_a_local_run(tmp_path, capsys):
    from distributed import LocalCluster

    args = ["--lineup", "heihachi,daisuke,kyuzo", "--seatings", "all", "-d", "easy,normal", "--games", 1500,
            "--block", 400, "--seed", 8]  # fmt: skip
    assert run(capsys, "sweep", "--out", tmp_path / "local.parquet", *args)[0] == 0
    local = pd.read_parquet(tmp_path / "local.parquet")
    code, out, _ = run(capsys, "sweep", "--out", tmp_path / "workers.parquet", "--workers", 2, *args)
    assert code == 0 and "Dask worker" in out
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "workers.parquet"), local)
    # a running scheduler with two in-process workers of two threads each
    with LocalCluster(n_workers=2, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        code, out, _ = run(capsys, "sweep", "--out", tmp_path / "sched.parquet", "--scheduler",
                           cluster.scheduler_address, *args)  # fmt: skip
    assert code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "sched.parquet"), local)


# -------------------------------------------------------------------- presets, bad input


def test_default_preset_plan():
    from kiai.reports.playing import presets

    plan = presets.default_plan()
    # every line-up of 2 to 7 at every level, the other seatings of the 4-samurai ones at easy, the five
    # readings on two line-ups per team size (one of 7) at easy and normal, 2 samurai without absent tokens
    assert len(plan) == 4 * (21 + 35 + 35 + 21 + 7 + 1) + 35 * (6 - 1) + 2 * 5 * (5 * 2 + 1) + 4 * 21
    assert len({T.identity_key(c) for c in plan}) == len(plan)
    assert {c.strategy for c in plan} == {presets.DEFAULT_STRATEGY}
    seat = [c for c in plan if c.difficulty == presets.SEATINGS_LEVEL and c.n == 4 and T.rules_label(c) == "default"]
    assert len(seat) == 35 * 6
    assert presets.DEFAULT_GAMES * len(plan) <= 12_000_000  # stays a few minutes on 2 cores


BAD = [
    ([], "--out is required"),
    (["--out", "t.csv"], ".parquet"),
    (["--games", "0"], "at least 1"),
    (["--games", "5", "--precision", "0.01"], "exclude"),
    (["--precision", "0"], "--precision"),
    (["--precision", "0.7"], "--precision"),
    (["--max-games", "100"], "--precision"),
    (["-d", "nightmare"], "unknown difficulty"),
    (["--players", "1"], "2 to 7"),
    (["--players", "four"], "--players"),
    (["--lineup", "kyuzo,nobody"], "unknown samurai"),
    (["--lineup", "kyuzo,daisuke", "--players", "3"], "exclude"),
    (["--lineups", "sample:0"], "sample:K"),
    (["--lineups", "some"], "sample:K"),
    (["--seatings", "half"], "given or all"),
    (["--strategy", "psychic"], "unknown strategy"),
    (["--param", "Q=1"], "no chosen strategy"),
    (["--param", "risk=1.2.3"], "not a number"),
    (["--param", "edge=9"], "must be in"),
    (["--workers", "0"], "--workers"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "exclude"),
    (["--scheduler", "bogus://nowhere"], "Dask scheduler"),
    (["--resume", "--force"], "exclude"),
    (["--seed", "-1"], "--seed"),
    (["--threads", "0"], "--threads"),
    (["--block", "0"], "--block"),
    (["--preset", "huge"], "unknown preset"),
    (["--preset", "default", "-d", "easy"], "--difficulty"),
    (["--absent-tokens", "maybe"], "on, off or auto"),
    (["--frobnicate"], "No such option"),
]


@pytest.mark.parametrize("argv,words", BAD)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, words):
    if "--out" not in argv and argv:
        argv = ["--out", str(tmp_path / "x.parquet"), *argv]
    code, out, err = run(capsys, "sweep", *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiai: error:"), err
    assert words in lines[0]
    assert not (tmp_path / "x.parquet").exists()


def test_selfplay_is_one_strategy_in_a_sweep_whatever_each_familys_value_plays():
    """A sweep row's params are the parameters as set: the family values' own play (their headers,
    which simulate prints as played) differs by table, and the report would otherwise split
    selfplay into a strategy per family (rows.strategy_labels); the model column tells them apart."""
    from kiai.reports.findings.rows import strategy_labels
    from kiai.strategies.run.config import GameConfig

    configs = [GameConfig(("kyuzo", "kikuchiyo", "heihachi", "daisuke"), "normal", "selfplay"),
               GameConfig(("gorobei", "katsushiro"), "hard", "selfplay")]
    assert configs[0].played_params() != configs[1].played_params()  # both families' headers set a play
    rows = pd.DataFrame([T.config_columns(c) for c in configs])
    assert rows["params"].map(json.loads).eq(configs[0].param_dict()).all()
    assert rows["models"].nunique() == 2
    assert set(strategy_labels(rows)) == {"selfplay"}

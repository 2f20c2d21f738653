"""Hand-damaged state: every state file kiai reads back is checked by one schema step (kiai.states)
and refused in one line that names the file and the field: a sweep table's metadata (read by
`sweep --resume` and `report`), the balance state, game records, model headers and a training
run's settings. And the narrowed catches of a bad file still answer in one line."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import kiai
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

SWEEP = ["--strategy", "reference", "-d", "easy", "--lineup", "kyuzo,kanbei", "--games", "20", "--seed", "3"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A sweep table of one configuration (no capsys in a module fixture)."""
    from kiai.cli.main import main

    path = tmp_path_factory.mktemp("sweep") / "t.parquet"
    assert main(["sweep", "--out", str(path), *SWEEP]) == 0
    return path


def _with_metadata(table, path, raw: bytes):
    """A copy of `table` at `path` whose kiai.sweep metadata is `raw`."""
    from kiai.reports.playing.tables import METADATA_KEY

    t = pq.read_table(table)
    pq.write_table(t.replace_schema_metadata({**t.schema.metadata, METADATA_KEY: raw}), path)
    return path


def _metadata(table) -> dict:
    from kiai.reports.playing.tables import METADATA_KEY

    return json.loads(pq.read_schema(table).metadata[METADATA_KEY])


# ---------------------------------------------------------------------------- the sweep's metadata

METADATA = [  # (damaged form, the words the line holds besides the file)
    (b"[]", "sweep metadata: must be an object"),
    (b'"a sweep"', "sweep metadata: must be an object"),
    (b'{"keys": null}', "keys must be a list"),
    (b'{"keys": [', "sweep metadata: not JSON"),
    (b'{"format": 1}', "keys is missing"),
]


@pytest.mark.parametrize("raw, words", METADATA)
@pytest.mark.parametrize("command", ["resume", "report"])
def test_damaged_sweep_metadata_is_one_line_naming_the_file_and_the_field(table, tmp_path, capsys, raw, words,
                                                                           command):
    path = _with_metadata(table, tmp_path / "d.parquet", raw)
    argv = (["sweep", "--out", path, "--resume", *SWEEP] if command == "resume"
            else ["report", path, "--out", tmp_path / "report"])
    one_line_error(*run(capsys, *argv), str(path), words)


def _tally() -> dict:
    from kiai.reports.playing.summary import Tally

    return {k: v.tolist() if hasattr(v, "tolist") else v for k, v in Tally().counts().items()}


@pytest.mark.parametrize("change, field", [
    (lambda m: {**m, "rounds": []}, "rounds must be an object"),
    (lambda m: {**m, "keys": [5]}, "keys[0] must be a string"),
    (lambda m: {**m, "partial": {m["keys"][0]: {"rounds": [3], "tally": {**_tally(), "games": "20"}}}},
     ".tally.games must be an integer"),
    (lambda m: {**m, "request": {"games": "20"}}, "request.games must be an integer"),
])  # fmt: skip
def test_a_damaged_entry_of_the_sweep_metadata_is_named(table, tmp_path, capsys, change, field):
    path = _with_metadata(table, tmp_path / "d.parquet", json.dumps(change(_metadata(table))).encode())
    one_line_error(*run(capsys, "sweep", "--out", path, "--resume", *SWEEP), str(path), field)


def test_the_api_refuses_damaged_sweep_metadata_with_a_kiai_error(table, tmp_path):
    path = _with_metadata(table, tmp_path / "d.parquet", b'{"keys": null}')
    with pytest.raises(kiai.KiaiError, match="keys must be a list"):
        kiai.sweep(levels="easy", lineups=[["kyuzo", "kanbei"]], strategies="reference", games=20, seed=3, out=path,
                   resume=True)  # fmt: skip
    from kiai.reporting import report

    with pytest.raises(kiai.KiaiError, match="keys must be a list"):
        report(path, tmp_path / "report")


def test_a_column_of_another_type_is_named(table, tmp_path, capsys):
    t = pq.read_table(table)
    df = t.to_pandas().assign(games=lambda d: d["games"].astype(str))
    path = tmp_path / "d.parquet"
    pq.write_table(pa_table(df).replace_schema_metadata(t.schema.metadata), path)
    one_line_error(*run(capsys, "sweep", "--out", path, "--resume", *SWEEP), str(path), "damaged sweep table: games")


def test_a_models_column_of_another_type_is_named(table, tmp_path, capsys):
    """The `models` column (every model a row's strategy read) is checked like the others."""
    t = pq.read_table(table)
    df = t.to_pandas().assign(models=7)
    path = tmp_path / "m.parquet"
    pq.write_table(pa_table(df).replace_schema_metadata(t.schema.metadata), path)
    one_line_error(*run(capsys, "sweep", "--out", path, "--resume", *SWEEP), str(path), "damaged sweep table: models")


def pa_table(df):
    import pyarrow as pa

    return pa.Table.from_pandas(df, preserve_index=False)


def test_a_written_table_reads_back_as_it_was(table):
    from kiai.reports.playing import tables as T

    df, keys, info = T.read_table(table)
    assert keys == _metadata(table)["keys"] and info["request"] == {"games": 20} and len(df) == 1


# ---------------------------------------------------------------------------- the balance state

BALANCE = ["balance", "--players", "3", "--target", "30%", "--lineups", "1", "-n", "40", "--generations", "1",
           "--candidates", "3", "--verify", "60", "--strategy", "reference"]
KEY = {"level": "normal", "sizes": [3]}


@pytest.mark.parametrize("doc, words", [
    ([], "balance state: must be an object"),
    ({"key": KEY, "played": {"3|printed|0|40": [50, 40]}}, "played.3|printed|0|40[0] is 50 wins of 40 games"),
    ({"key": KEY, "played": {"3|printed|0|40": ["12", 40]}}, "played.3|printed|0|40[0] must be an integer"),
    ({"key": KEY, "played": {"3|printed|0|40": [12]}}, "must list at least 2 items"),
    ({"key": KEY}, "played is missing"),
    ("{", "balance state: not JSON"),
])  # fmt: skip
def test_a_damaged_balance_state_is_one_line_naming_the_file_and_the_field(tmp_path, capsys, monkeypatch, doc, words):
    from kiai.reports.search.balance_run import STATE

    out = tmp_path / "bal"
    out.mkdir()
    (out / STATE).write_text(doc if isinstance(doc, str) else json.dumps(doc))
    monkeypatch.chdir(tmp_path)
    one_line_error(*run(capsys, *BALANCE, "--out", out, "--resume"), str(out / STATE), words)
    with pytest.raises(kiai.KiaiError, match="damaged balance state"):
        kiai.balance(players=3, target="30%", lineups=1, games=40, generations=1, candidates=3, verify=60,
                     strategy="reference", out=out, resume=True)  # fmt: skip


# ---------------------------------------------------------------------------- game records


@pytest.fixture(scope="module")
def record() -> dict:
    return kiai.record(["kyuzo", "kanbei"], level="easy", games=1, seed=4, strategy="random")[0]


@pytest.mark.parametrize("damage, field", [
    (lambda r: r["events"][1].update(seat="one"), "events[1].seat must be an integer"),
    (lambda r: r["events"].__setitem__(1, {"e": "teleport"}), "events[1].e must be one of"),
    (lambda r: r["events"].__setitem__(1, []), "events[1] must be an object"),
    (lambda r: r["setup"].update(families="all"), "setup.families must be a list"),
    (lambda r: r["result"].update(outcome=None), "result.outcome must be one of win, loss"),
    (lambda r: r.update(rules=["heal=any"]), "rules must be an object"),
    (lambda r: r["events"][2].pop("options"), "events[2].options is missing"),
])  # fmt: skip
def test_a_damaged_record_is_one_line_naming_the_file_and_the_field(record, tmp_path, capsys, damage, field):
    damaged = json.loads(json.dumps(record))
    damage(damaged)
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n" + json.dumps(damaged) + "\n")
    one_line_error(*run(capsys, "replay", path), f"{path}, line 2: damaged record: {field}")


def test_a_record_that_replays_is_not_checked_field_by_field(record, monkeypatch):
    """The schema's check of a whole game takes longer than its replay: it is made where a record
    fails, to tell a damaged record from one that diverges."""
    from kiai.reports.records import replay

    def refuse(*a, **k):
        raise AssertionError("a record that replays was checked against the schema")

    monkeypatch.setattr(replay, "check", refuse)
    assert kiai.replay([record]).games == 1


# ---------------------------------------------------------------------------- model headers


def _value_file(path, change):
    """A copy of the shipped selfplay value of 2 samurai at Easy whose header is change(header)."""
    from kiai.strategies.nets import modelfile as M

    with np.load(M.family_file(2, "easy")) as z:
        header = json.loads(str(z["header"]))
        arrays = {k: z[k] for k in z.files if k != "header"}
    np.savez(path, header=np.array(json.dumps(change(header))), **arrays)
    return path


HEADERS = [
    (lambda h: [], "damaged model header: must be an object"),
    (lambda h: {k: v for k, v in h.items() if k != "kind"}, "damaged model header: kind is missing"),
    (lambda h: {**h, "settings": {**h["settings"], "family": 2}}, "settings.family must be a string"),
    (lambda h: {**h, "positions": "many"}, "positions must be an integer"),
    (lambda h: {**h, "replaces": "none"}, "replaces must be a list"),
]


@pytest.mark.parametrize("change, words", HEADERS)
def test_a_damaged_model_header_is_one_line_naming_the_file_and_the_field(tmp_path, capsys, change, words):
    from kiai.strategies.nets import modelfile as M

    path = _value_file(tmp_path / "v.npz", change)
    with pytest.raises(M.ModelError, match=words):
        M.load(path, M.AFTER)
    one_line_error(*run(capsys, "simulate", "-s", "kyuzo,kanbei", "-d", "easy", "-n", 2, "--strategy", "selfplay",
                        "--model", path), str(path), words)  # fmt: skip


def test_the_shipped_model_headers_match_the_schema():
    """They are read unchecked (`kiai simulate` imports no jsonschema for them): the tests check them."""
    from kiai.strategies.nets import modelfile as M

    for path in sorted(M.DATA.glob("*.npz")):
        with np.load(path) as z:
            header = json.loads(str(z["header"]))
        M.check_header(header, next(k for k in M.KINDS if k.name == header["kind"]), str(path))


def test_a_learned_file_of_the_format_before_kinds_still_loads(tmp_path):
    from kiai.strategies.nets import modelfile as M

    shipped = M.load(None, M.LEARNED)
    header = {k: v for k, v in shipped.header.items() if k != "kind"}
    np.savez(tmp_path / "old.npz", header=np.array(json.dumps(header)), **shipped.arrays)
    assert M.load(tmp_path / "old.npz", M.LEARNED).header == header


# ---------------------------------------------------------------------------- a training run's settings


@pytest.mark.parametrize("text, words", [("[]", "training settings: must be an object"),
                                         ('{"games": ', "training settings: not JSON")])
def test_a_damaged_training_settings_file_is_one_line_naming_it(tmp_path, capsys, text, words):
    pytest.importorskip("torch")
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "settings.json").write_text(text)
    one_line_error(*run(capsys, "train", "value", folder, "--iterations", 1, "--tables", 1, "-n", 1, "--eval-games", 0),
                   str(folder / "settings.json"), words)  # fmt: skip


def test_a_damaged_training_settings_file_of_learned_is_one_line(tmp_path):
    from kiai.training.learned import Folder, Settings, train

    (tmp_path / "settings.json").write_text('"games"')
    with pytest.raises(kiai.KiaiError, match="settings.json: damaged training settings: must be an object"):
        train(Folder(tmp_path), Settings(), None, None)


# ---------------------------------------------------------------------------- the narrowed catches


@pytest.mark.parametrize("bad", ["truncated", "text", "empty", "pandas-entry"])
def test_a_damaged_table_file_is_one_line_where_kiai_reads_one(table, tmp_path, capsys, bad):
    """A damaged Parquet file is pyarrow's ArrowInvalid or OSError; a damaged pandas entry of its
    metadata is not read (it would be a TypeError)."""
    path = tmp_path / "d.parquet"
    good = table.read_bytes()
    if bad == "pandas-entry":
        t = pq.read_table(table)
        pq.write_table(t.replace_schema_metadata({**t.schema.metadata, b"pandas": b"[]"}), path)
        from kiai.reports.findings.views import load_results
        from kiai.reports.playing import tables as T

        pd.testing.assert_frame_equal(load_results(path), pd.read_parquet(table))
        assert T.read_table(path)[1] == T.read_table(table)[1]
        return
    path.write_bytes({"truncated": good[: len(good) // 2], "text": b"no table\n", "empty": b""}[bad])
    one_line_error(*run(capsys, "sweep", "--out", path, "--resume", *SWEEP), f"cannot read {path}")
    one_line_error(*run(capsys, "report", path, "--out", tmp_path / "report"), f"cannot read {path}")
    one_line_error(*run(capsys, "sweep", "--out", tmp_path / "a.parquet", "--preset", "advice", "--from", path),
                   f"--from {path}")


def test_a_csv_table_of_bytes_that_are_no_text_is_one_line(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_bytes(b"\xff\xfe\x00garbage\n\x80\x81\n")
    one_line_error(*run(capsys, "report", path, "--out", tmp_path / "report"), f"cannot read {path}")


def test_the_profile_skips_code_loaded_from_the_cache(monkeypatch):
    """numba warns where asked for the module of code it loaded from its cache; jit_symbols turns
    that warning into an error and skips the function, and nothing else."""
    from numba import njit

    from kiai import profile

    @njit
    def kiai_profile_cached_probe(x):
        return x + 2

    assert kiai_profile_cached_probe(1) == 3
    cres = next(iter(kiai_profile_cached_probe.overloads.values()))
    start = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    assert start in {a for a, _, _ in profile.jit_symbols()}
    monkeypatch.setattr(cres.library, "_disable_inspection", True)  # as for code loaded from the cache
    assert start not in {a for a, _, _ in profile.jit_symbols()}


def test_a_scheduler_without_workers_is_one_line():
    distributed = pytest.importorskip("distributed")
    from kiai.reports.playing.cluster import DaskBackend
    from kiai.reports.playing.tables import SweepError

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with pytest.raises(SweepError, match="has no workers"):
            DaskBackend.connect(cluster.scheduler_address, None, None, timeout=1)


def test_a_damaged_folder_of_state_is_left_as_it_was(tmp_path, capsys):
    """A refused state file is not rewritten: the user may mend it."""
    from kiai.reports.search.balance_run import STATE

    out = tmp_path / "bal"
    out.mkdir()
    (out / STATE).write_text("[]")
    before = sorted(p.name for p in out.iterdir())
    one_line_error(*run(capsys, *BALANCE, "--out", out, "--resume"), str(out / STATE))
    assert sorted(p.name for p in out.iterdir()) == before and (out / STATE).read_text() == "[]"
    shutil.rmtree(out)

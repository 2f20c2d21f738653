"""kiai bench --profile (kiai.profile): perf's JIT map of numba's compiled code, and the report's
shares. The whole run under perf is left to the command (it needs Linux perf and a minute of
compiling); these tests pin the pieces it is made of."""

from __future__ import annotations

import os

import numpy as np
import pytest
from numba import njit

from kiai import profile
from conftest import one_line_error, run


def test_jit_symbols_name_code_compiled_in_this_process(tmp_path):
    @njit  # not cached: compiled here, so its LLVM module is at hand
    def kiai_profile_probe(x):
        return x * 3 + 1

    assert kiai_profile_probe(np.int64(2)) == 7
    cres = next(iter(kiai_profile_probe.overloads.values()))
    start = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    symbols = profile.jit_symbols()
    assert [a for a, _, _ in symbols] == sorted({a for a, _, _ in symbols})  # sorted, one entry per address
    named = {a: (size, name) for a, size, name in symbols}
    size, name = named[start]
    assert name.endswith("kiai_profile_probe") and "[abi:" not in name and "(" not in name
    assert 0 < size <= 1 << 20

    path = profile.write_perf_map(symbols, pid=999_999_999)
    try:
        lines = open(path).read().splitlines()
        assert f"{start:x} {size:x} {name}" in lines and len(lines) == len(symbols)
    finally:
        os.remove(path)


def test_shares_add_up_a_functions_copies_and_drop_perfs_columns():
    report = """# Samples: 1K of event 'cycles:P'
#
    19.19%  [.] strategies.learned._scores             -      -
    16.06%  [.] strategies.features.fill_counted      -      -
     9.53%  [.] strategies.learned._scores             -      -
     0.40%  [k] clear_page_erms
     1.24%  [.] 0x00007f8a040a22ef                     -      -
"""
    got = profile.shares(report)
    assert got[0] == (pytest.approx(28.72), "strategies.learned._scores")
    assert got[1] == (16.06, "strategies.features.fill_counted")
    assert [name for _, name in got] == ["strategies.learned._scores", "strategies.features.fill_counted",
                                         "0x00007f8a040a22ef", "clear_page_erms"]  # fmt: skip


def test_bench_profile_without_perf_is_one_line_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(profile.shutil, "which", lambda name: None)
    one_line_error(*run(capsys, "bench", "--profile", "-n", 1000), "Linux perf")


def test_the_profiled_batch_is_played_in_parts_that_add_up():
    for games in (1, 7, 20, 21, 200_000, 1_000_003):
        parts = profile.chunks(games)
        assert sum(parts) == games and len(parts) == min(games, 20) and max(parts) - min(parts) <= 1


def test_the_childs_progress_lines_move_the_bar_and_its_other_lines_are_kept():
    seen = []
    said = profile.read_progress(["kiai-progress 0\n", "a warning\n", "kiai-progress 500\n",
                                  "kiai-progress 1000\n", "Traceback: boom\n"], seen.append)
    assert seen == [0, 500, 1000]
    assert said == ["a warning", "Traceback: boom"]
    assert profile._last_line("\n".join(said), 1) == "Traceback: boom"
    assert profile._last_line("", 3) == "exit 3"

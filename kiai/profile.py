"""`kiai bench --profile` (kiai.bench.profile): where the engine's time goes, by compiled function, under Linux perf.

perf samples the instruction pointer; numba's compiled code is JIT code that no symbol table
names, so perf would list bare addresses. perf reads the names of JIT code from
/tmp/perf-PID.map (one "START SIZE NAME" line per function, addresses in hex). The profiled
process writes that file from the LLVM modules numba compiled in it: it therefore plays with an
empty numba cache, compiling everything itself (about a minute), since code loaded from the
cache comes without its modules. A function's size is taken as the distance to the next one.
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

_DEFINE = re.compile(r'^define [^@]*@"?([^"(\s]+)"?\(', re.M)
_MAX_SIZE = 1 << 20  # a gap larger than this is not one function: the map entry gets _LAST_SIZE
_LAST_SIZE = 1 << 16


def _readable(mangled: list[str]) -> list[str]:
    """numba's Itanium-mangled names as module.function (c++filt, where installed)."""
    if not mangled:
        return []
    tool = shutil.which("c++filt")
    names = mangled
    if tool:
        done = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True, check=False)
        lines = done.stdout.splitlines()
        if done.returncode == 0 and len(lines) == len(mangled):
            names = lines
    return [re.sub(r"\[abi:[^\]]*\]", "", n).split("(")[0].replace("::", ".") for n in names]


def jit_symbols() -> list[tuple[int, int, str]]:
    """(address, size, name) of every function numba compiled in this process (not those it
    loaded from its cache), sorted by address."""
    from numba.core.registry import CPUDispatcher

    found: dict[int, str] = {}
    for obj in gc.get_objects():
        if not issubclass(type(obj), CPUDispatcher):  # type(), not isinstance: a dead weak proxy raises there
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            with warnings.catch_warnings():  # for code loaded from the cache numba warns, and
                warnings.simplefilter("error")  # returns no module: skipped
                try:
                    ir = lib.get_llvm_str()
                except Warning:  # that warning, raised by the filter above
                    continue
            for name in _DEFINE.findall(ir):
                address = lib.get_pointer_to_function(name)
                if address:
                    found.setdefault(address, name)
    addresses = sorted(found)
    names = _readable([found[a] for a in addresses])
    out = []
    for i, (a, name) in enumerate(zip(addresses, names)):
        gap = addresses[i + 1] - a if i + 1 < len(addresses) else _MAX_SIZE + 1
        out.append((a, gap if gap <= _MAX_SIZE else _LAST_SIZE, name))
    return out


def write_perf_map(symbols: list[tuple[int, int, str]], pid: int | None = None) -> str:
    """Write perf's JIT map of process pid (default: this one); returns its path."""
    path = f"/tmp/perf-{pid or os.getpid()}.map"
    with open(path, "w") as f:
        for address, size, name in symbols:
            f.write(f"{address:x} {size:x} {name}\n")
    return path


def shares(report: str) -> list[tuple[float, str]]:
    """perf report's rows (`--sort symbol --stdio`) as (percent, function), the rows of one
    function (several compiled copies or signatures) added up, largest first."""
    total: dict[str, float] = {}
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+\[[.k]\]\s+(.+?)(?:\s+-)*\s*$", line)
        if m:
            total[m.group(2)] = total.get(m.group(2), 0.0) + float(m.group(1))
    return sorted(((v, k) for k, v in total.items()), reverse=True)


# The profiled process: compile everything here, write the map, play under `perf record`.
_CHILD = """
import json, os, signal, subprocess, sys, time
from kiai.profile import chunks, jit_symbols, write_perf_map
from kiai.strategies.run.compiling import compile_here
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games, set_threads
args = json.loads(sys.argv[1])
set_threads(args["threads"])
config = GameConfig(tuple(args["samurai"].split(",")), args["difficulty"], args["strategy"], args["params"])
compile_here([config])
run_games(config, 10, 0)
path = write_perf_map(jit_symbols())
# perf's messages go to a file: a pipe read only after the play could fill and stall perf
err_file = open(args["data"] + ".err", "w+")
perf = subprocess.Popen(["perf", "record", "-q", "-F", "999", "-p", str(os.getpid()), "-o", args["data"]],
                        stdout=subprocess.DEVNULL, stderr=err_file)
time.sleep(1.0)  # perf attaches
print("kiai-progress 0", file=sys.stderr, flush=True)
t0 = time.perf_counter()
done = 0
for n in chunks(args["games"]):  # the same games as one batch, so that the progress moves
    run_games(config, n, 0, done)
    done += n
    print(f"kiai-progress {done}", file=sys.stderr, flush=True)
seconds = time.perf_counter() - t0
perf.send_signal(signal.SIGINT)
perf.wait()
err_file.seek(0)
err = err_file.read().strip().splitlines()  # the last line says why perf failed, if it did
print(json.dumps({"seconds": seconds, "perf_rc": perf.returncode, "perf_err": err[-1] if err else "", "map": path}))
"""


_PROGRESS = "kiai-progress "
_CHUNKS = 20


def chunks(games: int) -> list[int]:
    """The profiled batch in up to _CHUNKS parts of nearly equal size, played one after the
    other, so that the progress moves."""
    parts = min(games, _CHUNKS)
    return [games // parts + (i < games % parts) for i in range(parts)]


def read_progress(lines, on_progress) -> list[str]:
    """Pass the child's progress lines (its games played, once the compiling is done) to
    on_progress(games); returns its other lines (what it said when it failed)."""
    other = []
    for line in lines:
        if line.startswith(_PROGRESS):
            on_progress(int(line[len(_PROGRESS):]))
        else:
            other.append(line.rstrip("\n"))
    return other


def check_perf() -> str:
    """perf's path (FileNotFoundError, with a one-line reason, when it is not installed)."""
    perf = shutil.which("perf")
    if perf is None:
        raise FileNotFoundError("--profile needs Linux perf (`perf` on the PATH; e.g. the linux-tools package)")
    return perf


def _last_line(err: str, returncode: int) -> str:
    """What a failed command said last, or its exit status."""
    err = err.strip()
    return err.splitlines()[-1] if err else f"exit {returncode}"


def profile(workload: dict, strategy: str, params: dict, games: int, threads: int, top: int = 25,
            on_start=lambda: None, on_progress=lambda played: None) -> dict:
    """Play `games` of the workload in a new process under perf; returns its games/s and the
    compiled functions' shares of the samples (the `top` largest). perf is looked for first
    (FileNotFoundError), then on_start() is called and the work begins: the new process
    compiles everything, then plays under perf, calling on_progress(games played) from 0 on."""
    perf = check_perf()
    on_start()
    with tempfile.TemporaryDirectory(prefix="kiai-profile-") as tmp:
        data = os.path.join(tmp, "perf.data")
        args = dict(workload, strategy=strategy, params=params, games=games, threads=threads, data=data)
        env = dict(os.environ, KIAI_CACHE_DIR=os.path.join(tmp, "numba"))
        with subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(args)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) as child:  # fmt: skip
            said = read_progress(child.stderr, on_progress)  # its stdout is one line: no deadlock
            out = child.stdout.read()
        if child.returncode != 0:
            why = _last_line("\n".join(said), child.returncode)
            raise RuntimeError(f"the profiled run failed: {why}")
        result = json.loads(out.strip().splitlines()[-1])
        try:
            report = _report(perf, data, result)
        finally:  # perf reads the map when it reports: removed only then
            if os.path.exists(result["map"]):
                os.remove(result["map"])
    return {"games_per_second": games / result["seconds"], "functions": shares(report)[:top]}


def _report(perf: str, data: str, result: dict) -> str:
    if result["perf_rc"] not in (0, -2) or not os.path.exists(data):
        raise RuntimeError(f"perf record failed: {result['perf_err'] or result['perf_rc']}")
    rep = subprocess.run([perf, "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    if rep.returncode != 0:
        raise RuntimeError(f"perf report failed: {_last_line(rep.stderr, rep.returncode)}")
    return rep.stdout

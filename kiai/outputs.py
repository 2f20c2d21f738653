"""One rule for every file kiai writes: an output is claimed before any work, then written whole.

Below every layer, as kiai/errors.py is: the engine's, the players', training's and the reports'
writers all go through it, and it imports nothing of kiai's but the errors.

- **claim(path)** holds an OS lock (filelock) on `.NAME.lock` beside the output from before the
  first game until the last write. The kernel releases it when the process dies, so a killed run
  leaves no stale claim. The lock file says who holds it (host, pid, start time, command), and a
  second run that wants the same output refuses at once, in one line that names the holder. Once
  claimed, the output is checked again: a run that checked "no such file" and then waited out
  another's whole write must not overwrite it.
- **temp_path(path)** names a temporary file for this run: `.NAME.<host>-<pid>-<start>.tmp`.
  clean_stale(path) removes the temporaries of NAME whose process is dead (on this host), never a
  live run's, and never one of another host, which it cannot see.
- **atomic_write(path, write)** writes through such a temporary and os.replace, so an output is
  whole or as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from kiai.errors import KiaiError, WriteError

_HOST = socket.gethostname()
_HOST_TAG = hashlib.sha1(_HOST.encode("utf-8", "replace")).hexdigest()[:8]  # a host name may hold any character


def _start_of(pid: int) -> str | None:
    """When process `pid` started, as the kernel counts it (Linux: clock ticks since boot, field
    22 of /proc/PID/stat), or None where that cannot be read. With the pid it names one process:
    a pid reused by a later process has another start."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()  # the command name, in parentheses, may hold spaces
    return fields[19].decode() if len(fields) > 19 else None


_PID = os.getpid()
_START = _start_of(_PID) or str(int(time.time()))
TAG = f"{_HOST_TAG}-{_PID}-{_START}"  # this run's name on its temporaries
_TEMP = re.compile(r"^(?P<host>[0-9a-f]{8})-(?P<pid>\d+)-(?P<start>\d+)$")


def _alive(pid: int, start: str) -> bool:
    """Whether the process that made a temporary still runs (on this host)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        pass
    now = _start_of(pid)
    return now is None or now == start  # None: no /proc to tell a reused pid by; keep it


def _tag() -> str:
    """This process's tag; recomputed after a fork (a child has its own pid and start)."""
    global _PID, _START, TAG
    if os.getpid() != _PID:
        _PID = os.getpid()
        _START = _start_of(_PID) or str(int(time.time()))
        TAG = f"{_HOST_TAG}-{_PID}-{_START}"
    return TAG


def temp_path(path, *, suffix: str = ".tmp") -> Path:
    """A temporary name beside `path` for this run: .NAME.<host>-<pid>-<start>.tmp (one per
    output and run; a run writes each output from one place at a time)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{_tag()}{suffix}")


def stale_temps(path) -> list[Path]:
    """The temporaries of `path` (files or folders) left by dead processes of this host: named
    as temp_path names them, or (kiai before run-named temporaries) `.NAME.<random>.tmp`, which
    only a killed run of another version can have left and claim() guards against."""
    path = Path(path)
    found = []
    try:
        entries = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    except OSError:
        return []
    for entry in entries:
        middle = entry.name[len(path.name) + 2: -len(".tmp")]
        m = _TEMP.match(middle)
        if m is None:
            if "." not in middle and not middle.startswith(_HOST_TAG):
                found.append(entry)  # an old, randomly named temporary (mkstemp's eight characters)
            continue
        if m["host"] == _HOST_TAG and not _alive(int(m["pid"]), m["start"]):
            found.append(entry)
    return sorted(found)


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def clean_stale(path) -> list[Path]:
    """Remove the temporaries of `path` left by dead runs (stale_temps); return them."""
    gone = []
    for entry in stale_temps(path):
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            gone.append(entry)
        except OSError:  # already removed by another run's clean-up, or not ours to remove
            pass
    return gone


# --- claims ---------------------------------------------------------------------------------

class ClaimError(KiaiError):
    """Another live run holds the output: one line naming it (host, pid, start, command)."""


def lock_path(path) -> Path:
    """The lock file of an output: .NAME.lock beside it."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


def _holder_text(lock: Path) -> str:
    try:
        info = json.loads(lock.read_text(encoding="utf-8"))
        if not isinstance(info, dict):
            raise ValueError
    except (OSError, ValueError):
        return "another run"
    where = "this machine" if info.get("host") == _HOST else f"host {info.get('host', '?')}"
    return (f"pid {info.get('pid', '?')} on {where}, started {info.get('started', '?')}"
            + (f" ({info['command']})" if info.get("command") else ""))


def _stamp(fd: int) -> None:
    """Write who holds the claim into its lock file (filelock's on_acquired: the file is ours)."""
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])[:200] if sys.argv and sys.argv[0] else ""
    info = {"host": _HOST, "pid": os.getpid(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            "command": command}
    data = json.dumps(info).encode("utf-8")
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


_HELD: dict[Path, list] = {}  # lock file -> [FileLock, depth]: a run may claim its own output again


@contextlib.contextmanager
def claim(path, option: str = "--out", *, replace: bool = True, exists_hint: str = "use --force to replace it",
          folder: bool = False) -> Iterator[Path]:
    """Hold `path` for this run while the block runs. Refuses (ClaimError, one line) when a live
    run holds it. With replace False, an output that exists once claimed is refused as
    check_output refuses it (another run may have finished writing it since that check). Stale
    temporaries of dead runs are removed once the claim is held. The same process may claim an
    output it holds again; the lock goes when the last of its claims ends, in whatever order
    they end (a result may hold one past the call that made it: kiai.tune's Tuning)."""
    path = Path(path)
    lock = lock_path(path)
    key = lock.absolute()
    held = _HELD.get(key)
    if held is None:
        try:
            flock = FileLock(lock, blocking=False, on_acquired=_stamp)
            flock.acquire()
        except Timeout:
            raise ClaimError(f"{option} {path} is being written by another kiai run ({_holder_text(lock)}); "
                             "wait for it to finish, or write elsewhere") from None
        except OSError as e:
            raise WriteError(lock, e) from None
        held = _HELD[key] = [flock, 0]
        first = True
    else:
        first = False
    held[1] += 1
    try:
        if first and not replace and os.path.lexists(path) and not (folder and path.is_dir()):
            raise KiaiError(f"{option} {path} exists (written by another run since this one started); {exists_hint}")
        if first:
            clean_stale(path)
        yield path
    finally:
        held[1] -= 1
        if held[1] == 0:
            if _HELD.get(key) is held:
                del _HELD[key]
            with contextlib.suppress(OSError):
                held[0].release()


def hold(path, option: str = "--out", **how) -> contextlib.ExitStack:
    """claim(path, option, **how) held past the call that takes it, for a result written later
    (kiai.simulate's table, kiai.tune's file): close() the stack once the output is written. A
    stack dropped unclosed lets the claim go too (its generator is closed)."""
    stack = contextlib.ExitStack()
    stack.enter_context(claim(path, option, **how))
    stack.path = Path(path)  # what it holds, for write_held
    return stack


def write_held(path, write: Callable[[Path], object], held: contextlib.ExitStack | None) -> bool:
    """atomic_write(path, write) under path's claim (the one `held` keeps, where it is that
    file's), then let `held` go if so, however the write ends; returns whether it let it go (the
    result written later: kiai.simulate's table, kiai.tune's file)."""
    path = Path(path)
    lets_go = held is not None and held.path == path
    try:
        with claim(path):
            atomic_write(path, write)
    finally:
        if lets_go:
            held.close()
    return lets_go


def holds(path) -> bool:
    """Whether this process holds the claim on `path`."""
    return lock_path(path).absolute() in _HELD


# --- writing --------------------------------------------------------------------------------

def finish(tmp: Path) -> None:
    """Make a written temporary file durable before it takes its name."""
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path, write: Callable[[Path], object]) -> None:
    """Call write(tmp) on this run's temporary file beside `path`, then move it onto `path` in
    one step (os.replace). If write raises, `path` is left as it was and the temporary removed; an
    OSError comes back as a WriteError naming `path`."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "xb"):
            pass
    except FileExistsError:
        tmp.unlink(missing_ok=True)  # this run's own, from a write it abandoned
    except OSError as e:
        raise WriteError(path, e) from None
    try:
        write(tmp)
        finish(tmp)
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise WriteError(path, e) from None
    except BaseException:  # Ctrl-C, or a bug in write: no half file left, the fault goes on as it is
        tmp.unlink(missing_ok=True)
        raise


def temp_folder(folder) -> Path:
    """This run's new temporary folder beside `folder` (see temp_path), made empty."""
    tmp = temp_path(folder)
    if tmp.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    return tmp


__all__ = ["ClaimError", "TAG", "atomic_write", "claim", "clean_stale", "finish", "hold", "holds", "lock_path",
           "stale_temps", "temp_folder", "temp_path", "umask", "write_held"]

"""Re-run the commands behind the generated blocks of README.md and docs/*.md.

    .venv/bin/python docs/generate.py            # the quick blocks (seconds each)
    .venv/bin/python docs/generate.py --slow     # and the slow ones (make docs: kiai bench, minutes)
    .venv/bin/python docs/generate.py --check    # change nothing; exit 1 if a quick block drifted
    .venv/bin/python docs/generate.py --slow --only "selfplay over learned" docs/strategies.md
                                                 # of the slow blocks, only those whose command or code holds the text
    .venv/bin/python docs/generate.py --slow --only "--bracket" --in DIR docs/report.md
                                                 # run in DIR: a resumable command goes on from what it left there

A generated block is an opening comment naming a kiai command, the command's output, and a
closing comment:

    <!-- generated: kiai simulate -s kyuzo,heihachi,daisuke -d easy -n 2000 --seed 0 -->
    ```text
    ...what the command printed on standard output...
    ```
    <!-- end generated -->

A Python block (the Python API, docs/api.md) names `python` instead; the code it runs is the
```python fenced block just above its opening comment, and what the code prints is its output:

    ```python
    print(kiai.simulate(["kyuzo", "heihachi"], games=500).win_rate)
    ```
    <!-- generated: python -->
    ```text
    ...what the code printed...
    ```
    <!-- end generated -->

The Python blocks of a page run in this process, in one namespace, as a notebook's cells do: a
block may use what an earlier one defined.

`<!-- generated (slow): kiai ... -->` marks a block whose command takes long or whose figures
depend on the machine (speed tables): it is regenerated only with --slow, and the text above its
output says when and on what machine it was made. tests/test_readme.py re-runs every other block
and fails when the output drifts.

The blocks of one page run in order, in a temporary folder of their own, so a block may read a
file that an earlier block of the same page wrote (`kiai sweep --out s.parquet`, then `kiai
report s.parquet`). Only standard output is shown; progress bars and compile notes go to standard
error. Nothing but the blocks' contents changes.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OPENING = re.compile(r"^<!-- generated(?P<slow> \(slow\))?: (?P<command>.*?) -->$", re.M)
CLOSING = "<!-- end generated -->"
# the environment every command runs in: a fixed width for help texts, no colours
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


class GenerationError(Exception):
    """A page's blocks are malformed, or a command failed."""


@dataclass
class Block:
    command: str  # as written in the opening comment, 'kiai ...' or 'python'
    slow: bool
    start: int  # the block's content: text[start:end], between the two comments
    end: int
    body: str
    code: str = ""  # a Python block's code: the ```python block above the opening comment

    @property
    def python(self) -> bool:
        return self.command == "python"

    @property
    def args(self) -> list[str]:
        """The command's arguments after `kiai`."""
        return shlex.split(self.command)[1:]


def pages() -> list[Path]:
    """The pages that may hold generated blocks: README.md and docs/*.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(text: str, name: str = "page") -> list[Block]:
    """The generated blocks of a page's text, in order."""
    found = []
    for m in OPENING.finditer(text):
        command = m.group("command").strip()
        line = text.count("\n", 0, m.start()) + 1
        if not command.startswith("kiai ") and command != "python":
            raise GenerationError(f"{name}:{line}: a generated block's command must start with 'kiai ' "
                                  f"or be 'python': {command!r}")  # fmt: skip
        start = m.end() + 1
        end = text.find(CLOSING, start)
        nxt = OPENING.search(text, start)
        if end < 0 or (nxt is not None and nxt.start() < end):
            raise GenerationError(f"{name}:{line}: no '{CLOSING}' after the block of {command!r}")
        code = python_above(text[: m.start()], f"{name}:{line}") if command == "python" else ""
        found.append(Block(command, bool(m.group("slow")), start, end, text[start:end], code))
    return found


def python_above(before: str, where: str) -> str:
    """The code of the ```python fenced block that `before` (a page up to an opening comment) ends with."""
    m = re.search(r"^```python\n(?P<code>(?:(?!^```).)*?)^```\s*\Z", before, flags=re.S | re.M)
    if m is None:
        raise GenerationError(f"{where}: a python block needs a ```python fenced block just above it")
    return m.group("code")


def execute(code: str, namespace: dict, cwd: Path) -> str:
    """Run a Python block's code in `namespace` (a page's blocks share one) with `cwd` as the
    working folder; what it printed on standard output."""
    out, here = io.StringIO(), os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<python block>", "exec"), namespace)  # noqa: S102 - the docs' own examples
    except Exception as e:  # noqa: BLE001 - any failure of an example is the page's
        raise GenerationError(f"a python block failed: {type(e).__name__}: {e}") from None
    finally:
        os.chdir(here)
    return out.getvalue()


def kiai_executable() -> list[str]:
    """How to run kiai: the entry point beside this Python (the virtualenv's), else the one on
    PATH, else the package's main function in this Python."""
    beside = Path(sys.executable).with_name("kiai")
    if beside.exists():
        return [str(beside)]
    on_path = shutil.which("kiai")
    if on_path:
        return [on_path]
    return [sys.executable, "-c", "import sys; from kiai.cli.main import main; sys.exit(main(sys.argv[1:]))"]


def run(block: Block, cwd: Path) -> str:
    """The command's standard output (it must exit 0)."""
    done = subprocess.run([*kiai_executable(), *block.args], cwd=cwd, env=dict(os.environ, **ENV),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        raise GenerationError(f"`{block.command}` exited {done.returncode}: {last}")
    return done.stdout


def tidy(output: str) -> str:
    """The output as shown: trailing spaces and blank lines at either end dropped."""
    return "\n".join(line.rstrip() for line in output.strip("\n").splitlines())


def fence(output: str) -> str:
    return f"```text\n{tidy(output)}\n```\n"


def shown(body: str) -> str:
    """The output a block's content shows (the inside of its fenced code block)."""
    m = re.search(r"^```[a-z]*\n(.*?)^```$", body, flags=re.S | re.M)
    return tidy(m.group(1)) if m else ""


# what varies from run to run and machine to machine: times, speeds, thread counts
_TIMING = re.compile(r"\d[\d,]*(?:\.\d+)?(?= ?(?:s|ms|min|seconds|games/s)\b)")
_THREADS = re.compile(r"\bon \d+ threads?\b")


def normalise(text: str) -> str:
    """The text with the figures that vary between runs masked: on a line that gives a time or a
    speed, each number of seconds or games/s becomes '#', and the thread count too."""
    out = []
    for line in tidy(text).splitlines():
        if "games/s" in line or "seconds" in line or re.search(r"\d s\b", line):
            line = _THREADS.sub("on # threads", _TIMING.sub("#", line))
        out.append(line)
    return "\n".join(out)


def machine() -> str:
    """Where and when a slow block was made: date, processor, cores, load."""
    cpu = "unknown processor"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        import platform

        cpu = platform.processor() or cpu
    load = f", load average {os.getloadavg()[0]:.2f} at the start" if hasattr(os, "getloadavg") else ""
    return f"{datetime.date.today().isoformat()}, {cpu}, {os.cpu_count()} cores{load}"


def content(block: Block, output: str) -> str:
    """A block's new content: its output fenced, after a line saying where a slow block ran."""
    if block.slow:
        return f"Generated on {machine()}.\n\n{fence(output)}"
    return fence(output)


def regenerate(path: Path, slow: bool, check: bool, only: str = "", folder: Path | None = None) -> list[str]:
    """Re-run a page's blocks (the slow ones only with `slow`, and with `only` just those whose
    command or code holds it) and write the page back unless `check`. Returns the commands whose
    shown output changed. `folder`: run them there, and leave what they write, instead of in a
    temporary folder (a resumable command then goes on from what an earlier run left there)."""
    text = path.read_text(encoding="utf-8")
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    found = blocks(text, name)
    changed, pieces, last = [], [], 0
    namespace: dict = {}  # the page's Python blocks, as one notebook
    with (contextlib.nullcontext(str(folder)) if folder is not None
          else tempfile.TemporaryDirectory(prefix="kiai-docs-")) as tmp:
        for b in found:
            if b.slow and (not slow or only not in b.command + b.code):
                continue
            print(f"{name}: {b.command}", file=sys.stderr, flush=True)
            output = execute(b.code, namespace, Path(tmp)) if b.python else run(b, Path(tmp))
            if normalise(shown(b.body)) != normalise(output):
                changed.append(b.command)
            new = content(b, output)
            pieces += [text[last:b.start], new]
            last = b.end
    pieces.append(text[last:])
    new_text = "".join(pieces)
    if not check and new_text != text:
        path.write_text(new_text, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Re-run the commands of the generated blocks in README.md and docs/*.md.")
    ap.add_argument("pages", nargs="*", type=Path, help="pages to regenerate (default: README.md and docs/*.md)")
    ap.add_argument("--slow", action="store_true", help="also the slow blocks (speed tables; make docs)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block's output drifted")
    ap.add_argument("--only", default="", metavar="TEXT",
                    help="with --slow: of the slow blocks, only those whose command or code holds TEXT")
    ap.add_argument("--in", dest="folder", type=Path, metavar="DIR",
                    help="run the blocks in DIR and keep what they write there, instead of in a temporary folder: "
                         "a resumable slow block (kiai solve --bracket) then goes on from the table an earlier run "
                         "left there")
    args = ap.parse_args(argv)
    if args.folder is not None and not args.folder.is_dir():
        ap.exit(2, f"generate: --in {args.folder}: no such folder\n")
    todo = [p.resolve() for p in args.pages] or pages()
    drifted, failed = [], False
    for path in todo:
        try:
            changed = regenerate(path, args.slow, args.check, args.only, args.folder)
        except GenerationError as e:
            print(f"{path.relative_to(ROOT)}: {e}", file=sys.stderr)
            failed = True
            continue
        drifted += [f"{path.relative_to(ROOT)}: {c}" for c in changed]
    word = "drifted" if args.check else "changed"
    for d in drifted:
        print(f"{word}: {d}", file=sys.stderr)
    if failed:
        return 2
    return 1 if args.check and drifted else 0


if __name__ == "__main__":
    sys.exit(main())

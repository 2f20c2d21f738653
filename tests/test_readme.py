"""The command outputs that README.md and docs/*.md show are what the commands print today.

A generated block (docs/generate.py) is a `<!-- generated: kiai ARGS -->` comment, the command's
output in a fenced code block, and `<!-- end generated -->`; a `<!-- generated: python -->` block
shows what the ```python block above it prints (the Python API's examples, run as one notebook per
page). Each page's blocks are re-run here, in order, in a temporary folder of their own (a block
may read what an earlier one wrote), and compared line for line; only times, speeds and thread
counts are masked. Blocks marked
`<!-- generated (slow): ... -->` (speed tables) depend on the machine and are left to `make docs`.
When a change alters an output on purpose, `make docs` (or `.venv/bin/python docs/generate.py`)
rewrites the blocks.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from kiai.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = generate  # before it runs: its dataclass looks its module up
_spec.loader.exec_module(generate)

PAGES = {str(p.relative_to(ROOT)): generate.blocks(p.read_text(encoding="utf-8"), p.name) for p in generate.pages()}
QUICK = {name: [b for b in found if not b.slow] for name, found in PAGES.items()}


def test_the_readme_shows_generated_runs():
    assert QUICK["README.md"], "no <!-- generated: kiai ... --> block in README.md"


def test_every_block_shows_a_fenced_output():
    for name, found in PAGES.items():
        for b in found:
            assert b.body.count("```") >= 2 or b.slow, f"{name}: the block of {b.command!r} shows no code block"


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize("page", [name for name, found in QUICK.items() if found])
def test_generated_blocks_show_what_the_commands_print(capsys, monkeypatch, tmp_path, page):
    monkeypatch.chdir(tmp_path)
    for key, value in generate.ENV.items():
        monkeypatch.setenv(key, value)
    namespace: dict = {}
    for b in QUICK[page]:
        capsys.readouterr()
        if b.python:
            output = generate.execute(b.code, namespace, tmp_path)
        else:
            assert main(b.args) == 0, f"{page}: `{b.command}` failed"
            output = capsys.readouterr().out
        printed = generate.normalise(output).splitlines()
        quoted = generate.normalise(generate.shown(b.body)).splitlines()
        what = "the python block above it" if b.python else f"`{b.command}`"
        assert quoted == printed, f"{page}: {what} prints something else now (make docs rewrites the block)"


def test_the_api_page_runs_its_python():
    """docs/api.md's examples are generated: each python block's code is found, and they print."""
    found = [b for b in QUICK["docs/api.md"] if b.python]
    assert len(found) >= 3 and all("kiai." in b.code and generate.shown(b.body) for b in found)


def test_a_python_block_needs_its_code_above_it():
    page = "Text.\n<!-- generated: python -->\n```text\n1\n```\n<!-- end generated -->\n"
    with pytest.raises(generate.GenerationError, match="python fenced block just above"):
        generate.blocks(page)
    code = generate.blocks("```python\nprint(6 * 7)\n```\n\n" + page[len("Text.\n"):])[0].code
    assert generate.execute(code, {}, ROOT).strip() == "42"


def test_only_regenerates_the_slow_blocks_that_hold_its_text(tmp_path):
    """--slow --only TEXT: of the slow blocks, only those whose code holds TEXT run again."""
    block = "```python\nprint({})\n```\n<!-- generated (slow): python -->\n```text\nold\n```\n<!-- end generated -->\n"
    page = tmp_path / "page.md"
    page.write_text(block.format("'first'") + "\n" + block.format("'second'"), encoding="utf-8")
    assert generate.regenerate(page, slow=True, check=False, only="second") == ["python"]
    text = page.read_text(encoding="utf-8")
    assert "```text\nold\n```" in text and "```text\nsecond\n```" in text and "```text\nfirst" not in text


def test_blocks_run_in_the_folder_given_and_go_on_from_what_it_holds(tmp_path):
    """--in DIR: the blocks run there and what they write stays (a resumable command's table), so
    the next run reads what the last one left; without it, a temporary folder each time."""
    block = ("```python\nimport pathlib\nf = pathlib.Path('kept.txt')\nf.write_text(str(int(f.read_text()) + 1) "
             "if f.exists() else '1')\nprint(f.read_text())\n```\n<!-- generated (slow): python -->\n```text\n"
             "old\n```\n<!-- end generated -->\n")
    page = tmp_path / "page.md"
    page.write_text(block, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    for expected in ("1", "2"):
        generate.regenerate(page, slow=True, check=False, folder=work)
        assert f"```text\n{expected}\n```" in page.read_text(encoding="utf-8")
    generate.regenerate(page, slow=True, check=False)
    assert "```text\n1\n```" in page.read_text(encoding="utf-8") and (work / "kept.txt").read_text() == "2"
    with pytest.raises(SystemExit) as e:
        generate.main(["--in", str(tmp_path / "missing"), str(page)])
    assert e.value.code == 2


def test_normalise_masks_times_speeds_and_threads_only():
    line = "sweep: 4 configurations, 4,000 games; 4,000 played in 1.1 s (3,767 games/s on 2 threads)"
    assert generate.normalise(line) == "sweep: 4 configurations, 4,000 games; 4,000 played in # s (# games/s on # threads)"
    assert generate.normalise("win rate   4.600%   95% CI [3.766%, 5.608%] (wilson)") == \
        "win rate   4.600%   95% CI [3.766%, 5.608%] (wilson)"


def test_the_make_targets_the_pages_name_exist():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.M))
    for name in PAGES:
        text = (ROOT / name).read_text(encoding="utf-8")
        for target in re.findall(r"`make ([a-z][a-z-]*)", text):
            assert target in targets, f"{name} names `make {target}`, which the Makefile lacks"


def test_the_readme_starts_with_make_report():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)```", text, flags=re.S)
    assert first and first.group(1).lstrip().startswith("make report"), "README.md's first command is not `make report`"
    assert "make test" in first.group(1)


def test_the_pages_speak_of_kiai_not_of_its_issues():
    """A user's manual speaks of the project; the issues that changed it belong to CHANGELOG.md
    and the commit messages."""
    for name in PAGES:
        text = (ROOT / name).read_text(encoding="utf-8")
        said = [line for line in text.splitlines() if re.search(r"\bissues?\b", line, flags=re.I)]
        assert not said, f"{name} speaks of an issue: {said[0].strip()}"

"""The report checked in headless Chromium through Playwright (tests/harness.py): the checker finds
what it should on hand-written pages, and the report of a tiny sweep passes it.

pytest-playwright's `browser` fixture drives the system's Chromium (tests/conftest.py): left out
where Chromium or Playwright is missing, with one line saying how to install them; .ci/run
installs them and makes a missing one fail."""

from __future__ import annotations

import struct
import zlib

import pytest

import browser as harness  # tests/browser.py: a tool of the tests and the Makefile, not of kiai


def _png(path, width=40, height=30):
    """A small grey PNG, written with the standard library."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))  # fmt: skip
    path.write_bytes(png)


HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>body {{ max-width: 50rem; margin: 2rem auto; padding: 0 1rem; }} .box {{ width: 12rem; overflow: hidden; }}</style>
</head>
<body>
"""

BAD = HEAD.format(title="bad") + """<h1>Bad page</h1>
<h2>Wide things</h2>
<div id="huge" class="banner" style="width: 3000px">three thousand pixels</div>
<p style="margin-right: -12rem">past the column</p>
<div class="box"><span style="white-space: nowrap">a line far too long for its hidden-overflow box, cut off</span></div>
<details><summary>all rows</summary><table id="rows"><tr><td style="min-width: 2000px">a reader opens it</td></tr></table></details>
<h2>Pictures</h2>
<img src="no-such-chart.png" alt="a chart that is not there">
<p><a href="#no-such-section">contents</a> <a href="no-such-table.csv">download</a></p>
<script>console.error("the chart data is missing");</script>
<script>notDefinedAnywhere();</script>
</body>
</html>
"""

# fine, though it has what a naive check trips over: a long page (a vertical scrollbar), a wide
# table inside a scrolling box, a collapsed block, images, links to anchors and files beside it
CLEAN = HEAD.format(title="clean") + """<h1 id="top">Clean page</h1>
<nav><a href="#tables">tables</a> <a href="data.csv">data</a></nav>
<figure><img src="chart.png" alt="a chart" style="max-width: 100%"></figure>
<div style="height: 3000px">tall</div>
<h2 id="tables">Tables</h2>
<div style="overflow-x: auto"><table><tr><td style="min-width: 3000px">wide, but it scrolls in its box</td></tr></table></div>
<details><summary>more</summary><p>hidden until opened, and it fits</p><img src="chart.png" alt="another"></details>
<script>console.log("not an error");</script>
</body>
</html>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    (folder / "bad.html").write_text(BAD)
    (folder / "clean.html").write_text(CLEAN)
    _png(folder / "chart.png")
    (folder / "data.csv").write_text("a,b\n1,2\n")
    return folder


def test_problems_are_found(pages, browser):
    problems = harness.check_page(pages / "bad.html", width=1400, browser=browser)
    text = "\n".join(problems)

    def one(*words):
        hits = [p for p in problems if all(w in p for w in words)]
        assert len(hits) == 1, f"expected one problem with {words}, got:\n{text}"
        return hits[0]

    wide = one('<div id="huge" class="banner">', "3000 px wide", "past the right edge")
    assert '"three thousand pixels"' in wide and 'under "Wide things"' in wide
    one("<p>", "past the column", "sticking out of the text column")
    one("<span>", 'cut off at', '<div class="box">')
    one('<table id="rows">', "past the right edge")  # collapsed, but a reader can open it
    one("image failed to load: no-such-chart.png", "a chart that is not there")
    one("console.error: the chart data is missing")
    # the page's own line numbers: nothing is injected into it
    line = BAD.splitlines().index("<script>notDefinedAnywhere();</script>") + 1
    one("uncaught error:", "notDefinedAnywhere", f"(bad.html:{line})")
    one("missing anchor: #no-such-section")
    one("missing file: no-such-table.csv")
    assert len(problems) == 9, text


def test_clean_page_has_no_problems(pages, browser):
    for width in harness.WIDTHS:
        assert harness.check_page(pages / "clean.html", width=width, browser=browser) == []


def test_screenshot_is_the_whole_page(pages, tmp_path, browser):
    png = harness.screenshot(pages / "clean.html", tmp_path / "shot.png", width=1000, browser=browser)
    width, height = struct.unpack(">II", png.read_bytes()[16:24])
    assert width == 1000 and height > 3000
    # nothing is written beside the page
    left = {p.name for p in pages.iterdir()} - {"bad.html", "chart.png", "clean.html", "data.csv"}
    assert all(name.startswith("screenshot-") for name in left), left


def test_command_prints_problems_and_saves_screenshots(pages, capsys, browser, monkeypatch):
    monkeypatch.setattr(harness, "_running", browser)  # the command's Chromium is the tests' (Playwright runs one)
    assert harness.main([str(pages / "bad.html"), "--width", "1400"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 9 and all(line.startswith("1400 px: ") for line in lines), out
    assert (pages / "screenshot-1400.png").is_file()
    (pages / "screenshot-1400.png").unlink()
    assert harness.main([str(pages / "clean.html"), "--width", "1000", "--no-screenshots"]) == 0
    out, _ = capsys.readouterr()
    assert out == f"{pages / 'clean.html'}: no problems at 1000 px\n"
    assert not list(pages.glob("screenshot-*"))


def test_command_one_line_errors(tmp_path, capsys, monkeypatch):
    assert harness.main([str(tmp_path / "missing.html")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == f"kiai: error: no such file: {tmp_path / 'missing.html'}"
    page = tmp_path / "page.html"
    page.write_text("<p>x</p>")
    monkeypatch.setattr(harness, "BINARIES", ())
    monkeypatch.setattr(harness, "_running", None)  # as on a machine without Chromium: none started
    assert harness.main([str(page)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "apt-get install chromium" in err
    assert "pip install pytest-playwright" in err


def test_missing_playwright_is_one_line(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_playwright(name, *args, **kw):
        if name.startswith("playwright"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_playwright)
    missing = harness.available()
    assert missing is not None and "\n" not in missing and "pip install pytest-playwright" in missing


def test_missing_pytest_playwright_is_one_line(monkeypatch):
    import conftest

    monkeypatch.setattr(conftest, "pytest_playwright", None)
    missing = conftest._browser_missing()
    assert "pytest-playwright is not installed" in missing and "\n" not in missing
    assert "pip install pytest-playwright" in missing


# ----------------------------------------------------------------- the report of a tiny sweep


@pytest.mark.usefixtures("engine")
def test_report_of_a_tiny_sweep_passes(tmp_path, browser):
    from kiai.cli.main import main

    # 2 and 7 samurai at two levels, and every seating of two 4-samurai line-ups (the seating
    # tables); a few hundred games each: the layout, not the numbers, is under test
    small = ["--games", "200", "--lineups", "sample:2"]
    teams, seatings = tmp_path / "teams.parquet", tmp_path / "seatings.parquet"
    assert main(["sweep", "--out", str(teams), "-d", "easy,normal", "--players", "2,7", *small]) == 0
    assert main(["sweep", "--out", str(seatings), "-d", "easy", "--players", "4", "--seatings", "all", *small]) == 0
    out = tmp_path / "report"
    assert main(["report", str(teams), str(seatings), "--out", str(out)]) == 0
    page = out / "report.html"
    assert "<img" in page.read_text()  # else the image check had nothing to check
    for width in harness.WIDTHS:
        problems = harness.check_page(page, width=width, browser=browser)
        assert problems == [], f"{width} px:\n" + "\n".join(problems)

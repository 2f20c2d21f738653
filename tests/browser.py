"""A report page checked in headless Chromium: layout, images, script errors.

`check_page` renders a page at a given window width and lists what a reader would see go wrong:
an element wider than the page or sticking out of it (past the window, out of the text column,
or cut off by a box that hides its overflow), an image that did not load, a console error or an
uncaught script error, and a link to a missing file or anchor. `screenshot` saves the whole page
as a PNG for a person to look at.

Only the `chromium` binary is needed (Debian: apt-get install chromium): the page is copied into
a temporary folder with a <base> pointing back at its own folder (so its images resolve) and a
small script injected before any of its own; Chromium runs it with --dump-dom, and the script
leaves its measurements in the dumped DOM as JSON.

    python tests/browser.py kiai-report/report.html   # 1,400 and 1,920 px, screenshots beside it

exits 1 when it finds problems (one a line), 2 with one line when the page or Chromium is missing.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTHS = (1400, 1920)
HEIGHT = 900
# Chromium draws a screenshot as one surface; taller pages are cut at this height
MAX_SHOT_HEIGHT = 16384
RESULT_ID = "kiai-browser-check"
# subpixel layout: a box 0.4 px past an edge is rounding, not overflow
SLACK = 1.0


class BrowserMissing(RuntimeError):
    """No Chromium on PATH."""

    def __init__(self):
        super().__init__("Chromium is not installed (no chromium on PATH): apt-get install chromium")


class BrowserError(RuntimeError):
    """Chromium ran but gave no result."""


def find_chromium() -> str:
    for name in BINARIES:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserMissing()


# One line of JavaScript (the page's own line numbers stay those of the file, for its error
# messages). It records console.error, uncaught errors and failed resources from the start; at
# load it opens every <details> (a reader can) and waits for images and fonts, then measures.
_SCRIPT = r"""
(function () {
  "use strict";
  var errors = [], failed = [];
  function show(a) {
    if (a instanceof Error) { return String(a.stack || a); }
    if (a !== null && typeof a === "object") { try { return JSON.stringify(a); } catch (e) { return String(a); } }
    return String(a);
  }
  var original = console.error;
  console.error = function () {
    errors.push("console.error: " + Array.prototype.map.call(arguments, show).join(" "));
    return original.apply(console, arguments);
  };
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && t.tagName) {
      failed.push({tag: t.tagName.toLowerCase(), url: t.getAttribute("src") || t.getAttribute("href") || ""});
      return;
    }
    var where = e.filename ? " (" + e.filename.split("/").pop() + ":" + e.lineno + ")" : "";
    errors.push("uncaught error: " + (e.message || show(e.error)) + where);
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    errors.push("unhandled promise rejection: " + show(e.reason && (e.reason.message || e.reason)));
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    document.querySelectorAll("img[loading=lazy]").forEach(function (i) { i.loading = "eager"; });
  });
  window.addEventListener("load", function () {
    var waits = Array.prototype.filter.call(document.images, function (i) { return !i.complete; })
      .map(function (i) {
        return new Promise(function (ok) { i.addEventListener("load", ok); i.addEventListener("error", ok); });
      });
    if (document.fonts) { waits.push(document.fonts.ready); }
    Promise.all(waits).then(function () { setTimeout(finish, 0); }, function () { setTimeout(finish, 0); });
  });

  function px(v) { return parseFloat(v) || 0; }
  function short(text, n) {
    text = (text || "").replace(/\s+/g, " ").trim();
    return text.length > n ? text.slice(0, n) + "\u2026" : text;
  }
  function describe(el) {
    var s = "<" + el.tagName.toLowerCase();
    if (el.id) { s += ' id="' + el.id + '"'; }
    var cls = el.getAttribute("class");
    if (cls) { s += ' class="' + short(cls, 40) + '"'; }
    s += ">";
    var text = short(el.textContent, 40) || short(el.getAttribute("alt") || el.getAttribute("src") || "", 40);
    return text ? s + ' "' + text + '"' : s;
  }
  function heading(el) {
    var last = null, hs = document.querySelectorAll("h1, h2, h3, h4");
    for (var i = 0; i < hs.length; i++) {
      if (hs[i] === el || hs[i].contains(el)) { break; }
      if (hs[i].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) { last = hs[i]; } else { break; }
    }
    return last ? short(last.textContent, 60) : "";
  }
  function finish() {
    var root = document.documentElement, body = document.body;
    var out = {width: root.clientWidth, scrollWidth: root.scrollWidth, height: root.scrollHeight,
               errors: errors, failed: failed, offenders: [], images: [], anchors: [], links: []};
    if (!body) { write(out); return; }
    var vw = root.clientWidth, bs = getComputedStyle(body), br = body.getBoundingClientRect();
    var colLeft = br.left + px(bs.borderLeftWidth) + px(bs.paddingLeft);
    var colRight = br.right - px(bs.borderRightWidth) - px(bs.paddingRight);
    out.column = [colLeft, colRight];
    var SLACK = %(slack)s, hits = new Map();

    function clipOf(el) {
      for (var a = el; a && a !== root; a = a.parentElement) {
        var o = getComputedStyle(a).overflowX;
        if (o !== "visible") { return a; }
      }
      return null;
    }
    function test(el, start, r) {
      if (r.width === 0 && r.height === 0) { return; }
      var clip = clipOf(start), kind = null, limit = null;
      if (clip) {
        var o = getComputedStyle(clip).overflowX;
        if (o === "auto" || o === "scroll") { return; }
        var cr = clip.getBoundingClientRect();
        if (r.right > cr.right + SLACK) { kind = "cut"; limit = cr.right; }
        else if (r.left < cr.left - SLACK) { kind = "cut-left"; limit = cr.left; }
        if (kind) { kind = {kind: kind, by: describe(clip)}; }
      } else if (r.right > vw + SLACK) { kind = {kind: "window"}; limit = vw; }
      else if (r.left < -SLACK) { kind = {kind: "window-left"}; limit = 0; }
      else if (r.right > colRight + SLACK) { kind = {kind: "column"}; limit = colRight; }
      else if (r.left < colLeft - SLACK) { kind = {kind: "column-left"}; limit = colLeft; }
      if (!kind) { return; }
      var hit = hits.get(el);
      if (!hit || r.right - r.left > hit.right - hit.left) {
        kind.left = r.left; kind.right = r.right; kind.width = el.getBoundingClientRect().width; kind.limit = limit;
        hits.set(el, kind);
      }
    }
    function skipped(el) {
      var svg = el.closest("svg");
      return (svg && svg !== el) || /^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/i.test(el.tagName);
    }
    body.querySelectorAll("*").forEach(function (el) {
      if (!skipped(el)) { test(el, el.parentElement, el.getBoundingClientRect()); }
    });
    var walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT), node, range = document.createRange();
    while ((node = walker.nextNode())) {
      var parent = node.parentElement;
      if (!parent || !node.data.trim() || skipped(parent)) { continue; }
      range.selectNodeContents(node);
      test(parent, parent, range.getBoundingClientRect());
    }
    hits.forEach(function (hit, el) {
      for (var a = el.parentElement; a; a = a.parentElement) { if (hits.has(a)) { return; } }
      var inner = 0;
      hits.forEach(function (_, other) { if (other !== el && el.contains(other)) { inner += 1; } });
      hit.element = describe(el); hit.heading = heading(el); hit.inner = inner;
      out.offenders.push(hit);
    });
    Array.prototype.forEach.call(document.images, function (img) {
      if (!img.complete || img.naturalWidth === 0) {
        out.images.push({src: img.getAttribute("src") || "", alt: img.getAttribute("alt") || ""});
      }
    });
    document.querySelectorAll("a[href]").forEach(function (a) {
      var href = a.getAttribute("href");
      if (href.charAt(0) === "#") {
        var id = decodeURIComponent(href.slice(1));
        if (id && !document.getElementById(id) && !document.getElementsByName(id).length) {
          out.anchors.push({href: href, text: short(a.textContent, 40)});
        }
      } else if (a.protocol === "file:") {
        out.links.push({href: href, url: a.href, text: short(a.textContent, 40)});
      }
    });
    write(out);
  }
  function write(out) {
    var s = document.createElement("script");
    s.type = "application/json"; s.id = "%(id)s";
    s.textContent = JSON.stringify(out).replace(/</g, "\\u003c");
    document.documentElement.appendChild(s);
  }
})();
"""


def _script() -> str:
    lines = (line.strip() for line in _SCRIPT.strip().splitlines())
    return " ".join(line for line in lines if line) % {"slack": SLACK, "id": RESULT_ID}


def _inject(text: str, page_dir: Path, script: bool) -> str:
    """The page with a <base> back to its folder (and the checking script) at the start of <head>:
    after a leading <meta charset>, which must stay near the top of the file."""
    base = f'<base href="{html.escape(page_dir.as_uri() + "/")}">'
    tag = base + (f"<script>{_script()}</script>" if script else "")
    head = re.search(r"<head\b[^>]*>", text, re.I)
    if head:
        pos = head.end()
        charset = re.compile(r"\s*<meta\s+charset\s*=[^>]*>", re.I).match(text, pos)
        if charset:
            pos = charset.end()
    else:
        start = re.search(r"<html\b[^>]*>", text, re.I) or re.match(r"\s*<!DOCTYPE[^>]*>", text, re.I)
        pos = start.end() if start else 0
    return text[:pos] + tag + text[pos:]


def _chromium(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """Chromium headless with its own throw-away profile (other runs may be going at the same time);
    its whole process group is killed when it overruns."""
    cmd = [find_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--hide-crash-restore-bubble", *args]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise BrowserError(f"Chromium did not finish in {timeout:g} s") from None
    return subprocess.CompletedProcess(cmd, proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


def _render(html_path: Path, width: int, height: int, timeout: float, *, shot: Path | None = None) -> dict | None:
    """Load the page in Chromium at width x height: its measurements (shot=None), or a screenshot."""
    page = Path(html_path)
    if not page.is_file():
        raise FileNotFoundError(f"no such file: {page}")
    page = page.resolve()
    text = page.read_bytes().decode("utf-8", errors="surrogateescape")
    with tempfile.TemporaryDirectory(prefix="kiai-browser-", ignore_cleanup_errors=True) as tmp:
        # the copy keeps the page's name, so that error messages name the page's file
        copy = Path(tmp) / page.name
        copy.write_bytes(_inject(text, page.parent, script=shot is None).encode("utf-8", errors="surrogateescape"))
        args = [f"--user-data-dir={Path(tmp) / 'profile'}", f"--window-size={width},{height}"]
        if shot is not None:
            done = _chromium([*args, f"--screenshot={shot}", copy.as_uri()], timeout)
            if not shot.is_file():
                raise BrowserError(f"Chromium wrote no screenshot of {page}: {_last_line(done.stderr)}")
            return None
        done = _chromium([*args, "--virtual-time-budget=10000", "--dump-dom", copy.as_uri()], timeout)
    found = re.search(rf'<script type="application/json" id="{RESULT_ID}">(.*?)</script>', done.stdout, re.S)
    if not found:
        raise BrowserError(f"Chromium gave no result for {page} (exit {done.returncode}): {_last_line(done.stderr)}")
    return json.loads(found.group(1))


def _last_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip() and "dbus" not in line]
    return lines[-1] if lines else "nothing on standard error"


def measure(html_path, width: int = 1400, height: int = HEIGHT, timeout: float = 120) -> dict:
    """What the injected script measured (window and page width, page height, offending elements,
    broken images, errors, links), as JSON data."""
    return _render(Path(html_path), width, height, timeout)


def problems_from(result: dict) -> list[str]:
    """One sentence per problem in a `measure` result."""
    found = []
    for hit in result["offenders"]:
        where = f' (under "{hit["heading"]}")' if hit["heading"] else ""
        inner = f"; {hit['inner']} element(s) inside it too" if hit["inner"] else ""
        size = f"{hit['width']:.0f} px wide"
        kind, limit = hit["kind"], hit["limit"]
        if kind.endswith("-left"):
            edge = f"starts at {hit['left']:.0f} px"
        else:
            edge = f"reaches {hit['right']:.0f} px"
        past = {
            "window": f"past the right edge of the {limit:.0f} px page",
            "window-left": "left of the page",
            "column": f"sticking out of the text column, which ends at {limit:.0f} px",
            "column-left": f"sticking out of the text column, which starts at {limit:.0f} px",
            "cut": f"cut off at {limit:.0f} px by {hit.get('by')}",
            "cut-left": f"cut off at {limit:.0f} px by {hit.get('by')}",
        }[kind]
        found.append(f"{hit['element']}{where} is {size} and {edge}, {past}{inner}")
    if result["scrollWidth"] > result["width"] and not any(h["kind"] == "window" for h in result["offenders"]):
        found.append(f"the page scrolls sideways: {result['scrollWidth']} px of content in a {result['width']} px page")
    for img in result["images"]:
        alt = f' ("{img["alt"][:40]}")' if img["alt"] else ""
        found.append(f"image failed to load: {img['src']}{alt}")
    for res in result["failed"]:
        if res["tag"] != "img":  # images are listed above, once
            found.append(f"failed to load: <{res['tag']}> {res['url']}")
    found += result["errors"]
    for a in result["anchors"]:
        found.append(f'link to a missing anchor: {a["href"]} ("{a["text"]}")')
    for a in result["links"]:
        parsed = urllib.parse.urlparse(a["url"])
        target = Path(urllib.parse.unquote(parsed.path))
        if not target.exists():
            found.append(f'link to a missing file: {a["href"]} ("{a["text"]}")')
    return found


def check_page(html_path, width: int = 1400, height: int = HEIGHT, timeout: float = 120) -> list[str]:
    """The problems Chromium shows on the page at this window width (empty when there are none):
    elements wider than the page or sticking out of it, images that failed to load, console and
    uncaught errors, links to missing files or anchors. Collapsed <details> are opened first.
    FileNotFoundError for a missing page, BrowserMissing without Chromium."""
    return problems_from(measure(html_path, width, height, timeout))


def screenshot(html_path, png_path, width: int = 1400, height: int | None = None, timeout: float = 120) -> Path:
    """A PNG of the page as it opens at this width, the whole page tall unless `height` is given
    (at most MAX_SHOT_HEIGHT px)."""
    if height is None:
        height = measure(html_path, width, timeout=timeout)["height"]
    png = Path(png_path).resolve()
    png.unlink(missing_ok=True)  # a stale picture must not pass for a new one
    _render(Path(html_path), width, max(100, min(int(height), MAX_SHOT_HEIGHT)), timeout, shot=png)
    return png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tests/browser.py",
        description="Check a report page in headless Chromium; one problem a line, exit 1 when any.")
    parser.add_argument("page", type=Path, help="the page, e.g. kiai-report/report.html")
    parser.add_argument("--width", type=int, action="append",
                        help=f"window width in px; repeatable (default: {', '.join(map(str, WIDTHS))})")
    parser.add_argument("--no-screenshots", action="store_true",
                        help="do not save screenshot-WIDTH.png beside the page")
    args = parser.parse_args(argv)
    widths = args.width or list(WIDTHS)
    count = 0
    try:
        for width in widths:
            result = measure(args.page, width)
            for problem in problems_from(result):
                print(f"{width} px: {problem}")
                count += 1
            if not args.no_screenshots:
                shot = screenshot(args.page, args.page.parent / f"screenshot-{width}.png", width, result["height"])
                print(f"{width} px: screenshot {shot}", file=sys.stderr)
    except (FileNotFoundError, BrowserMissing, BrowserError) as e:
        print(f"kiai: error: {e}", file=sys.stderr)
        return 2
    if count:
        print(f"{args.page}: {count} problem(s)", file=sys.stderr)
        return 1
    print(f"{args.page}: no problems at {', '.join(f'{w} px' for w in widths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A report page checked in headless Chromium, driven by Playwright: layout, images, script errors,
links. The one browser harness of the tests, of `make report-check` and of docs/report_images.py.

`check_page` opens a page at a given window width and lists what a reader would see go wrong: an
element wider than the page or sticking out of it (past the window, out of the text column, or cut
off by a box that hides its overflow; a box that scrolls its own overflow is fine), an image that
did not load, a console error or an uncaught script error, and a link to a missing file or anchor.
`screenshot` saves the whole page as a PNG; `load` opens a page in a Playwright page (the tests' are
pytest-playwright's `page` fixture: tests/conftest.py), `open_page` in a browser of its own or given.

Playwright drives the system's Chromium (Debian: apt-get install chromium); it downloads no browser
of its own. Without either, BrowserMissing says in one line how to install them.

    python tests/browser.py kiai-report/report.html   # 390, 1,400 and 1,920 px, screenshots beside it

exits 1 when it finds problems (one a line), 2 with one line when the page, Chromium or Playwright
is missing.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import urllib.parse
from contextlib import contextmanager, nullcontext
from pathlib import Path

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# a phone, a laptop, a wide screen
WIDTHS = (390, 1400, 1920)
HEIGHT = 900
# subpixel layout: a box 0.4 px past an edge is rounding, not overflow
SLACK = 1.0
# headless, and nothing that reaches the network: the page must work offline
LAUNCH_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync")
INSTALL = "apt-get install chromium; pip install pytest-playwright (make setup installs it and Playwright, with the test extra)"


class BrowserMissing(RuntimeError):
    """No Chromium on PATH, or no Playwright to drive it."""

    def __init__(self, what: str = "Chromium is not installed (no chromium on PATH)"):
        super().__init__(f"{what}: {INSTALL}")


class BrowserError(RuntimeError):
    """Chromium ran but gave no result."""


def find_chromium() -> str:
    for name in BINARIES:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserMissing()


def _sync_playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserMissing("Playwright is not installed") from None
    return sync_playwright


def available() -> str | None:
    """None where the browser tests can run; else one line saying what is missing and how to install it."""
    try:
        find_chromium()
        _sync_playwright()
    except BrowserMissing as e:
        return str(e)
    return None


_running = None  # the Chromium of the outermost chromium() call: Playwright's sync API runs one at a time


@contextmanager
def chromium():
    """A headless Chromium (the system's binary) under Playwright, closed on leaving; inside another
    chromium() call, that one's browser."""
    global _running
    if _running is not None:
        yield _running
        return
    path = find_chromium()
    with _sync_playwright()() as pw:
        try:
            browser = pw.chromium.launch(executable_path=path, args=list(LAUNCH_ARGS))
        except Exception as e:  # Playwright's own Error: the binary would not start
            raise BrowserError(f"Chromium ({path}) did not start: {str(e).splitlines()[0]}") from None
        _running = browser
        try:
            yield browser
        finally:
            _running = None
            browser.close()


# Installed before any script of the page: it records console.error, uncaught errors and resources
# that failed to load, from the start.
_CAPTURE = r"""
(function () {
  "use strict";
  if (window.__kiaiCheck) { return; }  // installed once, however often a page of the tests loads it
  var state = window.__kiaiCheck = {errors: [], failed: []};
  function show(a) {
    if (a instanceof Error) { return String(a.stack || a); }
    if (a !== null && typeof a === "object") { try { return JSON.stringify(a); } catch (e) { return String(a); } }
    return String(a);
  }
  var original = console.error;
  console.error = function () {
    state.errors.push("console.error: " + Array.prototype.map.call(arguments, show).join(" "));
    return original.apply(console, arguments);
  };
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && t.tagName) {
      state.failed.push({tag: t.tagName.toLowerCase(), url: t.getAttribute("src") || t.getAttribute("href") || ""});
      return;
    }
    var where = e.filename ? " (" + e.filename.split("/").pop().split("#")[0] + ":" + e.lineno + ")" : "";
    state.errors.push("uncaught error: " + (e.message || show(e.error)) + where);
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    state.errors.push("unhandled promise rejection: " + show(e.reason && (e.reason.message || e.reason)));
  });
})();
"""

# Run once the page has loaded: it opens every <details> (a reader can), waits for images and
# fonts, then measures every element and text against the window, the text column and any box
# that clips it.
_MEASURE = r"""
async (slack) => {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  document.querySelectorAll("img[loading=lazy]").forEach(function (i) { i.loading = "eager"; });
  var waits = Array.prototype.filter.call(document.images, function (i) { return !i.complete; })
    .map(function (i) {
      return new Promise(function (ok) { i.addEventListener("load", ok); i.addEventListener("error", ok); });
    });
  if (document.fonts) { waits.push(document.fonts.ready); }
  await Promise.all(waits).catch(function () {});
  await new Promise(function (ok) { requestAnimationFrame(function () { setTimeout(ok, 0); }); });
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
               errors: window.__kiaiCheck.errors, failed: window.__kiaiCheck.failed, offenders: [], images: [], anchors: [], links: []};
    if (!body) { return out; }
    var vw = root.clientWidth, bs = getComputedStyle(body), br = body.getBoundingClientRect();
    var colLeft = br.left + px(bs.borderLeftWidth) + px(bs.paddingLeft);
    var colRight = br.right - px(bs.borderRightWidth) - px(bs.paddingRight);
    out.column = [colLeft, colRight];
    var SLACK = slack, hits = new Map();

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
    return out;
  }
  return finish();
}
"""


def load(page, html_path, width: int = 1400, height: int = HEIGHT, fragment: str = "", timeout: float = 60):
    """Open the page in a Playwright `page` at width x height (with `fragment`, e.g. '#table=...'),
    its errors recorded from its start; the page's earlier document is left first, so that a new
    fragment loads it afresh. FileNotFoundError for a missing page."""
    page_path = Path(html_path)
    if not page_path.is_file():
        raise FileNotFoundError(f"no such file: {page_path}")
    page.set_default_timeout(timeout * 1000)
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(_CAPTURE)
    if page.url != "about:blank":
        page.goto("about:blank")
    page.goto(page_path.resolve().as_uri() + fragment, wait_until="load")
    return page


@contextmanager
def open_page(html_path, width: int = 1400, height: int = HEIGHT, fragment: str = "", browser=None,
              timeout: float = 60):
    """The page loaded (load) in a context of its own, closed on leaving; in a Chromium of its own
    unless `browser` is given."""
    if not Path(html_path).is_file():
        raise FileNotFoundError(f"no such file: {html_path}")
    with (chromium() if browser is None else nullcontext(browser)) as b:
        context = b.new_context(viewport={"width": width, "height": height})
        try:
            yield load(context.new_page(), html_path, width, height, fragment, timeout)
        finally:
            context.close()


def measure_page(page) -> dict:
    """What _MEASURE finds on a loaded page (open_page): window and page width, page height,
    offending elements, broken images, errors, links."""
    return page.evaluate(_MEASURE, SLACK)


def measure(html_path, width: int = 1400, height: int = HEIGHT, timeout: float = 60, browser=None) -> dict:
    with open_page(html_path, width, height, browser=browser, timeout=timeout) as page:
        return measure_page(page)


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


def check_page(html_path, width: int = 1400, height: int = HEIGHT, timeout: float = 60, browser=None) -> list[str]:
    """The problems Chromium shows on the page at this window width (empty when there are none):
    elements wider than the page or sticking out of it, images that failed to load, console and
    uncaught errors, links to missing files or anchors. Collapsed <details> are opened first.
    FileNotFoundError for a missing page, BrowserMissing without Chromium or Playwright."""
    return problems_from(measure(html_path, width, height, timeout, browser))


def screenshot(html_path, png_path, width: int = 1400, height: int | None = None, fragment: str = "",
               browser=None) -> Path:
    """A PNG of the page as it opens at this width (with `fragment`): the whole page, or the first
    `height` px of it."""
    png = Path(png_path).resolve()
    png.unlink(missing_ok=True)  # a stale picture must not pass for a new one
    with open_page(html_path, width, height or HEIGHT, fragment, browser) as page:
        page.screenshot(path=str(png), full_page=height is None)
    if not png.is_file():
        raise BrowserError(f"Chromium wrote no screenshot of {html_path}")
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
        if not args.page.is_file():
            raise FileNotFoundError(f"no such file: {args.page}")
        with chromium() as browser:
            for width in widths:
                for problem in check_page(args.page, width, browser=browser):
                    print(f"{width} px: {problem}")
                    count += 1
                if not args.no_screenshots:
                    shot = screenshot(args.page, args.page.parent / f"screenshot-{width}.png", width, browser=browser)
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

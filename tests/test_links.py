"""Every relative link of README.md and docs/*.md leads to a file of the repository.

Markdown links and images (`[text](path)`, `![alt](path)`, `[name]: path`) and HTML `href`/`src`
attributes are checked; links to web addresses and anchors (`#section`, the part after `#`) are
not. Code blocks and code spans are skipped: what they hold is text, not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", flags=re.S | re.M)
_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", flags=re.S)
_INLINE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")  # also an image inside a link
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", flags=re.M)
_HTML = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")


def links(text: str) -> list[str]:
    """The link targets of a markdown text, outside code."""
    text = _SPAN.sub("", _FENCE.sub("", text))
    return [m.group(1) for pattern in (_INLINE, _REFERENCE, _HTML) for m in pattern.finditer(text)]


def relative(target: str) -> str | None:
    """The file part of a relative link, or None for a web address, mail or bare anchor."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I) or target.startswith(("#", "//")):
        return None
    return target.split("#", 1)[0].split("?", 1)[0] or None


def test_the_pages_exist():
    assert (ROOT / "docs" / "index.md") in PAGES


def test_links_are_found():
    text = "[a](x.md) ![b](img/c.png \"title\") [![d](e.png)](e.svg) `[f](no.md)` <a href='g.md#h'>\n[i]: j.md\n" \
           "```\n[k](no.md)\n```\n[l](https://example.org) [m](#anchor)"
    assert [t for t in map(relative, links(text)) if t] == ["x.md", "img/c.png", "e.png", "e.svg", "j.md", "g.md"]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_lead_to_files_of_the_repository(page):
    bad = []
    for target in links(page.read_text(encoding="utf-8")):
        path = relative(target)
        if path is None:
            continue
        where = (page.parent / path).resolve()
        if not where.is_relative_to(ROOT):
            bad.append(f"{target} (outside the repository)")
        elif not where.exists():
            bad.append(f"{target} (no such file)")
    assert not bad, f"{page.relative_to(ROOT)}: broken links: {', '.join(bad)}"

"""The report's page as blocks, and the blocks rendered as Markdown and as HTML: the page is built
once (Page) and rendered twice, so the two versions cannot drift apart."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd

from kiai.reports.findings.rows import NoChartData
from kiai.reports.page.charts import place_all_labels
from kiai.reports.files import atomic_write

IMAGE_FORMATS = ("png", "svg")
PNG_DPI = 150
CSS_PX_PER_INCH = 96  # an image is shown at its figure's size, so that its text reads at the size set


class Page:
    """The blocks of the page, and the files written beside it."""

    def __init__(self, out: Path):
        self.out, self.blocks, self.written = out, [], {}

    def add(self, *blocks: tuple) -> None:
        self.blocks.extend(blocks)

    def figure(self, stem: str, fig, alt: str) -> None:
        # a chart's labels are placed apart here, where every chart passes: no label prints over another
        place_all_labels(fig)
        for fmt in IMAGE_FORMATS:
            path = self.out / f"{stem}.{fmt}"
            atomic_write(path, lambda tmp, fmt=fmt: fig.savefig(tmp, format=fmt, dpi=PNG_DPI if fmt == "png" else None))
            self.written[path.name] = path
        self.add(("img", stem, alt, round(float(fig.get_size_inches()[0]) * CSS_PX_PER_INCH)))

    def csv(self, name: str, table: pd.DataFrame, what: str) -> None:
        path = self.out / name
        atomic_write(path, lambda tmp: table.to_csv(tmp, index=False))
        self.written[name] = path
        self.add(("csv", name, what))

    def chart(self, stem: str, plot, alt: str, *args) -> bool:
        """Draw `plot(*args)` as `stem`, or a note saying why it was not drawn."""
        try:
            fig = plot(*args)
        except NoChartData as exc:
            self.add(("note", f"Not drawn: {exc}."))
            return False
        self.figure(stem, fig, alt)
        return True


def slug(text: str) -> str:
    """A heading's anchor, as GitHub makes it (lower case, punctuation dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _toc(blocks: list[tuple]) -> list[tuple[int, str]]:
    return [(2 if kind == "h2" else 3, rest[0]) for kind, *rest in blocks if kind in ("h2", "h3")]


def md(text) -> str:
    """Text for Markdown, which passes HTML through: a '<' that could open a tag (a level or a
    title holding <script>) is written as an entity, as report.html escapes it."""
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", str(text))


def to_markdown(blocks: list[tuple]) -> str:
    lines: list[str] = []
    for kind, *rest in blocks:
        if kind == "h1":
            lines += [f"# {md(rest[0])}", ""]
        elif kind in ("h2", "h3"):
            lines += [f"{'#' * int(kind[1])} {md(rest[0])}", ""]
        elif kind == "toc":
            lines += ["**Contents**", ""]
            lines += [f"{'  ' * (depth - 2)}- [{md(text)}](#{slug(text)})" for depth, text in _toc(blocks)] + [""]
        elif kind == "p":
            lines += [md(rest[0]), ""]
        elif kind == "note":
            lines += [f"*{md(rest[0])}*", ""]
        elif kind == "img":
            stem, alt, _width = rest
            lines += [f"[![{md(alt)}]({stem}.png)]({stem}.svg)", ""]
        elif kind == "ul":
            lines += [f"- {md(item)}" for item in rest[0]] + [""]
        elif kind == "table":
            lines += _markdown_table(rest[0]) + [""]
        elif kind == "details":
            summary, table = rest
            lines += ["<details>", f"<summary>{html.escape(summary)}</summary>", ""]
            lines += _markdown_table(table) + ["", "</details>", ""]
        elif kind == "csv":
            name, what = rest
            lines += [f"Download: [{name}]({name}) ({what}, CSV).", ""]
        elif kind == "html":  # a piece only the HTML page can hold; Markdown gets its blocks instead
            lines += [to_markdown(rest[1]).rstrip("\n"), ""]
    return "\n".join(lines)


def _markdown_table(table: pd.DataFrame) -> list[str]:
    def cell(value) -> str:
        return md(str(value)).replace("|", "\\|")

    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return [header, rule, *body]


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; overflow-wrap: break-word; }
img { max-width: 100%; height: auto; }
figure { margin: 0.5rem 0; }
/* a wide table scrolls inside its own box, never the page */
.scroll { max-width: 100%; overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
code { background: #f4f4f4; padding: 0 0.2em; border-radius: 3px; font-size: 0.9em; overflow-wrap: anywhere; }
details { margin: 0.5rem 0 1rem; }
summary { cursor: pointer; color: #0b5394; }
nav ul { columns: 2; }
.note { font-style: italic; color: #555; }
.csv { font-size: 0.9rem; }
table.glance td { min-width: 5rem; }
table.glance .default { display: block; font-weight: 600; }
table.glance .strong { display: block; font-size: 0.8rem; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; font-size: 0.85rem; margin: 0; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: -0.1em; }
.legend-note { font-size: 0.85rem; color: #444; }
.your-table fieldset { border: 1px solid #ccc; margin: 0 0 0.5rem; }
.your-table .samurai { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
.your-table label { white-space: nowrap; }
.your-table select { font-size: 1rem; max-width: 100%; }
/* a reading's words are long: its picker takes a line of its own, and may wrap on a phone */
.your-table label.rules { white-space: normal; display: block; margin-top: 0.3rem; }
.order { margin: 0.3rem 0; color: #444; }
.answer { border-left: 4px solid #0b5394; padding: 0.2rem 0.8rem; background: #f7f9fc; }
.answer.error { border-color: #d73027; background: #fdf0ee; }
.answer h3 { margin: 0.3rem 0; }
.answer .facts { padding-left: 1.1rem; }
.answer .label { font-weight: 600; }
@media (max-width: 600px) {
  body { margin: 1rem auto; padding: 0 0.6rem; }
  nav ul { columns: 1; }
  table.glance td, table.glance th { min-width: 0; padding: 0.15rem 0.3rem; font-size: 0.8rem; }
}
"""


def _inline(text) -> str:
    """Text for HTML: escaped, with `code` as <code>, as Markdown renders it."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(str(text), quote=False))


def _html_table(table: pd.DataFrame) -> str:
    head = "".join(f"<th>{_inline(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{_inline(v)}</td>" for v in row) + "</tr>"
                   for row in table.itertuples(index=False))
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def to_html(blocks: list[tuple], title: str) -> str:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
    ]
    for kind, *rest in blocks:
        if kind == "h1":
            parts.append(f"<h1>{_inline(rest[0])}</h1>")
        elif kind in ("h2", "h3"):
            parts.append(f'<{kind} id="{slug(rest[0])}">{_inline(rest[0])}</{kind}>')
        elif kind == "toc":
            items, depth = [], 2
            for level, text in _toc(blocks):
                if level > depth:
                    items.append("<ul>")
                elif level < depth:
                    items.append("</ul></li>")
                elif items:
                    items.append("</li>")
                items.append(f'<li><a href="#{slug(text)}">{_inline(text)}</a>')
                depth = level
            items.append("</li>" + ("</ul></li>" if depth > 2 else ""))
            parts.append("<nav><strong>Contents</strong><ul>" + "".join(items) + "</ul></nav>")
        elif kind == "p":
            parts.append(f"<p>{_inline(rest[0])}</p>")
        elif kind == "note":
            parts.append(f'<p class="note">{_inline(rest[0])}</p>')
        elif kind == "img":
            stem, alt, width = rest
            parts.append(f'<figure><a href="{stem}.svg"><img src="{stem}.png" alt="{esc(alt)}" '
                         f'width="{width}"></a></figure>')
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in rest[0]) + "</ul>")
        elif kind == "table":
            parts.append(_html_table(rest[0]))
        elif kind == "details":
            summary, table = rest
            parts.append(f"<details><summary>{_inline(summary)}</summary>{_html_table(table)}</details>")
        elif kind == "csv":
            name, what = rest
            parts.append(f'<p class="csv">Download: <a href="{esc(name)}" download>{esc(name)}</a> '
                         f"({_inline(what)}, CSV).</p>")
        elif kind == "html":
            parts.append(rest[0])
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)

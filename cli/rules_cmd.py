"""`kiai rules`: the rule readings a command can switch (docs/rules.md section 14)."""

from __future__ import annotations

import json

import typer

from kiai.about import readings
from kiai.cli.common import command


@command(short_help="List the rule readings that players disagree on.",
         help="List the rule readings careful tables disagree on (docs/rules.md section 14, V-1 to V-5): each "
              "one's values, its default (the rules' own reading) and the decision it departs from. Set one with "
              "--rule NAME=VALUE on simulate, trace, record, compare and tune; sweep it as an axis "
              "(--rule NAME=V1,V2); compare two with `kiai compare --rules NAME=V1,V2`.")
def rules(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of text.")):
    items = readings()
    if as_json:
        print(json.dumps(items))
        return
    for it in items:
        others = ", ".join(v for v in it["values"] if v != it["default"])
        print(f"{it['name']} ({it['v']}, departs from {it['departs_from']}): {it['default']} (default) or {others}")
        print(f"    {it['summary']}")

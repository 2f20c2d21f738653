"""`kiai strategies`: what strategies exist and their parameters."""

from __future__ import annotations

import json

import typer

from kiai.cli.common import command


@command(short_help="List the strategies and their parameters.",
         help="List the registered strategies with their parameters (defaults and ranges); the "
              "default strategy, which every command plays unless told otherwise, is marked.")
def strategies(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of text "
                                                                 "(the default strategy has \"default\": true).")):
    from kiai import api

    items = api.strategies()
    if as_json:
        print(json.dumps(items))
        return
    for it in items:
        tag = ("  (default)" if it["default"] else "") + ("" if it["honest"] else "  [CHEATING: sees hidden cards]")
        print(f"{it['name']}{tag}\n    {it['description']}")
        for name, p in it["params"].items():
            print(f"    --param {name}=<{p['low']:g}..{p['high']:g}> (default {p['default']:g}): {p['help']}")

"""`kiai strategies`: what strategies exist and their parameters."""

from __future__ import annotations

import json

import typer

from cli.main import app


@app.command(help="List the registered strategies with their parameters (defaults and ranges).")
def strategies(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of text.")):
    from strategies.registry import REGISTRY

    items = [
        {
            "name": s.name,
            "description": s.description,
            "honest": s.honest,
            "params": {p.name: {"default": p.default, "low": p.low, "high": p.high,
                                "integer": p.integer, "help": p.help} for p in s.params},
        }
        for s in REGISTRY
    ]
    if as_json:
        print(json.dumps(items))
        return
    for it in items:
        tag = "" if it["honest"] else "  [CHEATING: sees hidden cards]"
        print(f"{it['name']}{tag}\n    {it['description']}")
        for name, p in it["params"].items():
            print(f"    --param {name}=<{p['low']:g}..{p['high']:g}> (default {p['default']:g}): {p['help']}")

"""`kiai strategies`: what strategies exist and their parameters."""

from __future__ import annotations

import json

import typer

from kiai.about import strategies as listed
from kiai.cli.common import command
from kiai.words import said_params


@command(short_help="List the strategies and their parameters.",
         help="List the registered strategies with the parameters a user tunes (defaults and ranges); "
              "--all adds the experts' knobs and what the default plays on each family of tables. The "
              "default strategy, which every command plays unless told otherwise, is marked.")
def strategies(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of text, every "
                                                                 "parameter with \"expert\" true or false (the "
                                                                 "default strategy has \"default\": true)."),
               every: bool = typer.Option(False, "--all", help="Also the experts' parameters, and the default's "
                                                               "play on each family of tables.")):
    items = listed()
    if as_json:
        print(json.dumps(items))
        return
    for it in items:
        tag = ("  (default)" if it["default"] else "") + ("" if it["honest"] else "  [CHEATING: sees hidden cards]")
        print(f"{it['name']}{tag}\n    {it['description']}")
        hidden = 0
        for name, p in it["params"].items():
            if p["expert"] and not every:
                hidden += 1
                continue
            print(f"    --param {name}=<{p['low']:g}..{p['high']:g}> (default {p['default']:g})"
                  f"{' [expert]' if p['expert'] else ''}: {p['help']}")
        if hidden:
            print(f"    (and {hidden} expert parameters: kiai strategies --all)")
        if "family_plays" in it:
            if not every:
                print("    each family of tables (team size, level) plays its own value with its own play: "
                      "kiai strategies --all lists them")
                continue
            print("    its play by family, where it differs from the defaults above:")
            for family, play in it["family_plays"].items():
                words = said_params(play) or "the defaults"
                print(f"      {family}: {NO_VALUE if play == LEARNEDS else words}")


LEARNEDS = {"base": 1, "doubt": 0.0}  # kiai.about.family_plays where kiai ships no value
NO_VALUE = "learned's answers (no value shipped for this family)"

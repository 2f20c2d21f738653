"""Shipping a value (`kiai train ship`): a value file that `kiai train value --player selfplay`
wrote becomes the one `selfplay` plays on its family's tables (strategies/data/selfplay-K-LEVEL.npz)."""

from __future__ import annotations

from pathlib import Path

from kiai.outputs import claim
from kiai.simcore.components import load_components
from kiai.strategies.nets.modelfile import AFTER, ModelError, ModelFile, family_file, load, made_for, save
from kiai.strategies.selfplay import STRATEGY
from kiai.training.common import KEEP_OUT


def ship(model: ModelFile, family: str, play: dict | None = None, why: str = "",
         folder=None) -> tuple[Path, ModelFile | None]:
    """Copy selfplay's value `model` into the shipped values (folder: strategies/data) as the
    value of `family` ("K@LEVEL"), the one selfplay then plays on its tables. The header gains
    `replaces`: the shas of the family's file it replaces and of every file that one replaced
    (its bytes, and those training wrote where a play was added), so a value started from any of
    them still names its start (those of its bytes before the one model format too). With `play` (selfplay's parameters) the header says how the value
    plays best, `why` says how that was chosen, and `play_added_to` keeps the sha training wrote.
    Returns the new file's path and the replaced value (None where the family had none)."""
    trained_on = model.header.get("settings", {}).get("family")
    if trained_on and trained_on != family:
        raise ModelError(f"value file {model.path}: trained on the family {trained_on}, not {family}")
    size, _, level = family.partition("@")
    dest = family_file(size, level, folder)
    header = {k: v for k, v in model.header.items() if k not in KEEP_OUT}
    data = made_for(header, load_components())  # a file from before the entry: its component file's data
    if data:
        header["components_data_sha256"] = data
    if play:
        try:
            STRATEGY.param_vector(play)
        except (KeyError, ValueError) as e:
            raise ModelError(f"play: {e}") from None
    # claimed from reading the value it replaces to writing this one: a second ship refuses, and
    # neither loses the other's `replaces`
    with claim(dest, "the shipped value"):
        old = load(dest, AFTER) if dest.exists() else None
        if old is not None:
            earlier = [*header.get("replaces", []), old.sha256, old.header.get("play_added_to"),
                       old.header.get("converted_from"), *old.header.get("replaces", [])]
            header["replaces"] = list(dict.fromkeys(s for s in earlier if s and s != model.sha256))
        if play:
            header["play_added_to"] = header.get("play_added_to", model.sha256)
            header["play"], header["play_chosen_by"] = dict(play), why
        save(dest, dict(model.arrays), header, AFTER)
    return dest, old

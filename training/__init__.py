"""Training: how kiai's learned players get their networks (`kiai train learned|value|ship`).

A layer of its own between strategies and reports: it plays the players of strategies/ to label
positions, fits their networks (PyTorch, CPU, the optional extra kiai[train]) and writes the model
files strategies/nets reads. No player imports it: what plays needs none of it.
"""

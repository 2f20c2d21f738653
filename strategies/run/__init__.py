"""The run layer, the one place that joins the engine and the players: a game's configuration
(config.py: GameConfig), compiling what a run plays and handing the engine its addresses
(compiling.py), playing games in batches on threads (games.py), compiling before the clock starts
(warm.py), and the solver's wiring of the engine (solve.py). Plain Python (simcore/sources.py's
PLAIN): editing it recompiles nothing.
"""

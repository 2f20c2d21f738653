"""The checks of what kiai is asked to do, before any game is played, one module per subject.

Every API function (kiai.api, kiai.tune, ...) reads its arguments here, through the command's
checks and messages (a KiaiError whose one line names the command's option):

- checks.py: the API's values as the command's text (text_of, items_of, split, once), and fail;
- counts.py: numbers (seeds, games, game indices, team sizes, threads);
- paths.py: the files a command writes or reads;
- players.py: strategies, their parameters and --params-file, the model files they read;
- configs.py: a table's configuration from its text (make_config), and the lists of levels, team
  sizes, rule readings and component files;
- sweep_plan.py, tune_plan.py, compare_plan.py: the plans of a sweep, a tuning and a comparison,
  every argument checked.

The package imports nothing on import. The subjects' modules import the engine and the players
(anything under kiai.simcore loads numba) inside their functions: the commands' options read
DEFAULT_SAMURAI and SWEEP_GAMES here, and `kiai --help` or `import kiai; kiai.simulate` loads no
engine (tests/test_startup.py). The plans of a tuning and a comparison, imported on use, import
what they use at their top.
"""

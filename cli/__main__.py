"""`python -m kiai.cli` runs the kiai command."""

import sys

from kiai.cli.main import main

sys.exit(main())

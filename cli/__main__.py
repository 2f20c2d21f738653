"""`python -m cli` runs the kiai command."""

import sys

from cli.main import main

sys.exit(main())

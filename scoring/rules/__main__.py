"""``python -m scoring.rules sheet|hands``: see scoring/rules/cli.py."""

import sys

from scoring.rules.cli import main

sys.exit(main())

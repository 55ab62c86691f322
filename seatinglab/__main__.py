"""``python -m seatinglab --players 44 --rounds 14 --write`` (see :func:`.cli.main`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

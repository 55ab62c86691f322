"""Offline search for the shipped schedules: ``python -m tournament.seating.find --players 44 --rounds 14
--write``, the documented name of ``python -m tournament.seating.finder`` (see
:func:`tournament.seating.finder.cli.main`). The generator never imports it."""

import sys

from .finder.cli import main

if __name__ == "__main__":
    sys.exit(main())

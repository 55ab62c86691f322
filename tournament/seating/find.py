"""Offline search for the shipped schedules: ``python -m tournament.seating.find --players 44 --rounds 14
--write`` (see :func:`tournament.seating.cyclic.main`)."""

import sys

from .cyclic import main

if __name__ == "__main__":
    sys.exit(main())

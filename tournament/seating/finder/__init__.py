"""The offline finder of the shipped schedules (``data/cyclic.json``, ``data/tables.json``).

Not part of the generator: ``generate`` only reads the shipped data (:mod:`..cyclic`) and never imports
this package. The dependency goes one way, finder -> generator modules:

* :mod:`.cli`: the command line ``python -m tournament.seating.find`` (the same as
  ``python -m tournament.seating.finder``), which searches and, with ``--write``, stores the data files;
* :mod:`.satfind`: the SAT methods (the only module that uses ``python-sat``, a development dependency);
* :mod:`.transversal`: transversal hanchan added to a cyclic schedule.
"""

"""The seating laboratory: the offline search for the schedules the generator ships as data
(``tournament/seating/data/cyclic.json``, ``tables.json``, ``exact.json``).

Not part of the product: ``tournament.seating`` only reads the shipped data
(:mod:`tournament.seating.cyclic`) and nothing a request runs imports this package
(``tests/project/test_architecture.py``). The dependency goes one way, laboratory -> generator:

* :mod:`.cli`: the command line ``python -m seatinglab``, which searches and, with ``--write``, stores
  the data files (its methods in :mod:`.cli_cyclic`, :mod:`.cli_group`, :mod:`.cli_anneal`,
  :mod:`.cli_tables`; the figures and the data files in :mod:`.cli_entries`);
* :mod:`.satfind`: what the SAT methods share, the formula and the solver (the only module that uses
  ``python-sat``, a development dependency); the methods in :mod:`.sat_cyclic`, :mod:`.sat_group` and
  :mod:`.sat_tables`;
* :mod:`.transversal`: transversal hanchan added to a cyclic schedule;
* :mod:`.anneal`, :mod:`.native` (``anneal.c``), :mod:`.develop` (``develop.c``): the annealing, in
  Python and compiled.
"""

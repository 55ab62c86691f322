"""The event's rules in plain Python: no Django, no database (docs/architecture.md, layer 0).

Standings, participation, phases and cuts, teams, the clock, names and their collation, player files,
statistics, awards, persons and series, club sessions, live tables' progress, players' sign-ups, the
calendar of events, the one refusal and the bounded reading of inputs. Each module is usable from the
command line and tested without a database; the seating generator and the ratings are pure packages of
their own beside this one (``tournament.seating``, ``tournament.ratings``).
"""

"""Ratings of players over many tournaments, from the stored results. Plain Python: no Django.

``mers``: the EMA's ranking (MERS), per tournament and over a player's results; ``skill``: a skill
rating per hanchan with openskill's Weng-Lin Plackett-Luce model. docs/ratings.md defines both and
names their sources.
"""

"""Reads shared by every service and page (docs/architecture.md, layer 2): who may do what
(``access``), and each pure rule's facts read from the database, cached where a hall of phones asks for
them (``*_db``), and the live updates' notices and their payloads. They import the models and the pure
core only, never a service, a view or the API.
"""

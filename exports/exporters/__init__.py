"""Exporters of a tournament (see ``base`` for the mechanism and docs/exports.md for the list).

Importing this package registers every exporter of the product.
"""

from exports.exporters import archive, ema, printable, seating, sheets, signups, standings
from exports.exporters.base import (
    PUBLIC,
    Column,
    Exporter,
    ExportFile,
    Formatted,
    ListExporter,
    Sheet,
    all_exporters,
    get_exporter,
    register,
    unregister,
)

__all__ = [
    "PUBLIC",
    "Column",
    "ExportFile",
    "Exporter",
    "Formatted",
    "ListExporter",
    "Sheet",
    "all_exporters",
    "archive",
    "ema",
    "get_exporter",
    "printable",
    "register",
    "seating",
    "sheets",
    "signups",
    "standings",
    "unregister",
]

"""Reading export files back: workbooks, CSV, zips and PDFs."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

from openpyxl import load_workbook
from pypdf import PdfReader


def workbook(data: bytes) -> Any:
    return load_workbook(io.BytesIO(data))


def rows(worksheet: Any) -> list[list[Any]]:
    return [list(row) for row in worksheet.iter_rows(values_only=True)]


def csv_rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "CSV files start with a UTF-8 byte order mark"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def pdf(data: bytes) -> tuple[int, list[str]]:
    """The page count and each page's text."""
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), [page.extract_text() for page in reader.pages]

"""Issue 51, item 2: forty international names through the import preview, the organiser's confirmation
and the EMA results file read back (the file needs the Latin last and first names, never a guess, never
kanji in the Latin columns)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from exports.exporters import get_exporter
from scoring import services as sheets
from tests.conftest import seat_table
from tests.exports.conftest import final
from tournament import services
from tournament.core.names import NameSplit, split_name
from tournament.core.player_files import COLUMN_ALIASES, header_columns
from tournament.models import Player, Round, Tournament

# One column "name" (and a native name where the player gave one), as an organiser's sign-up sheet has them:
# (name, native name, country, the Latin first and last names the EMA file must carry, whether the
# import can split it alone).
NAMES: list[tuple[str, str, str, str, str, bool]] = [
    ("Daan de Vries", "", "NL", "Daan", "de Vries", True),
    ("Pieter van der Heijden-de Vries", "", "NL", "Pieter", "van der Heijden-de Vries", True),
    ("Anouk van den Berg", "", "NL", "Anouk", "van den Berg", True),
    ("Seán Ó Briain", "", "IE", "Seán", "Ó Briain", True),
    ("Aoife Ní Bhriain", "", "IE", "Aoife", "Ní Bhriain", True),
    ("Siobhán O'Sullivan", "", "IE", "Siobhán", "O'Sullivan", True),
    ("Łukasz Wróblewski", "", "PL", "Łukasz", "Wróblewski", True),
    ("Agnieszka Szczepańska-Kowalczyk", "", "PL", "Agnieszka", "Szczepańska-Kowalczyk", True),
    ("Małgorzata Żak", "", "PL", "Małgorzata", "Żak", True),
    ("Jean-Baptiste Lefèvre", "", "FR", "Jean-Baptiste", "Lefèvre", True),
    ("Chloé Martin", "", "FR", "Chloé", "Martin", True),
    ("Élodie de la Fontaine", "", "FR", "Élodie", "de la Fontaine", True),
    ("Jürgen Müller", "", "DE", "Jürgen", "Müller", True),
    ("Karl-Heinz von Braun", "", "DE", "Karl-Heinz", "von Braun", True),
    ("Søren Kierkegård", "", "DK", "Søren", "Kierkegård", True),
    ("Giulia Di Stefano", "", "IT", "Giulia", "Di Stefano", True),
    ("João dos Santos", "", "PT", "João", "dos Santos", True),
    ("Ana Alves", "", "PT", "Ana", "Alves", True),
    ("YAMADA Taro", "山田 太郎", "JP", "Taro", "YAMADA", True),
    ("Sato Hanako", "佐藤 花子", "JP", "Hanako", "Sato", False),  # which word is the family name?
    ("山田 太郎", "", "JP", "Taro", "Yamada", False),  # kanji only: the organiser gives the Latin names
    ("鈴木 一郎", "", "JP", "Ichiro", "Suzuki", False),
    ("王小明", "", "CN", "Xiaoming", "Wang", False),
    ("LI Wei", "李伟", "CN", "Wei", "LI", True),
    ("Chen Jing", "陈静", "CN", "Jing", "Chen", False),
    ("김민준", "", "KR", "Minjun", "Kim", False),
    ("PARK Ji-yeon", "박지연", "KR", "Ji-yeon", "PARK", True),
    ("Алексей Жуков", "", "RU", "Aleksei", "Zhukov", False),
    ("Наталья Королёва", "", "RU", "Natalia", "Koroleva", False),
    ("Dmitri Ivanov", "Дмитрий Иванов", "RU", "Dmitri", "Ivanov", True),
    ("Nur Aisyah binti Hassan", "", "MY", "Nur Aisyah", "binti Hassan", False),
    ("Ahmad Faiz bin Abdullah", "", "MY", "Ahmad Faiz", "bin Abdullah", False),
    ("Nguyen Van An", "Nguyễn Văn An", "VN", "An", "Nguyen Van", False),
    ("José García López", "", "ES", "José", "García López", False),
    ("Mary-Kate Smith-Jones", "", "GB", "Mary-Kate", "Smith-Jones", True),
    ("Oliver Hughes", "", "GB", "Oliver", "Hughes", True),
    ("Emma Johansson", "", "SE", "Emma", "Johansson", True),
    ("Mikko Virtanen", "", "FI", "Mikko", "Virtanen", True),
    ("Tomáš Dvořák", "", "CZ", "Tomáš", "Dvořák", True),
    ("Zsófia Nagy", "", "HU", "Zsófia", "Nagy", True),
]


def test_forty_names_and_every_split_said_certain_or_not() -> None:
    assert len(NAMES) == 40
    for name, native, _country, first, last, certain in NAMES:
        split = split_name(name, native)
        assert split.certain is certain, (name, split)
        if certain:
            assert (split.first, split.last) == (first, last), name


def test_cjk_and_cyrillic_names_are_native_names_never_latin_ones() -> None:
    assert split_name("山田 太郎") == NameSplit("", "", native="山田 太郎", reason=NameSplit.NATIVE_SCRIPT)
    assert split_name("Алексей Жуков").native == "Алексей Жуков"
    assert split_name("Ana").reason == NameSplit.ONE_WORD
    assert split_name("Sato Hanako", "佐藤 花子").reason == NameSplit.ORDER_UNKNOWN
    assert split_name("Sato Hanako").certain  # without a family-first native name: given name first


def test_header_spellings_in_the_seven_languages() -> None:
    for header, key in [
        ("Nom", "last_name"),
        ("Prénom", "first_name"),
        ("Nachname", "last_name"),
        ("Vorname", "first_name"),
        ("Familienname", "last_name"),
        ("姓", "last_name"),
        ("名", "first_name"),
        ("氏名", "name"),
        ("성", "last_name"),
        ("이름", "first_name"),
        ("Фамилия", "last_name"),
        ("Имя", "first_name"),
        ("Pays", "country"),
        ("Native name", "native_name"),
        ("Surname", "last_name"),
        ("Family name", "last_name"),
    ]:
        assert COLUMN_ALIASES.get(header.strip().lower()) == key, header
    assert header_columns(["Nom", "Prénom", "Pays", "Classement"]) == (
        ["last_name", "first_name", "country"],
        ["Classement"],
    )


def _upload(text: str) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


@pytest.mark.django_db
def test_forty_names_through_the_preview_the_confirmation_and_the_ema_file(
    client: Client, tournament: Tournament, organiser: Any, referee: Any
) -> None:
    client.force_login(organiser)
    text = _csv(
        [["name", "native name", "country", "EMA id"]]
        + [
            [name, native, country, f"{10000001 + i}"]
            for i, (name, native, country, *_rest) in enumerate(NAMES)
        ]
    )
    preview = client.post(f"/t/{tournament.slug}/manage/players/import/", {"file": _upload(text)})
    assert preview.status_code == 200
    page = preview.content.decode()
    listed = {u.line: u for u in preview.context["preview"].unsplit}
    uncertain = {line for line, row in enumerate(NAMES, start=2) if not row[5]}
    assert set(listed) == uncertain  # every name the import cannot split, and only those
    assert "data-import-unsplit" in page and 'name="last-22"' in page  # 山田 太郎 on line 22
    assert listed[23].first_name == listed[23].last_name == ""  # 鈴木 一郎: no Latin name to guess
    # The organiser gives the Latin names of every listed player but one (鈴木 一郎 left empty).
    post: dict[str, str] = {"token": preview.context["confirm_form"].initial["token"]}
    for line in uncertain:
        _name, _native, _country, first, last, _certain = NAMES[line - 2]
        post[f"first-{line}"], post[f"last-{line}"] = (first, last) if line != 23 else ("", "")
    assert client.post(f"/t/{tournament.slug}/manage/players/import/confirm/", post).status_code == 302
    assert tournament.players.count() == 40
    yamada = Player.objects.get(tournament=tournament, ema_id="10000021")
    assert (yamada.name, yamada.first_name, yamada.last_name, yamada.native_name) == (
        "Taro Yamada",
        "Taro",
        "Yamada",
        "山田 太郎",
    )
    # The exports page names the one player the EMA file would lack a Latin name for, before the file.
    exports = client.get(f"/t/{tournament.slug}/exports/").content.decode()
    assert "data-missing-latin-names" in exports and "鈴木 一郎" in exports
    assert exports.count("<li><a href=") == 1
    # One hanchan of ten tables, every sheet signed: all forty are ranked.
    players = list(tournament.players.order_by("ema_id"))
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    tables = [seat_table(first, n + 1, players[4 * n : 4 * n + 4]) for n in range(10)]
    services.operate_clock(first, organiser, "start")
    for table, n in zip(tables, range(10), strict=True):
        names = [p.name for p in players[4 * n : 4 * n + 4]]
        sheet = sheets.save_sheet(table, final(names, [45000, 32000, 25000, 18000]), referee, submit=True)
        sheets.sign_sheet(sheet, referee)
    exporter = get_exporter("ema_results_csv")
    assert exporter is not None
    table = list(csv.reader(io.StringIO(exporter.render(tournament).data.decode("utf-8-sig"))))
    assert table[0][1:4] == ["EMA number", "Last name", "First name"]
    by_id = {row[1]: (row[2], row[3]) for row in table[1:]}
    assert len(by_id) == 40
    for i, (_name, _native, _country, first, last, _certain) in enumerate(NAMES):
        expected = ("", "") if i + 2 == 23 else (last, first)
        assert by_id[f"{10000001 + i}"] == expected, NAMES[i]
    assert not any(
        "\u3040" <= c <= "\u9fff" or "\u0400" <= c <= "\u04ff" for row in table for c in "".join(row)
    )

"""``QuickSelect`` (tournament/forms/widgets.py) writes the markup Django's ``Select`` writes through its
templates, in one pass."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.test.html import parse_html
from django.utils import translation

from tournament.forms.signup import SignUpForm
from tournament.forms.widgets import QuickSelect

CHOICES = [
    ("", "---"),
    ("PT", "Portugal"),
    ("Tricky", [("a<b", "A & <B>"), ('q"uote', 'It\'s "quoted"')]),
    ("JP", "日本"),
]


@pytest.mark.parametrize("value", ["", "PT", "a<b", None, "unknown"])
@pytest.mark.parametrize(
    "attrs", [None, {"id": "id_country", "required": True, "disabled": False, "data-x": "1"}]
)
def test_the_quick_select_writes_what_the_select_writes(
    value: str | None, attrs: dict[str, object] | None
) -> None:
    quick = QuickSelect(choices=CHOICES).render("country", value, attrs)
    django = forms.Select(choices=CHOICES).render("country", value, attrs)
    assert parse_html(quick) == parse_html(django)  # the same elements, attributes and text
    assert re.sub(r">\s+<", "><", django.strip()) == quick  # and the same bytes, but the templates' blanks


def test_the_sign_up_forms_countries_are_the_quick_select() -> None:
    form = SignUpForm(initial={"country": "JP"})
    html = str(form["country"])
    assert isinstance(form.fields["country"].widget, QuickSelect)
    assert '<option value="JP" selected>' in html and html.count("<option") > 200


def test_the_options_kept_are_those_of_the_same_values_and_labels() -> None:
    """The markup kept for a list of options is found again only for the same values with the same labels:
    the countries in another language, or a label changed, are written anew."""
    with translation.override("en"):
        english = str(SignUpForm()["country"])
    with translation.override("de"):
        german = str(SignUpForm(initial={"country": "DE"})["country"])
    assert ">Germany</option>" in english and ">Deutschland</option>" not in english
    assert '<option value="DE" selected>Deutschland</option>' in german and ">Germany</option>" not in german
    first = QuickSelect(choices=[("a", "One")]).render("x", "a")
    second = QuickSelect(choices=[("a", "Uno")]).render("x", "a")
    assert first == '<select name="x"><option value="a" selected>One</option></select>'
    assert second == '<select name="x"><option value="a" selected>Uno</option></select>'
    assert QuickSelect(choices=[("a", "One")]).render("x", None) == (
        '<select name="x"><option value="a">One</option></select>'
    )

"""The OpenAPI 3 schema generates without warnings and validates; the docs are served from this site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient


def test_the_schema_generates_without_warnings_and_validates(tmp_path: Path) -> None:
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema: dict[str, Any] = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert "/api/tables/{table_pk}/sheet/" in paths
    assert "/api/tournaments/{id}/standings/" in paths
    # Every refusal is documented in the one error format.
    create = paths["/api/tables/{table_pk}/sheet/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409"} <= set(create)
    assert create["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Errors"}
    assert "429" in paths["/api/auth/token/"]["post"]["responses"]


@pytest.mark.django_db
def test_schema_and_docs_are_served_without_a_cdn() -> None:
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200 and schema.json()["info"]["title"] == "Riichi tournament manager API"
    for page in ("/api/docs/", "/api/redoc/"):
        html = client.get(page).content.decode()
        assert "/static/drf_spectacular_sidecar/" in html, page
        assert "cdn." not in html and "unpkg" not in html, page

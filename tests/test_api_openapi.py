"""The OpenAPI document matches the app: every route and method is in it, and nothing more."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

PREFIX = "/api/v1"


def _shape(path: str) -> str:
    """A path with its parameters blanked: /deals/<id_>/state and /deals/{id}/state match."""
    return re.sub(r"<[^>]+>|\{[^}]+\}", "{}", path)


def test_every_route_and_method_is_documented(app: Flask, client: FlaskClient) -> None:
    doc = client.get(f"{PREFIX}/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert doc["servers"] == [{"url": PREFIX}]
    documented = {
        (_shape(path), method.upper()) for path, ops in doc["paths"].items() for method in ops
    }
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("pages."):
            continue  # the HTML pages and their static files (pages.py) are not the API
        assert rule.rule.startswith(PREFIX + "/"), f"route outside the API: {rule.rule}"
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                routes.add((_shape(rule.rule[len(PREFIX) :]), method))
    assert routes - documented == set(), "routes missing from openapi.json"
    assert documented - routes == set(), "openapi.json documents routes that do not exist"


def test_parameters_match_the_paths_and_refs_resolve(client: FlaskClient) -> None:
    doc = client.get(f"{PREFIX}/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    text = str(doc)
    for ref in re.findall(r"#/components/schemas/(\w+)", text):
        assert ref in schemas
    for path, ops in doc["paths"].items():
        names = set(re.findall(r"\{(\w+)\}", path))
        for op in ops.values():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == names, (path, declared)
            assert op["responses"], path

"""The OpenAPI 3.1 document of ``/api/v1`` (served at ``/api/v1/openapi.json``).

The schemas are generated from the models of web/schema.py (pydantic: JSON Schema 2020-12,
which OpenAPI 3.1 uses as it is), and the paths from the operations declared on the routes
(``@operation``, web/operations.py): which model each takes and answers, its parameters and
problems. tests/test_api_openapi.py checks that every route and method of the app appears
here, tests/test_api_schema.py that live answers of every operation match the document.
Built once per app (``document``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema

from dailydeal import __version__
from dailydeal.verify import MAX_MOVES
from dailydeal.web.operations import PROBLEMS, REF, Operation, operations_of
from dailydeal.web.schema import ANSWERS, BODIES

PREFIX = "/api/v1"
KEY = "dailydeal_openapi"  # app.extensions key
TEXT_MOVES = {"type": "string", "description": "Moves in the notation, space separated"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


class _Generator(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (the name says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def schemas() -> dict[str, Any]:
    """The components: the request bodies as they are validated, the answers as sent."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m, "validation") for m in BODIES]
    models += [(m, "serialization") for m in ANSWERS]
    _, top = models_json_schema(
        models, ref_template=REF + "{model}", schema_generator=_Generator
    )
    return dict(top["$defs"])


def document(app: Flask) -> dict[str, Any]:
    """The OpenAPI document of ``app`` (built at its first request, then kept)."""
    found: dict[str, Any] | None = app.extensions.get(KEY)
    if found is None:
        found = app.extensions[KEY] = build(app)
    return found


def build(app: Flask) -> dict[str, Any]:
    max_body = int(app.config["MAX_CONTENT_LENGTH"])
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "dailydeal API",
            "version": __version__,
            "description": (
                "Daily solitaire challenges (Accordion, Pyramid, Gaps). A date is served "
                "once it has begun somewhere on Earth (UTC+14); solutions once it is over "
                f"everywhere (24:00 at UTC-12). Request bodies: at most {max_body} bytes and "
                f"{MAX_MOVES} moves. Errors are RFC 9457 application/problem+json."
            ),
        },
        "servers": [{"url": PREFIX}],
        "paths": paths(app),
        "components": {"schemas": schemas()},
    }


def paths(app: Flask) -> dict[str, Any]:
    """Every declared operation under /api/v1, by path (``<id_>`` -> ``{id}``)."""
    out: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith(PREFIX + "/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+?)_?>", r"{\1}", rule.rule[len(PREFIX):])
        for method, op in operations_of(app.view_functions[rule.endpoint]).items():
            out.setdefault(path, {})[method.lower()] = describe(op)
    return out


def describe(op: Operation) -> dict[str, Any]:
    """The OpenAPI operation object of one declaration."""
    out: dict[str, Any] = {"summary": op.summary}
    if op.description:
        out["description"] = op.description
    if op.params:
        out["parameters"] = list(op.params)
    if op.body is not None:
        content: dict[str, Any] = {"application/json": {"schema": _ref(op.body.__name__)}}
        if op.text:
            content["text/plain"] = {"schema": TEXT_MOVES}
        out["requestBody"] = {"required": True, "content": content}
    media = op.media or ({"application/json": _ref(op.answer.__name__)} if op.answer else {})
    answer: dict[str, Any] = {"description": op.answer_text or op.summary}
    if media:
        answer["content"] = {mime: {"schema": schema} for mime, schema in media.items()}
    responses: dict[str, Any] = {str(op.status): answer}
    for status, extra in op.responses.items():
        responses[status] = {**responses.get(status, {}), **extra}
    for code, text in sorted(op.problems.items()):
        responses[str(code)] = {
            "description": text or PROBLEMS[code],
            "content": {"application/problem+json": {"schema": _ref("Problem")}},
        }
    out["responses"] = responses
    return out

"""The OpenAPI paths of the sharing endpoints (web/share.py, the calendar of web/feeds.py),
merged into the document by ``openapi.document``."""

from __future__ import annotations

from typing import Any

from dailydeal.web.openapi import E400, E404, ID, _json, _param, _problem, _ref


def share_paths() -> dict[str, Any]:
    size = {"type": "integer", "minimum": 1}
    return {
        "/oembed": {
            "get": {
                "summary": "oEmbed of a play page: an iframe of the embed page and a thumbnail",
                "parameters": [
                    {**_param("url", "A play or embed page of this service: a path, or an "
                              "absolute URL under DAILYDEAL_PUBLIC_URL (at most 2048 "
                              "characters)", {"type": "string"}, "query"), "required": True},
                    _param("maxwidth", "Largest width of the iframe (pixels)", size, "query"),
                    _param("maxheight", "Largest height of the iframe (pixels)", size, "query"),
                    _param("format", "Only `json`", {"type": "string", "enum": ["json"]},
                           "query"),
                ],
                "responses": {
                    "200": _json("The oEmbed answer", _ref("OEmbed")),
                    "304": {"description": "Not modified"},
                    "400": E400,
                    "404": _problem("Not a page of this service, or a deal not published"),
                    "501": _problem("A format other than json"),
                },
            }
        },
        "/deals/{id}/preview.png": {
            "get": {
                "summary": "A 1200x630 PNG of a published deal's layout (link previews)",
                "parameters": [
                    ID,
                    _param("v", "The drawing's version: with the current one the answer is "
                           "immutable", {"type": "string"}, "query"),
                ],
                "responses": {
                    "200": {"description": "The picture",
                            "content": {"image/png": {"schema": {"type": "string",
                                                                 "format": "binary"}}}},
                    "304": {"description": "Not modified"},
                    "404": E404,
                },
            }
        },
        "/calendar.ics": {
            "get": {
                "summary": "iCalendar (RFC 5545): an all-day event per date, last 30 days",
                "responses": {
                    "200": {"description": "The calendar",
                            "content": {"text/calendar": {"schema": {"type": "string"}}}},
                    "304": {"description": "Not modified"},
                },
            }
        },
    }

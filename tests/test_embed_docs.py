"""docs/embedding.md and static/daily-deal.d.ts say what the element does: its events,
its ::part names and its custom properties, as its modules and stylesheet define them."""

from __future__ import annotations

import re
from pathlib import Path

from helpers.modules import element_sources

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "dailydeal" / "web" / "static"
ELEMENT = element_sources()  # its modules and its stylesheet
SHEET = (STATIC / "daily-deal.css").read_text()
DOC = (ROOT / "docs" / "embedding.md").read_text()
TYPES = (STATIC / "daily-deal.d.ts").read_text()
FRAME = (STATIC / "embed-frame.js").read_text()


def _section(title: str) -> str:
    start = DOC.index(f"## {title}")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end > 0 else None]


def test_every_event_is_typed_and_forwarded_by_the_frame() -> None:
    events = set(re.findall(r'emit\("(dailydeal-[a-z]+)"', ELEMENT))
    assert events >= {"dailydeal-move", "dailydeal-won"}
    typed = set(re.findall(r'"(dailydeal-[a-z]+)": CustomEvent<', TYPES))
    assert typed == events
    forwarded = set(re.findall(r'"(dailydeal-[a-z]+)"', FRAME.split("const EVENTS", 1)[1]
                               .split("\n", 1)[0]))
    assert forwarded == events
    for event in events:
        assert f"`{event}`" in _section("The iframe: size and events by postMessage")


def test_every_part_and_custom_property_is_documented() -> None:
    parts = set(re.findall(r'part="([a-z-]+)"', ELEMENT))
    assert "board" in parts
    theming = _section("Theming")
    for part in parts:
        assert f"`{part}`" in theming, part
    host_rule = re.search(r":host \{([^}]*)\}", SHEET)
    assert host_rule is not None
    props = set(re.findall(r"(--[a-z0-9-]+):", host_rule.group(1)))
    assert "--felt" in props
    for prop in props:
        assert f"`{prop}`" in theming, prop


def test_the_iframe_example_fits_a_phone() -> None:
    iframe = _section("The iframe")
    assert 'width="900"' not in iframe and "width: 100%" in iframe

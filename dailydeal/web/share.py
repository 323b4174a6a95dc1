"""What other platforms read to unfurl and embed a link: oEmbed, preview pictures, page tags.

- ``GET /api/v1/oembed?url=...`` (https://oembed.com): a play page or embed URL of a
  published daily deal answers ``type: rich`` with an ``<iframe>`` of ``/embed/{id}``; a
  numbered deal's play page and the daily page answer ``type: link``. A URL that is not
  this service's is a 404: it must be a path (``/play/...``) or start with
  ``DAILYDEAL_PUBLIC_URL``; the request's Host is never trusted to say what "this
  service" is. So is a URL of ours whose page is an error (an unknown game, a seed or
  variant the page refuses): an answer, cached for an hour, would vouch for a page that
  does not exist, under a title of the URL's words. Formats other than JSON are a 501, as
  the spec asks.
- ``GET /api/v1/deals/{id}/preview.png``: the deal's layout, only for a published deal
  (``published_row``: a future deal is a 404, as everywhere), as stored when the deal was
  (``daily/picture.py``: drawn once per deal, a few ms to serve); a deal without a stored
  picture is drawn (40-60 ms of CPU) into a bounded memo keyed by the deal and the
  drawing's version only. With ``?v=`` equal to that version it is ``immutable``; any other
  query is a 301 to that canonical URL (a random query made every request a miss of
  nginx's cache: issue 39), and the route has a per-address limit
  (``DAILYDEAL_PICTURE_LIMIT``).
- ``share_tags(w)``: the OpenGraph / Twitter card tags and the ``<link rel=alternate>`` of
  each page (oEmbed discovery, the feeds, the calendar), in the page's language (``w``, the
  catalogs' ``share.*`` and ``site.*`` words, web/i18n.py), rendered by
  ``templates/share_meta.html``, which the page templates include once. oEmbed answers are
  for machines and stay English.

Absolute URLs (og:url, og:image, the iframe of an oEmbed answer) need
``DAILYDEAL_PUBLIC_URL``; without it the tags are relative and og:image is left out (a
crawler cannot use a relative picture, and a Host header must not make one absolute).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, Flask, Response, current_app, g, request, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from dailydeal.daily import picture, store
from dailydeal.games import get_game
from dailydeal.memo import Memo
from dailydeal.web import i18n, schema
from dailydeal.web.conditional import conditional
from dailydeal.web.db import get_db
from dailydeal.web.extensions import limit, settings
from dailydeal.web.http import IMMUTABLE, json_response, parse_seed, published_row
from dailydeal.web.operations import ID, NOT_MODIFIED, operation, param
from dailydeal.web.problems import Problem

bp = Blueprint("share", __name__)

PROVIDER = "dailydeal"
MAX_URL = 2048  # longer oEmbed ``url`` parameters are refused (400), never parsed
MAX_SIZE = 10_000  # maxwidth / maxheight above this are read as this
EMBED_WIDTH, EMBED_HEIGHT = 900, 720  # the iframe of an oEmbed answer, before max*
OEMBED_CACHE = "public, max-age=3600"
PREVIEW_CACHE = "public, max-age=86400"  # a picture URL without the current ?v=
REDIRECT_CACHE = "public, max-age=3600"  # a picture URL with another query: to ?v=current
MEMO, MEMO_SIZE = "dailydeal_pictures", 64  # pictures drawn on request (none stored)
CANONICAL = {"301": {
    "description": "Any query but the current `v=`: to the picture's canonical URL",
    "headers": {"Location": {"schema": {"type": "string"}, "description": "The URL"}},
}}
OEMBED_TYPE = "application/json+oembed"
SIZE = {"type": "integer", "minimum": 1, "maximum": 10**12 - 1}  # maxwidth, maxheight: 12 digits


def public_base() -> str:
    """``DAILYDEAL_PUBLIC_URL`` without its trailing slash, or "" (links stay relative)."""
    return (settings().public_url or "").rstrip("/")


def preview_url(id_: str) -> str:
    return url_for("share.preview_png", id_=id_, v=str(picture.VERSION))


@bp.get("/deals/<id_>/preview.png")
@limit("picture")
@operation(
    "GET", "A 1200x630 PNG of a published deal's layout (link previews)",
    description=(
        "Served as stored when the deal was (drawn once per deal). The only query is "
        "`?v=` with the drawing's current version (then the answer is immutable); any other "
        "query, or another version, is a 301 to that URL, so that a query cannot make a "
        "cache miss."
    ),
    params=(ID, param("v", "The drawing's version: with the current one the answer is "
                      "immutable; any other query is a 301 to it", {"type": "string"},
                      "query")),
    answer_text="The picture", media={"image/png": {"type": "string", "format": "binary"}},
    problems={404: "", 429: "More than DAILYDEAL_PICTURE_LIMIT requests from this address "
              "(Retry-After)"},
    responses={**NOT_MODIFIED, **CANONICAL},
)
def preview_png(id_: str) -> Response:
    row = published_row(id_)  # a future or unknown deal: 404, before anything is drawn
    canonical = preview_url(row["id"])
    query = request.query_string
    current = query == f"v={picture.VERSION}".encode()
    if query and not current:  # ?r=<random> made every request a miss of nginx's cache
        resp = Response(json.dumps({"location": canonical}), status=301,
                        mimetype="application/json")
        resp.headers["Location"] = canonical
        resp.headers["Cache-Control"] = REDIRECT_CACHE
        return resp
    etag = f"preview-{picture.VERSION}-{row['id']}"
    resp = Response(mimetype="image/png")
    resp.headers["Cache-Control"] = IMMUTABLE if current else PREVIEW_CACHE
    resp.set_etag(etag)
    answered = conditional(resp)  # a matching If-None-Match: 304, nothing read or drawn
    if answered.status_code != 200:
        return answered
    png = store.get_picture(get_db(), row["id"], picture.VERSION)  # stored at publication
    if png is None:  # not stored yet (an older file): drawn once per process, bounded
        memo: Memo[str, bytes] = current_app.extensions.setdefault(MEMO, Memo(MEMO_SIZE))
        png = memo.get(etag, lambda: picture.draw_deal(row))
    resp.set_data(png)
    return resp


# --- oEmbed ------------------------------------------------------------------------------
def _size(name: str) -> int | None:
    text = request.args.get(name)
    if text is None or text == "":
        return None
    if len(text) > 12 or not text.isascii() or not text.isdigit() or int(text) < 1:
        raise Problem(400, f"{name} must be a whole number of pixels >= 1, not {text[:40]!r}")
    return min(int(text), MAX_SIZE)


def _own_path(url: str) -> str:
    """The path of ``url`` on this service, or a 404 for anybody else's URL."""
    if len(url) > MAX_URL:
        raise Problem(400, f"url is longer than {MAX_URL} characters")
    if not url.isprintable() or any(c.isspace() for c in url):
        raise Problem(400, "url must be a URL without spaces or control characters")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise Problem(400, f"url is not a URL: {url[:80]!r}") from None
    base = public_base()
    if parts.scheme or parts.netloc:
        own = urlsplit(base) if base else None
        if (
            own is None
            or (parts.scheme.lower(), parts.netloc.lower())
            != (own.scheme.lower(), own.netloc.lower())
            or not (parts.path + "/").startswith(own.path.rstrip("/") + "/")
        ):
            raise Problem(404, "not a URL of this service (its public URL is "
                          + (repr(base) if base else "not configured: DAILYDEAL_PUBLIC_URL")
                          + ")")
        path = parts.path[len(own.path.rstrip("/")) :] or "/"
    elif url.startswith("/"):
        path = parts.path
    else:
        raise Problem(404, "not a URL of this service: give an absolute URL or a path")
    root = request.script_root  # links carry the app's mount point (url_for adds it)
    if root and (path == root or path.startswith(root + "/")):
        path = path[len(root) :] or "/"
    return path


def _endpoint(path: str) -> tuple[str, dict[str, Any]]:
    """The page endpoint of ``path`` (pages.* only), else 404."""
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, args = adapter.match(path, method="GET")
    except RequestRedirect:
        raise Problem(404, f"no page at {path[:100]!r}") from None
    except HTTPException:
        raise Problem(404, f"no page at {path[:100]!r}") from None
    return str(endpoint), dict(args)


@bp.get("/oembed")
@operation(
    "GET", "oEmbed of a play page: an iframe of the embed page and a thumbnail",
    params=(
        param("url", "A play or embed page of this service: a path, or an absolute URL "
              f"under DAILYDEAL_PUBLIC_URL (at most {MAX_URL} printable ASCII characters)",
              {"type": "string", "pattern": "^[!-~]+$", "maxLength": MAX_URL}, "query",
              required=True),
        param("maxwidth", "Largest width of the iframe (pixels)", SIZE, "query"),
        param("maxheight", "Largest height of the iframe (pixels)", SIZE, "query"),
        param("format", "Only `json`", {"type": "string", "enum": ["json"]}, "query"),
    ),
    answer=schema.OEmbed, answer_text="The oEmbed answer", responses=NOT_MODIFIED,
    problems={400: "", 404: "Not a page of this service, or a deal not published",
              501: "A format other than json"},
)
def oembed() -> Response:
    fmt = request.args.get("format", "json")
    if fmt != "json":
        raise Problem(501, f"only the json format is served, not {fmt[:20]!r}")
    url = request.args.get("url")
    if not url:
        raise Problem(400, "url is required: the URL of a play page, e.g. /play/{deal id}")
    maxwidth, maxheight = _size("maxwidth"), _size("maxheight")
    endpoint, args = _endpoint(_own_path(url))
    base = public_base()
    answer: dict[str, Any] = {
        "version": "1.0",
        "provider_name": PROVIDER,
        "provider_url": base + url_for("pages.daily_page"),
        "cache_age": 3600,
    }
    if endpoint in ("pages.play_deal", "pages.embed"):
        row = published_row(str(args["id_"]))
        width = min(EMBED_WIDTH, maxwidth or EMBED_WIDTH)
        height = min(EMBED_HEIGHT, maxheight or EMBED_HEIGHT)
        title = deal_title(row)
        src = base + url_for("pages.embed", id_=row["id"])
        answer.update(
            type="rich",
            title=title,
            width=width,
            height=height,
            html=(
                f'<iframe src="{_attr(src)}" width="{width}" height="{height}" '
                f'title="{_attr(title)}" style="border:0;max-width:100%" loading="lazy">'
                "</iframe>"
            ),
        )
        thumb = (picture.WIDTH, picture.HEIGHT)
        if (maxwidth is None or maxwidth >= thumb[0]) and (
            maxheight is None or maxheight >= thumb[1]
        ):  # the spec: a thumbnail must fit maxwidth/maxheight, or be left out
            answer.update(
                thumbnail_url=base + preview_url(row["id"]),
                thumbnail_width=thumb[0],
                thumbnail_height=thumb[1],
            )
    elif endpoint == "pages.play_numbered":
        variant = parse_qs(urlsplit(url).query).get("variant", [""])[0]
        numbered = numbered_title(str(args["game"]), str(args["seed"]), variant)
        if numbered is None:  # the page itself is an error: nothing to vouch for
            raise Problem(404, f"no deal at {url[:100]!r}: a game, a deal number and a variant "
                          "of this service")
        answer.update(type="link", title=numbered)
    elif endpoint == "pages.daily_page":
        answer.update(type="link", title="dailydeal: today's solitaire deals")
    else:
        raise Problem(404, f"no embeddable page at {url[:100]!r}")
    return json_response(answer, OEMBED_CACHE)


def _attr(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


ENGLISH = i18n.DEFAULT  # oEmbed answers: for machines, in English


def numbered_title(game: str, seed: str, variant: str | None,
                   w: i18n.Words | None = None) -> str | None:
    """``Gaps deal #42`` for a numbered deal the play page serves (a game, a seed as the API
    reads it, a known variant), else None: a title is made of the site's own words and
    numbers, never of a URL's (an oEmbed answer or a page's tags would vouch for them)."""
    w = w or i18n.words(ENGLISH)
    try:
        cls = get_game(game, variant or None)
        number = parse_seed(seed)
    except (ValueError, Problem):
        return None
    # the number as text: a deal number is never grouped (#18446744073709551615)
    return w.t("share.numbered", game=w.t(f"game.{cls.name}"), number=str(number))


def deal_title(row: dict[str, Any], w: i18n.Words | None = None) -> str:
    w = w or i18n.words(ENGLISH)
    return w.t("share.deal_title", game=w.t(f"game.{row['game']}"),
               tier=w.t(f"tier.{row['tier']}"), date=str(row["date"]))


def deal_description(row: dict[str, Any], w: i18n.Words) -> str:
    return w.t("share.deal_description", game=w.t(f"game.{row['game']}"),
               tier=w.t(f"tier.{row['tier']}"), date=w.date(str(row["date"]), "long"),
               rating=round(float(row["rating"])), n=int(row["solution_length"]))


# --- page tags ---------------------------------------------------------------------------
def share_tags(w: i18n.Words | None = None) -> dict[str, Any]:
    """The tags of the page being rendered, in its language ``w``: ``meta`` (property/name,
    content) pairs and ``links`` (rel, type, href, title) for templates/share_meta.html."""
    w = w or i18n.words(ENGLISH)
    base = public_base()
    endpoint = request.endpoint or ""
    args = request.view_args or {}
    page = base + request.script_root + request.path
    title, description, image = w.t("site.title"), w.t("site.description"), None
    row, numbered = None, None
    if endpoint in ("pages.play_deal", "pages.embed"):
        try:
            row = published_row(str(args.get("id_", "")))
        except Problem:
            row = None
    if row is not None:
        title = deal_title(row, w)
        description = deal_description(row, w)
        image = preview_url(row["id"])
    elif endpoint == "pages.solve_page" and "solve_share" in g:
        # a shared win: its result and the deal's picture (as dealt), never a move
        title, description = g.solve_share["title"], g.solve_share["description"]
        if g.solve_share["deal"]:
            image = preview_url(g.solve_share["deal"])
    elif endpoint == "pages.play_numbered":
        numbered = numbered_title(str(args.get("game", "")), str(args.get("seed", "")),
                                  request.args.get("variant"), w)
        if numbered is not None:
            title = numbered + " — dailydeal"
    meta: list[tuple[str, str, str]] = [
        ("property", "og:type", "website"),
        ("property", "og:locale", w.babel.language + (f"_{w.babel.territory}"
                                                        if w.babel.territory else "")),
        ("property", "og:site_name", PROVIDER),
        ("property", "og:title", title),
        ("property", "og:description", description),
        ("property", "og:url", page),
        ("name", "twitter:card", "summary_large_image" if image and base else "summary"),
        ("name", "twitter:title", title),
        ("name", "twitter:description", description),
    ]
    if image and base:  # crawlers need an absolute picture URL: only with public_url
        meta += [
            ("property", "og:image", base + image),
            ("property", "og:image:type", "image/png"),
            ("property", "og:image:width", str(picture.WIDTH)),
            ("property", "og:image:height", str(picture.HEIGHT)),
            ("property", "og:image:alt", w.t("share.image_alt", title=title)),
            ("name", "twitter:image", base + image),
        ]
    links: list[tuple[str, str, str, str]] = []
    if (endpoint == "pages.daily_page" or row is not None
            or (endpoint == "pages.play_numbered" and numbered is not None)):
        href = base + url_for("share.oembed", url=page, format="json")
        links.append(("alternate", OEMBED_TYPE, href, title))
    if endpoint == "pages.daily_page":
        links += [
            ("alternate", "text/calendar", base + url_for("feeds.calendar"),
             w.t("share.calendar")),
            ("alternate", "application/feed+json", base + url_for("feeds.feed_json"),
             w.t("share.feed_json")),
            ("alternate", "application/atom+xml", base + url_for("feeds.feed_atom"),
             w.t("share.feed_atom")),
        ]
    return {"meta": meta, "links": links}


def register(app: Flask) -> None:
    app.register_blueprint(bp, url_prefix="/api/v1")
    app.jinja_env.globals["share_tags"] = share_tags

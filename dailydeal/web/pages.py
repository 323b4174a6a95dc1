"""The pages a person opens: the daily page, the player, the embed, and their static files.

The pages are thin: the board is the ``<daily-deal>`` custom element of
``static/daily-deal.js``, which asks the API for every position (the rules stay on the
server). Static files are read once, gzipped once, and served with their content hash in
the URL (``?v=``) so they can be cached for a year. Every HTML page gets a
Content-Security-Policy that allows nothing from another origin; only ``/embed/...`` may be
shown in a frame.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup, escape

from dailydeal.daily import clock, store
from dailydeal.games import GAMES, SPECS, new_game
from dailydeal.rating import TIERS
from dailydeal.shuffle import MAX_SEED
from dailydeal.web import i18n, icons, solves
from dailydeal.web.compress import accepts_gzip
from dailydeal.web.db import get_db
from dailydeal.web.gameinfo import RULES
from dailydeal.web.http import (
    IMMUTABLE,
    check_game,
    daily_games,
    now,
    parse_seed,
    published_row,
)
from dailydeal.web.problems import Problem
from dailydeal.web.uncomment import strip_comments

bp = Blueprint("pages", __name__, template_folder="templates")

STATIC_DIR = Path(__file__).parent / "static"
REVALIDATE = "public, max-age=300"  # a static URL without the current ?v= (embedders' copies)
MIMETYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain",
    ".ts": "text/plain",  # daily-deal.d.ts, the element's types, for app developers to fetch
    ".json": "application/json",  # locales/*.json, the message catalogs
}

# Our own pages load nothing from another origin and may not be framed.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
EMBED_CSP = PAGE_CSP.replace("frame-ancestors 'none'", "frame-ancestors *")
OTHER_CSP = "default-src 'none'; frame-ancestors 'none'"  # JSON, scripts: never a document


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes
    mimetype: str
    version: str  # the first 12 hex digits of the SHA-256 of the body


def load_assets(folder: Path = STATIC_DIR) -> dict[str, Asset]:
    out = {}
    for path in sorted(folder.rglob("*")):
        # locales/pages/: the pages' own words, read by i18n.py on the server, never fetched
        name = path.relative_to(folder).as_posix()
        if path.is_file() and path.suffix in MIMETYPES and not name.startswith("locales/pages/"):
            body = path.read_bytes()
            if path.suffix == ".json":  # a catalog: kept readable, served without its layout
                body = json.dumps(json.loads(body), ensure_ascii=False,
                                  separators=(",", ":")).encode()
            elif path.suffix == ".js":  # a script: kept commented, served without its comments
                body = strip_comments(body.decode("utf-8")).encode()
            out[name] = Asset(
                body,
                gzip.compress(body, 9, mtime=0),
                MIMETYPES[path.suffix],
                hashlib.sha256(body).hexdigest()[:12],
            )
    if folder == STATIC_DIR:  # the pseudo-locale's catalog, made from English's (i18n.py)
        body = json.dumps(i18n.element_catalog(i18n.PSEUDO), ensure_ascii=False,
                          separators=(",", ":")).encode()
        out[f"locales/{i18n.PSEUDO}.json"] = Asset(body, gzip.compress(body, 9, mtime=0),
                                                   MIMETYPES[".json"],
                                                   hashlib.sha256(body).hexdigest()[:12])
    return out


def assets() -> dict[str, Asset]:
    found: dict[str, Asset] = current_app.extensions.setdefault("dailydeal_assets", {})
    if not found:
        found.update(load_assets())
    return found


def asset_url(name: str) -> str:
    """The versioned URL of a static file (cached for a year: the version is its hash)."""
    return url_for("pages.static", name=name, v=assets()[name].version)


# what a module loads beside it: import ... from "./x.js", and new URL("x", import.meta.url)
# (a dynamic import, a stylesheet fetched)
IMPORTS = re.compile(
    rb"""(?:^\s*(?:import|export)\b[^;]*?\bfrom\s+["']\./([\w.-]+)["'])"""
    rb"""|(?:new URL\(["']([\w.-]+)["'], import\.meta\.url\))""",
    re.M | re.S,
)


def module_graph(files: dict[str, bytes], entry: str = "daily-deal.js") -> dict[str, list[str]]:
    """Every static file reachable from ``entry`` -> the files it loads (of ``files``)."""
    out: dict[str, list[str]] = {}
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name in out or name not in files:
            continue
        found = [a.decode() or b.decode() for a, b in IMPORTS.findall(files[name])]
        out[name] = [f for f in found if f in files]
        todo.extend(out[name])
    return out


def element_modules() -> list[str]:
    """The static files the element loads besides its entry module (its modules, static and
    dynamic imports, and its stylesheet): the pages preload them, so the browser asks for
    all of them at once instead of one level of imports after another. Read once per app
    (the files do not change while it runs), not at every page."""
    found: list[str] | None = current_app.extensions.get("dailydeal_element_modules")
    if found is None:
        graph = module_graph({n: a.body for n, a in assets().items()})
        found = current_app.extensions["dailydeal_element_modules"] = list(graph)[1:]
    return found


@bp.get("/static/<path:name>")
def static(name: str) -> Response:
    item = assets().get(name)
    if item is None:
        raise Problem(404, f"no static file {name[:80]!r}")
    use_gzip = item.mimetype != "image/png" and accepts_gzip()
    resp = Response(item.gzipped if use_gzip else item.body, mimetype=item.mimetype)
    if use_gzip:
        resp.headers["Content-Encoding"] = "gzip"
    resp.vary.add("Accept-Encoding")
    current = request.args.get("v") == item.version
    resp.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
    resp.set_etag(item.version + ("-gz" if use_gzip else ""))
    resp.make_conditional(request)
    return resp


# --- the page's language (i18n.py) ---------------------------------------------------------
def words() -> i18n.Words:
    """The words of this request's page: ``?lang=``, else ``Accept-Language``, else English."""
    found: i18n.Words | None = g.get("dailydeal_words")
    if found is None:
        arg = request.args.get("lang")
        locale = i18n.negotiate(arg, request.headers.get("Accept-Language"))
        found = g.dailydeal_words = i18n.words(locale)
        # a language chosen with ?lang= stays on this page's links to the other pages
        g.dailydeal_lang_arg = locale if arg and i18n.negotiate(arg, None) == locale else None
    return found


def keep_lang(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for`` of a page keeps the ``?lang=`` this page was asked with."""
    lang = g.get("dailydeal_lang_arg") if g else None
    if lang and endpoint.startswith("pages.") and endpoint not in ("pages.static",
                                                                    "pages.service_worker"):
        values.setdefault("lang", lang)


def lang_links() -> list[tuple[str, str, str]]:
    """(locale, its own name, this page's URL in it) for the language menu."""
    args = {k: v for k, v in request.args.items() if k != "lang"}
    out = []
    for locale in i18n.locales():
        query = "&".join(f"{k}={v}" for k, v in args.items())
        href = f"{request.path}?{query + '&' if query else ''}lang={locale}"
        out.append((locale, i18n.words(locale).name, href))
    return out


# --- pages -------------------------------------------------------------------------------
def page(template: str, status: int = 200, **context: Any) -> Response:
    # specs: what a template shows differently from game to game (the game's spec)
    w = words()
    resp = Response(render_template(template, specs=SPECS, w=w, t=w.t, tm=w.markup, **context),
                    status=status, mimetype="text/html")
    resp.headers["Cache-Control"] = "no-cache"  # cheap to revalidate, never stale
    resp.headers["Content-Language"] = w.locale
    resp.vary.add("Accept-Language")
    return resp


# the page's own words for a problem's code (its detail is English, for machines)
PAGE_PROBLEMS = {404: "problem.not_found", 400: "problem.bad_request"}


def not_found(detail: str, status: int = 404, code: str | None = None) -> Response:
    key = f"problem.{code}" if code else PAGE_PROBLEMS.get(status, "problem.bad_request")
    return page("error.html", status, detail=words().t(key), code=status)


def deal_number(text: str) -> int | None:
    """A seed as the API reads it (``parse_seed``: ASCII digits, 0..MAX_SEED), else None:
    a page plays no deal the API refuses ("١٢٣" is no seed there)."""
    try:
        return parse_seed(text)
    except Problem:
        return None


def day_view(day: dt.date, rows: list[dict[str, Any]], current: dt.datetime,
             w: i18n.Words | None = None) -> dict[str, Any]:
    """One date of the daily page: its games in the daily order, each with its tiers."""
    daily = {g: v for g, v in daily_games()}
    order = {g: i for i, g in enumerate(GAMES)}
    games: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: (order.get(r["game"], 99), TIERS.index(r["tier"]))):
        if daily.get(r["game"], r["variant"]) != r["variant"]:
            continue  # a non-daily variant stored by hand: reachable by its URL only
        games.setdefault(r["game"], []).append(r)
    w = w or i18n.words(i18n.DEFAULT)
    return {
        "date": day.isoformat(),
        "label": w.date(day, "full"),
        "short": w.date(day, "medium"),
        "solution_open": clock.solution_open(day, current),
        "opens_at": clock.iso(clock.solution_opens_at(day)),
        "games": [{"name": g, "deals": deals} for g, deals in games.items()],
    }


@bp.get("/")
def daily_page() -> Response:
    current = now()
    days = int(current_app.config.get("FEED_DAYS", 30))
    last = clock.latest_published(current)
    db = get_db()
    dates = store.dates_between(db, last - dt.timedelta(days=days - 1), last)
    w = words()
    views = [day_view(d, store.deals_on(db, d), current, w) for d in sorted(dates, reverse=True)]
    utc_today = clock.today_in(None, current).isoformat()
    return page("daily.html", days=views, utc_today=utc_today, rules=RULES)


@bp.get("/play")
def play_form() -> Response:
    """The "any deal number" form of the daily page: to the numbered deal's URL."""
    game, seed = request.args.get("game", ""), request.args.get("seed", "").strip()
    number = deal_number(seed)
    if game not in GAMES or number is None:
        return not_found(f"choose a game and a deal number 0..{MAX_SEED}", 400, "bad_seed")
    return redirect(url_for("pages.play_numbered", game=game, seed=number))  # type: ignore


@bp.get("/play/<id_>")
def play_deal(id_: str) -> Response:
    try:
        row = published_row(id_)
    except Problem as exc:
        return not_found(exc.detail, exc.status, exc.code)
    return page("play.html", row=row, game=row["game"], rules=RULES.get(row["game"], {}))


@bp.get("/play/<game>/<seed>")
def play_numbered(game: str, seed: str) -> Response:
    try:
        check_game(game)
    except Problem as exc:
        return not_found(exc.detail, exc.status, exc.code)
    number = deal_number(seed)
    if number is None:
        return not_found(f"a deal number is an integer 0..{MAX_SEED}, not {seed[:40]!r}", 400,
                         "bad_seed")
    variant = request.args.get("variant") or None
    try:
        position = new_game(game, number, variant)
    except ValueError as exc:
        return not_found(str(exc), 400, "bad_variant")
    return page(
        "play.html",
        row=None,
        game=game,
        seed=str(number),
        variant=position.variant,
        rules=RULES.get(game, {}),
    )


@bp.get("/embed/<id_>")
def embed(id_: str) -> Response:
    try:
        row = published_row(id_)
    except Problem as exc:
        return not_found(exc.detail, exc.status, exc.code)
    return page("embed.html", row=row)


@bp.get("/s/<id_>")
def solve_page(id_: str) -> Response:
    """A verified win, shared: the result, the signature, and the line replayed once it
    spoils nothing (``static/solve.js`` asks the API for the moves: the page never holds
    them, so an open date's line is nowhere in it)."""
    view = solves.page_view(id_)
    if view is None:
        return not_found(f"no solve {id_[:40]!r}: a solve link names a verified win")
    found = view["solve"]
    row = None
    if found.deal:
        with contextlib.suppress(Problem):
            row = published_row(found.deal)
    w = words()
    game = w.t(f"game.{found.game}")
    if row is not None:
        what = w.t("solve.what", game=game, tier=w.t(f"tier.{row['tier']}"), date=str(row["date"]))
    else:
        what = w.t("share.numbered", game=game, number=str(found.seed))
    moves = w.t("solve.moves", n=found.moves)
    if found.par:
        moves = w.t("solve.moves_par", moves=moves, par=found.par)
    title = w.t("solve.title", what=what, moves=moves)
    # the share tags of this page (share.share_tags): the result, never a move
    g.solve_share = {
        "title": title,
        "description": w.t("solve.description_public" if view["public"]
                           else "solve.description_closed", what=what, moves=moves),
        "deal": row["id"] if row is not None else None,
    }

    def when(iso: str) -> str:
        return w.datetime(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")), "long")

    opens = view["opens_at"]
    return page(
        "solve.html", view=view, s=found, row=row, game=found.game,
        api=url_for("api.index")[:-1], share_title=title,
        verified_label=when(found.verified_at),
        opens_time=Markup(f'<time datetime="{escape(opens)}">{escape(when(opens))}</time>')
        if opens else "",
    )


# --- offline and installable ----------------------------------------------------------------
# The web app manifest and the service worker of our own pages (static/offline.js registers
# it; the <daily-deal> element never does, so on other sites it runs without one).
THEME_COLOR = "#1d5e3f"  # the felt green of the header (base.html: a darker one in the dark)
BACKGROUND_COLOR = "#f4f1ea"  # site.css --bg: the splash screen of the installed app
MANIFEST_TYPE = "application/manifest+json"
# A worker's script brings its own CSP: it fetches from this origin only, runs nothing else.
WORKER_CSP = "default-src 'none'; connect-src 'self'"


def shell_version() -> str:
    """The app shell's version: the package's and a hash of every static file, so that a
    deploy that changes one of them installs a new service worker with a fresh cache."""
    from dailydeal import __version__

    digest = hashlib.sha256(" ".join(f"{n}={a.version}" for n, a in assets().items()).encode())
    return f"{__version__}-{digest.hexdigest()[:12]}"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    root = url_for("pages.daily_page")
    w = words()
    body = {
        "id": root,
        "name": w.t("manifest.name"),
        "short_name": "dailydeal",
        "description": w.t("manifest.description"),
        "lang": w.locale,
        "dir": w.dir,
        "start_url": root,
        "scope": root,
        "display": "standalone",
        "orientation": "any",
        "categories": ["games"],
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": asset_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            *({"src": asset_url(f"icon-{n}.png"), "sizes": f"{n}x{n}", "type": "image/png"}
              for n in icons.SIZES),
        ],
    }
    resp = Response(json.dumps(body, ensure_ascii=False, indent=1), mimetype=MANIFEST_TYPE)
    resp.headers["Cache-Control"] = "no-cache"
    resp.vary.add("Accept-Language")
    return resp


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that its scope is every page; ``no-cache``: the
    browser compares it with its copy at each navigation, and a deploy is picked up."""
    files = {asset_url(name): url_for("pages.static", name=name) for name in assets()}
    # the offline page in each language, so that a page asked for with ?lang= gets its own
    # (the plain one is in the browser's language, as fetched at install)
    offline_pages = [url_for("pages.offline", lang=locale) for locale in i18n.locales()]
    script = render_template(
        "sw.js",
        version=shell_version(),
        shell=[url_for("pages.daily_page"), url_for("pages.offline"), *offline_pages, *files],
        aliases=files,
        offline=url_for("pages.offline"),
        locales=i18n.locales(),
        root=url_for("pages.daily_page"),
        api=url_for("api.index"),
    )
    resp = Response(script, mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["Content-Security-Policy"] = WORKER_CSP
    return resp


@bp.get("/offline")
def offline() -> Response:
    """What the service worker shows for a page it did not keep, when there is no network."""
    return page("offline.html")


# --- headers -----------------------------------------------------------------------------
def security_headers(resp: Response) -> tuple[tuple[str, str], ...]:
    """The security headers ``resp`` carries unless its route set them (written by the
    app's one after-request hook, web/__init__.py, with the other headers of every answer)."""
    # only a real embed page: its error page (an unknown id) is a page like any other
    framable = request.endpoint == "pages.embed" and resp.status_code < 400
    if resp.mimetype == "text/html":
        return PAGE_HEADERS_FRAMABLE if framable else PAGE_HEADERS
    return OTHER_HEADERS_FRAMABLE if framable else OTHER_HEADERS


# security_headers' sets, made once: (a page's or another answer's, framable or not)
_NO_FRAMES = ("X-Frame-Options", "DENY")
_REFERRER = ("Referrer-Policy", "strict-origin-when-cross-origin")
PAGE_HEADERS = (("Content-Security-Policy", PAGE_CSP), _REFERRER, _NO_FRAMES)
PAGE_HEADERS_FRAMABLE = (("Content-Security-Policy", EMBED_CSP), _REFERRER)
OTHER_HEADERS = (("Content-Security-Policy", OTHER_CSP), _NO_FRAMES)
OTHER_HEADERS_FRAMABLE = (("Content-Security-Policy", OTHER_CSP),)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["asset"] = asset_url
    app.jinja_env.globals["element_modules"] = element_modules
    app.jinja_env.globals["lang_links"] = lang_links
    app.url_defaults(keep_lang)

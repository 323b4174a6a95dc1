"""Every command, option and setting is documented (sqlite-utils style).

A command that is not in the README, an option without help text, or an environment
variable the code reads but the README does not name fails here.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import click
import pytest

from dailydeal import native
from dailydeal.cli import main
from dailydeal.config import Settings, variables

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands() -> list[tuple[str, click.Command]]:
    """Every command the group lists, each loaded (the group imports a module when asked)."""
    ctx = click.Context(main)
    loaded = [(name, main.get_command(ctx, name)) for name in main.list_commands(ctx)]
    return [(name, command) for name, command in loaded if command is not None]


def test_all_commands_are_registered() -> None:
    names = {name for name, _ in commands()}
    assert {"deal", "verify", "solve", "rate", "generate", "schedule", "serve"} <= names


@pytest.mark.parametrize("name,command", commands())
def test_command_is_in_readme_and_has_help(name: str, command: click.Command) -> None:
    assert f"dailydeal {name}" in README, f"README.md does not show `dailydeal {name}`"
    assert command.help and command.help.strip(), f"`dailydeal {name}` has no help text"


@pytest.mark.parametrize("name,command", commands())
def test_every_option_has_help(name: str, command: click.Command) -> None:
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"`dailydeal {name} {param.opts[0]}` has no help text"


def settings_in(paths: list[Path]) -> set[str]:
    code = "\n".join(p.read_text(encoding="utf-8") for p in paths)
    return set(re.findall(r"\bDAILYDEAL_[A-Z0-9_]+\b", code))


def readme_rows() -> dict[str, str]:
    """The README's settings table: variable -> its default cell."""
    rows = re.findall(r"^\| `(DAILYDEAL_[A-Z0-9_]+)` \|.*\| ([^|]*) \|$", README, re.M)
    return dict(rows)


def shown(default: object) -> str | None:
    """How the README writes a plain default (None: a default the table explains)."""
    if isinstance(default, bool) or default is None:
        return None
    if isinstance(default, str | Path):
        return f"`{default}`"
    if isinstance(default, int | float):
        return f"{default:g}"
    return None


def test_every_setting_is_documented() -> None:
    """Every variable of the settings object has its row in the README's table, with its
    default, and the code names no other DAILYDEAL_* variable (which would be read past
    the settings object) but the install's own."""
    rows = readme_rows()
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    assert len(variables()) >= 20, "expected the settings object to list the variables"
    for name, var in variables():
        assert var.name in rows, f"{var.name} has no row in README.md's settings table"
        default = shown(fields[name].default)
        if default is not None:
            assert rows[var.name].startswith(default), (var.name, rows[var.name], default)
    named = settings_in(list((ROOT / "dailydeal").rglob("*.py")))
    known = {var.name for _, var in variables()} | {native.PURE_SETTING}
    assert native.PURE_SETTING in rows
    assert named <= known, f"DAILYDEAL_* variables outside config.Settings: {named - known}"


def test_every_deploy_setting_is_documented() -> None:
    """gunicorn.conf.py's own settings belong in deploy/README.md (or the README)."""
    deploy_readme = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
    settings = settings_in(list((ROOT / "deploy").glob("*.py")))
    assert settings, "expected deploy/gunicorn.conf.py to read DAILYDEAL_* settings"
    missing = sorted(s for s in settings if s not in deploy_readme and s not in README)
    assert not missing, f"deploy settings not documented: {missing}"


def test_quick_start_is_two_make_commands() -> None:
    assert "make run" in README and "make test" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


# A file named in the docs or the code: a path with a slash (``docs/rules.md``,
# ``dailydeal/rating/tiers.json``) or a bare Markdown file name (``README.md``).
FILE_REFERENCE = re.compile(
    r"(?<![\w./<{:-])((?:[\w.-]+/)+[\w.-]+\.(?:md|py|json|toml|txt|conf|service|timer)"
    r"|[\w.-]+\.md)(?![\w.-]*[\w-])"
)
TEXT_FILES = ["README.md", "docs/*.md", "deploy/README.md", "dailydeal/**/*.py",
              "tests/*.py", "benchmarks/*.py"]


def referenced_files() -> list[tuple[str, str]]:
    """(file, reference) for every file name mentioned in the docs, docstrings and code."""
    out = []
    for pattern in TEXT_FILES:
        for path in sorted(ROOT.glob(pattern)):
            text = path.read_text(encoding="utf-8")
            for ref in sorted(set(FILE_REFERENCE.findall(text))):
                out.append((str(path.relative_to(ROOT)), ref))
    return out


def exists(source: str, ref: str) -> bool:
    """A reference resolves from the repository root, from its own directory, from the
    package (``web/worker.py`` in a docstring of ``dailydeal``), or (a bare file name)
    names a file somewhere in the repository."""
    bases = (ROOT, (ROOT / source).parent, ROOT / "dailydeal")
    if any((base / ref).exists() for base in bases):
        return True
    if "/" not in ref:
        return any(p for p in ROOT.rglob(ref) if ".venv" not in p.parts)
    return False


def test_no_reference_to_a_missing_file() -> None:
    """The repository carries its own contract: no doc or docstring cites a file that is
    not in it (as the brief the rule book started from once was)."""
    refs = referenced_files()
    assert any(ref == "docs/rules.md" for _, ref in refs)
    missing = sorted({f"{source}: {ref}" for source, ref in refs if not exists(source, ref)})
    assert not missing, "references to files that do not exist:\n" + "\n".join(missing)

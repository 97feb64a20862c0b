"""Settings in one place: every `REGNB_*` variable is read in `regnb/settings.py`, each setting
has a default and a line of help, and the spec's 45 s wait bound is the setting's default."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import regnb
from regnb import settings
from regnb.settings import ClientSettings, LlmSettings, RemoteSettings, Settings

PACKAGE = Path(regnb.__file__).parent
VARIABLE = re.compile(r"REGNB_[A-Z0-9_]*")
SETTINGS_CLASSES = [Settings, ClientSettings, LlmSettings, RemoteSettings]


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (p.relative_to(PACKAGE.parent).as_posix(), ast.parse(p.read_text(encoding="utf-8")))
        for p in sorted(PACKAGE.rglob("*.py"))
    ]


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _variable_names(tree: ast.Module) -> list[str]:
    """Strings that are a REGNB_* variable's name, or its start in an f-string (docstrings and
    messages that mention one are not names)."""
    skip = _docstrings(tree)
    skip |= {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if VARIABLE.fullmatch(node.value):
                names.append(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and str(first.value).startswith("REGNB_"):
                names.append(str(first.value) + "…")
    return names


def test_no_module_but_settings_names_a_regnb_variable() -> None:
    found = {
        path: names
        for path, tree in _modules()
        if path != "regnb/settings.py" and (names := _variable_names(tree))
    }
    assert found == {}


def test_the_scan_sees_a_variable_read_elsewhere() -> None:
    tree = ast.parse('import os\nos.environ.get("REGNB_SERVER")\nos.getenv(f"REGNB_{x}")')
    assert _variable_names(tree) == ["REGNB_SERVER", "REGNB_…"]


def test_every_setting_has_a_default_and_a_line_of_help_naming_its_variable() -> None:
    source = (PACKAGE / "settings.py").read_text(encoding="utf-8")
    prefixes = {ClientSettings: "REGNB_CLIENT_", LlmSettings: "REGNB_LLM_"}
    for cls in SETTINGS_CLASSES:
        for f in dataclasses.fields(cls):
            variable = prefixes.get(cls, "REGNB_") + f.name.upper()
            assert f.name == "home" or f.default is not dataclasses.MISSING, variable
            assert re.search(rf'^    {f.name}: .*\n    """{variable}: \S', source, re.M), variable


@pytest.mark.parametrize(
    ("cls", "environ", "expected"),
    [
        (ClientSettings, {"REGNB_CLIENT_MAX_TRIES": "2"}, {"max_tries": 2}),
        (ClientSettings, {"REGNB_CLIENT_BACKOFF_S": "0.5"}, {"backoff_s": 0.5}),
        (LlmSettings, {}, {"base_url": "", "model": "", "timeout_s": 20.0}),
        (LlmSettings, {"REGNB_LLM_MODEL": "m", "REGNB_LLM_TIMEOUT_S": "5"}, {"timeout_s": 5.0}),
        (RemoteSettings, {"REGNB_SERVER": "http://x", "REGNB_API_KEY": "k"}, {"api_key": "k"}),
        (RemoteSettings, {}, {"server": "", "api_key": ""}),
    ],
)
def test_settings_read_their_variables(cls: type, environ: dict[str, str], expected: dict) -> None:
    read = cls.from_env(environ)
    assert {k: getattr(read, k) for k in expected} == expected


@pytest.mark.parametrize(
    ("cls", "variable"),
    [
        (ClientSettings, "REGNB_CLIENT_MAX_TRIES"),
        (LlmSettings, "REGNB_LLM_TIMEOUT_S"),
        (Settings, "REGNB_PAGE_BUDGET"),
    ],
)
def test_a_value_that_is_not_a_number_names_its_variable(cls: type, variable: str) -> None:
    with pytest.raises(ValueError, match=f"{variable} must be a number, got 'soon'"):
        cls.from_env({variable: "soon"})


def test_settings_read_a_given_environment_not_the_process_one(tmp_path: Path) -> None:
    read = Settings.from_env({"REGNB_HOME": str(tmp_path), "REGNB_TRUST_PROXY_HEADERS": "1"})
    assert (read.home, read.trust_proxy_headers) == (tmp_path, True)


@pytest.mark.parametrize(
    ("value", "shown"), [(None, True), ("0", False), ("off", False), ("1", True)]
)
def test_progress_shows_unless_turned_off(value: str | None, shown: bool) -> None:
    environ = {} if value is None else {"REGNB_PROGRESS": value}
    assert settings.show_progress(True, environ) is shown
    assert settings.show_progress(False, environ) is False


def test_the_45_second_wait_bound_is_the_settings_default() -> None:
    from regnb.client import _aio as aio
    from regnb.conversations import _checks as checks
    from regnb.conversations import conversation
    from regnb.server.openapi import conversations

    bound = Settings.conversation_wait_max_s
    assert bound == 45.0
    assert conversation.WAIT_MAX_S == aio.WAIT_S == bound == conversations.WAIT_MAX
    assert checks.check_wait("45") == bound
    with pytest.raises(regnb.InvalidRequest):
        checks.check_wait("45.5")
    literal = [
        (path, node.lineno)
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in (45, 45.0)
        and path != "regnb/settings.py"
    ]
    assert literal == []


@pytest.mark.parametrize(
    ("environ", "shared", "files"),
    [
        ({}, False, "home/conversations/files"),
        ({"REGNB_FILES_DIR": "shared/files"}, False, "shared/files"),
        (
            {"REGNB_DATABASE_URL": "postgresql://u:secret@db/regnb"},
            True,
            "home/conversations/files",
        ),
    ],
)
def test_the_database_and_the_files_folder_are_settings(
    tmp_path: Path, environ: dict[str, str], shared: bool, files: str
) -> None:
    environ = {k: v.replace("shared/", f"{tmp_path}/shared/") for k, v in environ.items()}
    read = Settings.from_env({"REGNB_HOME": str(tmp_path / "home"), **environ})
    assert read.shared is shared
    assert read.database_url == environ.get("REGNB_DATABASE_URL", "")
    assert read.files_folder == tmp_path / files
    assert "secret" not in repr(read)  # a database URL may hold a password
    assert read.replica_lease_s == 30.0

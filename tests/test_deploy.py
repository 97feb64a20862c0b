"""deploy/: the Docker Compose file is read and checked against the project, and nothing is
started: its services, their health checks, the database URL and shared folders of the replicas,
the proxy's upstreams, and every command it names parses with regnb's own command line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from regnb.cli import build_parser
from regnb.server._cli import cmd_serve
from regnb.settings import Settings
from tests.paths import ROOT

DEPLOY = ROOT / "deploy"
REPLICAS = ("regnb-1", "regnb-2")
SERVING = ("postgres", *REPLICAS, "proxy")
LATER = ("object-store", "ray-head")  # the Ray and object-storage work completes these
VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def substitute(text: str, environ: dict[str, str] | None = None) -> str:
    """Compose's `${NAME}` and `${NAME:-default}`, from `environ` (default: none set)."""
    env = environ or {}
    return VARIABLE.sub(lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found = compose["services"]
    assert isinstance(found, dict)
    return found


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Target folder -> source (a named volume, or a path relative to deploy/)."""
    out = {}
    for entry in service.get("volumes", []):
        source, target, *_ = substitute(entry).split(":")
        out[target] = source
    return out


def test_postgres_two_replicas_and_a_proxy_serve_and_the_rest_waits_in_a_profile(
    compose: dict[str, Any],
) -> None:
    found = services(compose)
    assert set(found) == {*SERVING, *LATER}
    for name in SERVING:
        assert "profiles" not in found[name], name
    for name in LATER:
        assert found[name]["profiles"] == ["distributed"], name


@pytest.mark.parametrize("name", [*SERVING, *LATER])
def test_every_service_has_a_health_check(compose: dict[str, Any], name: str) -> None:
    check = services(compose)[name]["healthcheck"]
    assert check["test"][0] in ("CMD", "CMD-SHELL") and len(check["test"]) > 1
    assert check["retries"] >= 1


@pytest.mark.parametrize("name", [*SERVING, *LATER])
def test_images_are_named_and_the_serving_ones_pinned(compose: dict[str, Any], name: str) -> None:
    image = services(compose)[name]["image"]
    repository, _, tag = image.partition(":")
    assert repository and tag, image
    if name in ("postgres", "proxy"):
        assert tag != "latest" and tag[0].isdigit(), image


@pytest.mark.parametrize("name", REPLICAS)
def test_each_replica_serves_with_a_command_regnb_parses(
    compose: dict[str, Any], name: str
) -> None:
    command = services(compose)[name]["command"]
    assert command[0] == "regnb"
    args = build_parser().parse_args(command[1:])
    assert args.func is cmd_serve
    assert args.host == "0.0.0.0" and args.port == 8000
    assert args.corpus == Path("/corpus") and "/corpus" in mounts(services(compose)[name])


@pytest.mark.parametrize("name", REPLICAS)
def test_each_replica_reads_postgres_from_its_database_url(
    compose: dict[str, Any], name: str
) -> None:
    found = services(compose)
    env = {k: substitute(str(v)) for k, v in found[name]["environment"].items()}
    settings = Settings.from_env(env)  # every variable is a setting of the right type
    assert settings.database_url == env["REGNB_DATABASE_URL"]
    url = urlsplit(settings.database_url)
    database = found["postgres"]["environment"]
    assert url.scheme == "postgresql" and url.hostname == "postgres" and url.port == 5432
    assert url.username == database["POSTGRES_USER"]
    assert url.password == substitute(database["POSTGRES_PASSWORD"])
    assert url.path == "/" + database["POSTGRES_DB"]
    assert found[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert settings.trust_proxy_headers  # links carry the address clients reach the proxy at
    assert set(env) <= {f"REGNB_{f.upper()}" for f in Settings.__dataclass_fields__}


def test_replicas_share_the_produced_files_and_keep_their_own_homes(
    compose: dict[str, Any],
) -> None:
    found = services(compose)
    homes, files = [], []
    for name in REPLICAS:
        env = found[name]["environment"]
        volumes = mounts(found[name])
        homes.append(volumes[env["REGNB_HOME"]])
        files.append(volumes[env["REGNB_FILES_DIR"]])
    assert len(set(homes)) == len(homes), "each replica builds its own index cache"
    assert len(set(files)) == 1, "a file made by one replica is downloaded through another"
    assert {*homes, *files} <= set(compose["volumes"])


def test_the_proxy_sends_requests_to_both_replicas(compose: dict[str, Any]) -> None:
    proxy = services(compose)["proxy"]
    config = DEPLOY / mounts(proxy)["/etc/nginx/conf.d/default.conf"]
    text = config.read_text(encoding="utf-8")
    upstream = re.search(r"upstream (\w+) \{(.*?)\}", text, re.S)
    assert upstream is not None
    servers = re.findall(r"server ([\w-]+):(\d+)", upstream.group(2))
    assert servers == [(name, "8000") for name in REPLICAS]
    assert f"proxy_pass http://{upstream.group(1)};" in text
    assert re.search(r"proxy_set_header X-Forwarded-(Proto|Host)", text)
    assert {n: c["condition"] for n, c in proxy["depends_on"].items()} == dict.fromkeys(
        REPLICAS, "service_healthy"
    )


def test_the_image_is_built_from_this_project_with_the_postgres_extra(
    compose: dict[str, Any],
) -> None:
    import tomllib

    build = services(compose)[REPLICAS[0]]["build"]
    context = (DEPLOY / build["context"]).resolve()
    assert context == ROOT.resolve()
    dockerfile = (context / build["dockerfile"]).read_text(encoding="utf-8")
    for line in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M):
        for source in line.split():
            assert (context / source).exists(), source
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    installed = re.search(r"pip install [^\n]*'\.\[(\w+)\]'", dockerfile)
    assert installed is not None and installed.group(1) in extras
    assert any(d.startswith("psycopg") for d in extras[installed.group(1)])
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert cmd is not None
    default = yaml.safe_load(cmd.group(1))
    assert build_parser().parse_args(default[1:]).func is cmd_serve


def test_the_health_checks_ask_for_a_route_the_server_has(compose: dict[str, Any]) -> None:
    from regnb.server import _v3

    source = Path(_v3.__file__).read_text(encoding="utf-8")
    for name in (*REPLICAS, "proxy"):
        check = " ".join(services(compose)[name]["healthcheck"]["test"])
        path = re.search(r"http://127\.0\.0\.1(?::\d+)?(/[\w/.]+)", check)
        assert path is not None and f'"{path.group(1)}"' in source, name


@pytest.mark.parametrize(
    ("text", "environ", "expected"),
    [
        ("${A:-x}", {}, "x"),
        ("${A:-x}", {"A": "y"}, "y"),
        ("${A}", {}, ""),
        ("a-${B:-1}-${C:-2}", {"C": "3"}, "a-1-3"),
    ],
)
def test_substitution_follows_compose(text: str, environ: dict[str, str], expected: str) -> None:
    assert substitute(text, environ) == expected

"""A PostgreSQL server for the tests, started by them: `initdb` and `pg_ctl` (Debian's
`postgresql`, found on PATH or in /usr/lib/postgresql/<version>/bin) in a temporary folder, on a
free loopback port, stopped and removed after. Each test gets a database of its own.

Where PostgreSQL or psycopg is missing, the tests that need them are skipped with a line that
says what to install, and fail under CI=true (`.ci/run` installs both).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.serving import free_port

TOOLS = ("initdb", "pg_ctl")
DEBIAN = Path("/usr/lib/postgresql")
USER = "regnb"
START_S = 60  # pg_ctl's bound for the server to come up; it normally takes a second


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(p) for p in path.name.split(".") if p.isdigit())


def find_bin() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`: on PATH, else Debian's newest version."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(DEBIAN.glob("*/bin"), key=lambda p: _version(p.parent), reverse=True)
    for folder in versions:
        if all((folder / tool).exists() for tool in TOOLS):
            return folder
    return None


def missing(reason: str) -> None:
    """Skip the test, or fail it under CI=true, where the CI script installs PostgreSQL."""
    message = f"{reason}: install Debian's postgresql (apt-get install postgresql) and psycopg"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


class PgServer:
    """A PostgreSQL server in `folder`, run by `run_as` (initdb refuses root) on `port`."""

    def __init__(self, bin_dir: Path, folder: Path) -> None:
        self.bin, self.folder = bin_dir, folder
        self.data, self.log = folder / "data", folder / "server.log"
        self.port = free_port()
        self._names = itertools.count()
        self._user: str | None = None
        if os.geteuid() == 0:  # as root: the server runs as an unprivileged user
            self._user = next(u for u in ("postgres", "nobody") if _user_exists(u))
            entry = pwd.getpwnam(self._user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str) -> None:
        subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            check=True,
            capture_output=True,
            user=self._user,
            cwd=self.folder,
            env={**os.environ, "LC_ALL": "C", "TZ": "UTC"},
        )

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8", "-N")
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": "''",
            "max_connections": "300",
            "fsync": "off",  # a throwaway server: speed over durability
            "synchronous_commit": "off",
            "full_page_writes": "off",
        }
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())
        try:
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t",
                      str(START_S), "start")  # fmt: skip
        except subprocess.CalledProcessError as exc:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {exc.stderr!r}\n{log}") from exc

    def pause(self) -> None:
        """Stop the server, keeping its data (an outage); `resume` starts it again."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")  # data kept

    def resume(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t",
                  str(START_S), "start")  # fmt: skip

    def freeze(self) -> None:
        """Stop every process of the server with SIGSTOP (a hung host, a paused container): it
        keeps its connections open but answers nothing until `thaw`."""
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen server go on (SIGCONT)."""
        self._signal(signal.SIGCONT)

    def _signal(self, sig: signal.Signals) -> None:
        """Send `sig` to the postmaster and each of its children (its backends)."""
        main = int((self.data / "postmaster.pid").read_text().split()[0])
        for pid in [main, *_children(main)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.thaw()  # a frozen server takes no signal to stop
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def start_server() -> PgServer:
    """A running server; skips (fails under CI=true) when PostgreSQL or psycopg is missing."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (pip install -e '.[test]')")
    bin_dir = find_bin()
    if bin_dir is None:
        missing("PostgreSQL's initdb and pg_ctl are not on this machine")
        raise AssertionError  # not reached: missing() skips or fails
    folder = Path(tempfile.mkdtemp(prefix="regnb-pg-"))
    os.chmod(folder, 0o755)
    server = PgServer(bin_dir, folder)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server

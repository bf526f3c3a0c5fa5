"""The server's files are the server's: islands come by name from those it knows, never a path from
a request; the data folder is 0700 and its files 0600 whatever the umask."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.service.web import create_app
from maps import islands

from ..service.helpers import Browser, make_service

FORM = {"ruleset": "warcraft", "players": "Ann, Ben"}


@pytest.fixture
def served(tmp_path):
    service = make_service(tmp_path / "data")
    yield service, create_app(service, testing=True)
    service.close()


@pytest.mark.parametrize("name", ["/dev/zero+sample-small-1", "sample-large-1+/etc/passwd",
                                  "sample-large-1+../../etc/passwd", "sample-large-1+" + "x" * 5000,
                                  "sample-large-1+sample-small-1.json", "sample-large-1+/proc/self/environ"])
def test_a_path_in_the_request_is_never_read(served, name, monkeypatch):
    service, app = served
    opened = []
    real = islands.load_island
    monkeypatch.setattr(islands, "load_island", lambda p: opened.append(p) or real(p))
    r = Browser(app).unlock().post("/setup", form={**FORM, "islands": name})
    assert r.status_code == 400 and b"Unknown island" in r.data and b"Traceback" not in r.data
    assert not [p for p in opened if "/" in p]  # nothing outside the companion's own islands was opened
    assert service.owner.game is None


def test_an_island_entered_into_the_data_folder_is_known_by_name(served):
    service, app = served
    own = service.data / "islands"
    own.mkdir()
    data = json.loads((Path(islands.__file__).parent / "islands" / "sample-small-2.json").read_text())
    data.update(name="attic", sample=False, title="Attic")
    (own / "attic.json").write_text(json.dumps(data))
    r = Browser(app).unlock().post("/setup", form={**FORM, "islands": "sample-large-1+attic"})
    assert r.status_code == 302, r.data
    assert service.owner.game.board.players == 2 and "Attic" in service.owner.game.board.title


def test_the_data_folder_and_its_files_are_private_whatever_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        data = tmp_path / "data"
        data.mkdir(mode=0o755)
        (data / "leftover.txt").write_text("x")
        os.chmod(data / "leftover.txt", 0o644)
        service = make_service(data)
        service.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for name in ("companion.sqlite3", "table-code", "leftover.txt"):
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name


def test_the_systemd_unit_sets_a_umask():
    unit = (Path(__file__).resolve().parents[2] / "deploy" / "companion.service").read_text()
    assert "UMask=0077" in unit and "StateDirectoryMode=0700" in unit


@pytest.mark.parametrize("data", ["/etc/passwd", "/dev/null"])
def test_serve_with_a_file_for_data_is_one_line(data):
    r = subprocess.run([sys.executable, "-m", "companion", "serve", "--data", data, "--port", "8602"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a folder" in r.stderr, r.stderr

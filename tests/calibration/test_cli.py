import json
import subprocess
import sys

from calibration.cli import main


def test_help_lists_the_steps(capsys):
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    for step in ("camera", "markers", "reference", "regions", "tokens", "selftest", "check"):
        assert step in out


def test_errors_are_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path), "regions", "--order"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "board.json: missing" in r.stderr
    r = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path), "markers", "--map", "9p"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("error: map '9p'") and "Traceback" not in r.stderr
    (tmp_path / "afile").write_text("x")
    r = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path / "afile"), "markers"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip() == f"error: --dir {tmp_path / 'afile'}: a file, not a folder"
    main(["--dir", str(tmp_path), "markers"])
    r = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path), "tokens", "--kind", "gnomes"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "'gnomes' is not a token kind" in r.stderr


def test_markers_status_and_order(tmp_path, capsys):
    assert main(["--dir", str(tmp_path), "markers", "--map", "3p"]) == 0
    assert json.loads(capsys.readouterr().out)["map"] == "3p"
    assert main(["--dir", str(tmp_path), "status"]) == 0
    assert json.loads(capsys.readouterr().out)["steps"]["markers"] == "done"
    assert main(["--dir", str(tmp_path), "regions", "--order"]) == 0
    order = json.loads(capsys.readouterr().out)["order"]
    assert len(order) == 30 and order[0]["prompt"].startswith("Click inside region 0")
    assert main(["--dir", str(tmp_path), "tokens", "--kinds", "gnomes"]) == 2
    assert "'gnomes' is not a token kind" in capsys.readouterr().err


def test_fix_region_from_the_command_line(calibrated, tmp_path, capsys):
    import shutil
    shutil.copytree(calibrated[0].path, tmp_path / "c")
    assert main(["--dir", str(tmp_path / "c"), "fix-region", "3", "--polygon", "[[1, 2]]"]) == 2
    assert "region 3: field 'polygon' needs at least 3" in capsys.readouterr().err
    assert main(["--dir", str(tmp_path / "c"), "--camera", "simulated:2p:3", "check"]) == 0


def _house_map(tmp_path):
    """A house board: the 2p board's data under another name, in a file of the table's own."""
    from importlib import resources
    data = json.loads((resources.files("maps") / "boards" / "2p.json").read_text(encoding="utf-8"))
    data["name"] = "house"
    path = tmp_path / "maps" / "house.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_house_map_is_calibrated_like_a_built_in_one(tmp_path, capsys, monkeypatch):
    from calibration import check, flow
    from calibration.folder import Folder
    from calibration.sim import SimulatedTable
    from vision.settings import Settings
    house = _house_map(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["--dir", "c", "markers", "--map", "maps/house.json"]) == 0
    assert json.loads(capsys.readouterr().out)["map"] == str(house)  # read back from anywhere
    monkeypatch.chdir("/")
    folder = Folder(tmp_path / "c")
    assert main(["--dir", str(folder.path), "regions", "--order"]) == 0
    assert len(json.loads(capsys.readouterr().out)["order"]) == 23
    table = SimulatedTable(str(house), 3)
    flow.reference_step(Settings(), folder, table)
    flow.regions_step(folder, flow.truth_seeds(table))
    item = next(it for it in check.run(Settings(), folder)["items"] if it["name"] == "every region registered")
    assert item["ok"], item


def test_the_users_own_board_measured_and_checked_against_the_camera(tmp_path, capsys):
    """A ruler measurement or two on the command line; the empty board's picture says when they do not fit."""
    d = ["--dir", str(tmp_path), "--yes"]
    assert main(d + ["markers", "--map", "2p", "--board", "580x440", "--marker-mm", "36", "--marker-inset", "25",
                     "--token-mm", "20"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["board_mm"] == [580, 440] and out["marker_mm"] == 36 and out["token_mm"] == 20
    board = json.loads((tmp_path / "board.json").read_text())
    assert board["markers"][2]["center"] == [555, 415] and board["width_mm"] == 580
    assert main(d + ["reference"]) == 0  # the simulated board is 580 x 440 mm: it fits
    capsys.readouterr()
    # Measured 40 mm too wide: the markers look stretched across, and the message says which.
    assert main(d + ["markers", "--map", "2p", "--board", "620x440"]) == 0
    capsys.readouterr()
    assert main(d + ["reference"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: board: the markers measure") and "board's width" in err and "\n" not in err
    # A marker sheet printed at another size than given: the side or the spacing is wrong.
    assert main(d + ["markers", "--map", "2p", "--marker-mm", "40"]) == 0
    capsys.readouterr()
    assert main(d + ["reference"]) == 2
    assert "the marker side or the distance between the markers' centres" in capsys.readouterr().err
    for bad, says in ((["--board", "600by400"], "expected WIDTHxHEIGHT"), (["--marker-inset", "2"], "--marker-inset 2"),
                      (["--token-mm", "0"], "--token-mm 0"), (["--board", "50x40"], "150 to 2000 mm")):
        assert main(d + ["markers", "--map", "2p"] + bad) == 2
        assert says in capsys.readouterr().err

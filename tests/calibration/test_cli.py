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

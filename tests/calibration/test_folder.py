import json

import pytest

from calibration import CalibrationError, Folder


def test_status_follows_files_and_dependencies(tmp_path):
    f = Folder(tmp_path)
    assert set(f.status().values()) == {"missing"}
    (tmp_path / "board.json").write_text("a")
    f.record("markers", ["board.json"])
    (tmp_path / "empty.png").write_text("b")
    f.record("reference", ["empty.png"])
    assert f.status()["reference"] == "done"
    (tmp_path / "empty.png").write_text("changed")
    assert f.status()["reference"] == "changed"
    assert f.changed_files("reference") == ["empty.png"]
    f.record("reference", ["empty.png"])
    (tmp_path / "board.json").write_text("other board")
    f.record("markers", ["board.json"])
    st = f.status()
    assert st["markers"] == "done" and st["reference"] == "outdated" and st["camera"] == "missing"


def test_manifest_errors_are_one_line(tmp_path):
    f = Folder(tmp_path)
    with pytest.raises(CalibrationError, match="did not write"):
        f.record("markers", ["board.json"])
    with pytest.raises(CalibrationError, match="unknown step"):
        f.record("dinner", [])
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "x"}))
    with pytest.raises(CalibrationError, match="manifest.json: field 'format'"):
        f.status()

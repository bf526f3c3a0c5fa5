"""The service loads the saved calibration when configured, and says in one line when it cannot."""
import argparse

import numpy as np

from companion.commands import serve
from companion.service import calibrated
from companion.service.camera_demo import Camera, usable_in_demo
from companion.service.runtime import Service

from .helpers import Browser, TABLE_CODE, camera_config as config


def test_not_configured_nothing_is_loaded_or_said(tmp_path):
    assert calibrated.load(config(tmp_path, load=False)) == (None, "")


def test_no_saved_calibration_is_one_line_naming_the_folder(tmp_path):
    saved, line = calibrated.load(config(tmp_path))  # the default folder: DATA_DIR/calibration
    assert saved is None
    assert line == (f"camera: no saved calibration in {tmp_path / 'data' / 'calibration'}: "
                    "open /calibrate on the dashboard (or run python -m calibration)")


def test_a_saved_calibration_is_loaded_for_vision(saved_folder, tmp_path):
    saved, line = calibrated.load(config(tmp_path, saved_folder))
    assert line == f"camera: calibration loaded from {saved_folder} (map 2p, 23 regions, 6 token kinds)"
    assert saved.map == "2p" and saved.camera == "simulated:2p:3" and saved.folder == saved_folder
    assert sorted(saved.model.labels) == sorted(["elves", "elves-decline", "orcs", "orcs-decline", "lost-tribe",
                                                 "mountain"])


def test_a_stale_calibration_names_the_steps_to_redo(saved_folder, tmp_path):
    (saved_folder / "model.npz").write_bytes(b"not a model")
    (saved_folder / "geometry.json").write_text((saved_folder / "geometry.json").read_text() + " ")
    saved, line = calibrated.load(config(tmp_path, saved_folder))
    assert saved is None
    assert line == (f"camera: the calibration in {saved_folder} is stale: redo regions (its files changed), "
                    "tokens (its files changed); open /calibrate on the dashboard (or run python -m calibration)")


def test_serve_says_how_loading_went(saved_folder, tmp_path, capsys, monkeypatch):
    from companion.service.server import Server
    monkeypatch.setattr(Server, "run", Server.close)  # start, print, stop
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[service]\ntable_code = "{TABLE_CODE}"\n[camera]\nload_calibration = true\n'
                   f'calibration_dir = "{tmp_path / "elsewhere"}"\n')
    args = argparse.Namespace(config=str(cfg), host="127.0.0.1", port=0, data=str(tmp_path / "data"))
    assert serve.run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"companion: camera: no saved calibration in {tmp_path / 'elsewhere'}: open /calibrate on the " \
           "dashboard (or run python -m calibration)" in out
    assert "companion: camera: not watched: no usable calibration (see the line above)" in out
    cfg.write_text(cfg.read_text().replace(str(tmp_path / "elsewhere"), str(saved_folder)))
    assert serve.run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"companion: camera: calibration loaded from {saved_folder} (map 2p, 23 regions, 6 token kinds)" in out
    assert ("companion: camera: not watched: [camera] source is the simulated table ('simulated:2p:3'); "
            "set picamera, camera:N or a folder of frames") in out


def test_the_demo_camera_reads_through_the_saved_calibration(saved_folder, tmp_path):
    saved, _ = calibrated.load(config(tmp_path, saved_folder))
    assert usable_in_demo(saved, "4p")[0] is None
    assert "is for map 2p and the demo plays 4p" in usable_in_demo(saved, "4p")[1]
    other, line = usable_in_demo(calibrated.Saved(saved.folder, "2p", "picamera", None, None), "2p")
    assert other is None and "camera 'picamera'" in line
    assert usable_in_demo(saved, "2p")[0] is saved
    camera = Camera("2p", 1, saved)
    assert camera.calibration is saved.calibration and camera.model is saved.model
    board = {1: {"elves": 2}, 4: {"orcs": 1}, 9: {"lost-tribe": 1}, 13: {"mountain": 1}, 17: {"orcs-decline": 1}}
    seen = camera.look(board)
    assert seen.registered
    right = sum(seen.regions[r].tokens == board.get(r, {}) for r in camera.geometry.regions)
    assert right / len(camera.geometry.regions) >= 0.9


def test_calibrate_pages_use_the_configured_folder_and_camera(tmp_path):
    from companion.service.web import create_app
    folder = tmp_path / "my-calibration"
    service = Service(config(tmp_path, folder, load=False, source="simulated:{map}:4"), hardware=False).start()
    try:
        app = create_app(service, testing=True)
        browser = Browser(app).unlock()
        page = browser.page("/").data.decode()
        assert '<a href="/calibrate/">Calibrate</a>' in page
        r = browser.post("/calibrate/api/map", {"map": "2p"})
        assert r.status_code == 200, r.data
        assert (folder / "board.json").is_file() and (folder / "markers.pdf").is_file()
        assert not (tmp_path / "data" / "calibration").exists()
        r = browser.post("/calibrate/api/camera", {})
        assert r.status_code == 200, r.data
        assert r.get_json()["found"] == [0, 1, 2, 3]
        assert app.extensions["calibrate"].camera.name == "simulated:2p:4"  # [camera] source, map filled in
        r = browser.post("/calibrate/api/tokens/gnomes", {})
        assert r.status_code == 400 and "'gnomes' is not a token kind" in r.get_json()["sentence"]
        r = browser.page("/calibrate/tray.png?kind=elves")  # step 5: where to lay the tokens, seen now
        assert r.status_code == 200 and r.mimetype == "image/png" and r.data.startswith(b"\x89PNG")
    finally:
        service.close()


def test_a_phone_sees_no_calibrate_link(tmp_path):
    from companion.service.web import create_app
    service = Service(config(tmp_path, load=False), hardware=False).start()
    try:
        assert "Calibrate" not in Browser(create_app(service, testing=True)).page("/").data.decode()
    finally:
        service.close()


def test_saved_outlines_are_what_vision_uses(saved_folder, tmp_path):
    from vision.geometry import load
    saved, _ = calibrated.load(config(tmp_path, saved_folder))
    grown = load(saved_folder / "geometry.json")
    for rid, poly in grown.regions.items():
        assert np.allclose(saved.calibration.geometry.regions[rid], poly)


def test_calibrate_a_house_map_from_the_dashboard(tmp_path):
    import json
    from importlib import resources

    from companion.service.web import create_app
    data = json.loads((resources.files("maps") / "boards" / "3p.json").read_text(encoding="utf-8"))
    data["name"] = "house"
    house = tmp_path / "house.json"
    house.write_text(json.dumps(data), encoding="utf-8")
    service = Service(config(tmp_path, tmp_path / "c", load=False), hardware=False).start()
    try:
        browser = Browser(create_app(service, testing=True)).unlock()
        r = browser.post("/calibrate/api/map", {"map": str(tmp_path / "nope.json")})
        assert r.status_code == 400 and "nope.json" in r.get_json()["sentence"]
        r = browser.post("/calibrate/api/map", {"map": str(house)})
        assert r.status_code == 200, r.data
        # The board's own measurements: one sentence for a bad one, the frame written for good ones.
        r = browser.post("/calibrate/api/board", {"width_mm": "wide", "height_mm": 480})
        assert r.status_code == 400 and "field 'width_mm'" in r.get_json()["sentence"]
        r = browser.post("/calibrate/api/board", {"width_mm": 650})
        assert r.status_code == 400 and "give both" in r.get_json()["sentence"]
        r = browser.post("/calibrate/api/board", {"width_mm": 650, "height_mm": 480, "marker_mm": 36, "token_mm": 20})
        assert r.status_code == 200 and r.get_json()["board_mm"] == [650, 480], r.data
        r = browser.post("/calibrate/api/camera", {})
        assert r.status_code == 200 and r.get_json()["found"] == [0, 1, 2, 3], r.data
        r = browser.page("/calibrate/api/regions")
        assert len(r.get_json()["order"]) == 30
    finally:
        service.close()

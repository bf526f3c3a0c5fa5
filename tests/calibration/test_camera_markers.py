import cv2
import numpy as np

from calibration import board, camera, markers
from calibration.folder import Folder
from vision.settings import Settings


def test_camera_check_measures_px_per_mm(table):
    b = board.for_map("2p")
    frame = table.frame()
    result = camera.check(Settings(), b, frame)
    # truth: the camera's scale at the board centre
    c = np.array([[b.width_mm / 2, b.height_mm / 2], [b.width_mm / 2 + 10, b.height_mm / 2]])
    p = table.session.image_points(c)
    truth = np.linalg.norm(p[1] - p[0]) / 10
    assert abs(result.px_per_mm - truth) / truth < 0.15
    assert result.ok and result.found == (0, 1, 2, 3) and "Good" in result.advice
    assert result.aim_height_mm[0] < result.height_mm < result.aim_height_mm[1]


def test_camera_check_warns_when_board_too_small(table):
    b = board.for_map("2p")
    frame = table.frame()
    small = cv2.resize(frame, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA)
    far = np.full_like(frame, 120)  # the same camera mounted higher: the board small in the middle
    far[100:100 + small.shape[0], 200:200 + small.shape[1]] = small
    result = camera.check(Settings(), b, far)
    assert not result.ok
    assert "too small" in result.advice and "lower the camera" in result.advice
    blank = np.full((300, 400, 3), 128, np.uint8)
    assert "No marker seen" in camera.check(Settings(), b, blank).advice


def test_marker_watch_reports_seen_and_stable(table, tmp_path):
    b = board.for_map("2p")
    files = markers.prepare(Folder(tmp_path), b)
    assert (tmp_path / "markers.pdf").read_bytes().startswith(b"%PDF") and "board.json" in files
    watch = markers.MarkerWatch(Settings(), b)
    frame = table.frame()
    covered = frame.copy()
    corners = table.session.image_points(b.marker(2).corners()).astype(np.int32)
    cv2.fillPoly(covered, [corners], (200, 200, 200))
    out = watch.feed(covered)
    assert out["seen"] == [0, 1, 3] and not out["stable"] and "marker 2 not seen" in out["reason"]
    for _ in range(markers.STABLE_FRAMES):
        out = watch.feed(table.frame())
    assert out["seen"] == [0, 1, 2, 3] and out["stable"]


class _FakePicamera2:
    """picamera2's Picamera2 as far as the companion uses it: auto exposure, white balance and focus
    settle on values it reports in its metadata until set_controls fixes them."""

    def __init__(self, frame):
        self.frame, self.set = frame, {}

    def create_video_configuration(self, **kw):
        return kw

    def configure(self, config):
        pass

    def start(self):
        pass

    def capture_array(self, name):
        return self.frame

    def capture_metadata(self):
        return {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "LensPosition": 1.4,
                "Lux": 300.0}

    def set_controls(self, controls):
        self.set.update(controls)

    def stop(self):
        pass

    def close(self):
        pass


def test_lock_fixes_the_pi_cameras_exposure_white_balance_and_focus(table, tmp_path, monkeypatch):
    import json
    import sys
    import types

    from calibration import flow
    from calibration.sim import open_camera
    fake = _FakePicamera2(table.frame())
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda: fake))
    camera = open_camera("picamera")
    out = flow.camera_step(Settings(), Folder(tmp_path), camera, "2p", lock=True)
    assert out["ok"] and out["locked"]
    want = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 16000, "AnalogueGain": 2.5,
            "ColourGains": [1.9, 1.6], "AfMode": 0, "LensPosition": 1.4}
    assert json.loads((tmp_path / "camera.json").read_text())["controls"] == want
    assert fake.set == {**want, "ColourGains": (1.9, 1.6)}  # the camera itself no longer adjusts them

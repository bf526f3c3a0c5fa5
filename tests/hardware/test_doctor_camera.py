"""`companion doctor` through the camera: the configured source opened, its frame's light and focus,
the markers, and the saved calibration against what the camera sees now (simulated camera and
image files standing in for a real one)."""
import shutil

import cv2
import numpy as np
import pytest

from companion.cli import main

AWAY = ["--skip", "scoring-box", "--skip", "gpio", "--skip", "clock", "--skip", "address"]


def doctor(capsys, *args):
    status = main(["doctor", *AWAY, *args])
    out = capsys.readouterr().out
    lines = {}
    for line in out.splitlines():
        if line.startswith("      fix: "):
            lines[last] += (line[len("      fix: "):],)
        elif line.split(" ", 1)[0] in ("ok", "warn", "fail", "skip"):
            state, rest = line.split(None, 1)
            last = rest.split(":", 1)[0]
            lines[last] = (state, rest.split(": ", 1)[1])
    return status, lines, out


@pytest.fixture(scope="module")
def frame():
    from calibration.sim import SimulatedTable
    return SimulatedTable("2p", 3, "realistic").frame()


def write(tmp_path, name, image):
    path = tmp_path / f"{name}.png"
    cv2.imwrite(str(path), image)
    return str(path)


def test_the_configured_simulated_camera_is_opened_and_its_markers_found(tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nsource = "simulated:2p:3"\n')
    status, seen, out = doctor(capsys, "--config", str(config), "--data", str(tmp_path))
    assert seen["camera"][0] == "ok" and "simulated:2p:3: 1280x720 frame" in seen["camera"][1]
    assert seen["markers"][0] == "ok" and "markers 0, 1, 2, 3 seen" in seen["markers"][1]
    assert seen["calibration"][0] == "warn" and "/calibrate" in seen["calibration"][2]
    assert status == 0 and "all checks passed (1 warning(s): calibration)" in out


@pytest.mark.parametrize("spoil, check, words, fix", [
    (lambda f: (f * 0.12).astype(np.uint8), "camera", "too dark", "lamp"),
    (lambda f: cv2.GaussianBlur(f, (0, 0), 3), "markers", "out of focus", "focus the lens"),
    (lambda f: np.full_like(f, 128), "markers", "no marker seen", "stick the four printed markers"),
    (lambda f: cv2.resize(f, None, fx=0.42, fy=0.42, interpolation=cv2.INTER_AREA), "markers", "tokens need",
     "higher resolution"),
])
def test_a_poor_picture_fails_and_says_how_to_fix_it(tmp_path, capsys, frame, spoil, check, words, fix):
    status, seen, _ = doctor(capsys, "--camera", write(tmp_path, "frame", spoil(frame)), "--data", str(tmp_path))
    assert status == 1 and seen[check][0] == "fail" and words in seen[check][1] and fix in seen[check][2]


def test_a_camera_that_cannot_be_opened(tmp_path, capsys):
    status, seen, _ = doctor(capsys, "--camera", str(tmp_path / "absent.png"), "--data", str(tmp_path))
    assert status == 1 and seen["camera"][0] == "fail" and "[camera] source" in seen["camera"][1]
    assert seen["markers"][0] == "skip"
    status, seen, _ = doctor(capsys, "--camera", "camera:7", "--data", str(tmp_path))
    assert seen["camera"][0] == "fail" and "/dev/video" in seen["camera"][2]


def test_the_saved_calibration_against_what_the_camera_sees(tmp_path, capsys, calibrated, frame):
    data = tmp_path / "data"
    shutil.copytree(calibrated[0].path, data / "calibration")
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nsource = "simulated:2p:3"\nload_calibration = true\n')
    _, seen, _ = doctor(capsys, "--config", str(config), "--data", str(data))
    assert seen["calibration"][0] == "ok" and "markers within" in seen["calibration"][1]

    moved = cv2.warpAffine(frame, np.float32([[1, 0, 15], [0, 1, 10]]), frame.shape[1::-1],
                           borderMode=cv2.BORDER_REPLICATE)
    status, seen, _ = doctor(capsys, "--config", str(config), "--data", str(data), "--camera", write(tmp_path, "m", moved))
    assert status == 1 and seen["calibration"][0] == "fail" and "the camera moved" in seen["calibration"][1]
    assert "redo the reference step" in seen["calibration"][2]
    dim = np.clip(frame * 0.6, 0, 255).astype(np.uint8)
    _, seen, _ = doctor(capsys, "--config", str(config), "--data", str(data), "--camera", write(tmp_path, "d", dim))
    assert seen["calibration"][0] == "fail" and "the light changed" in seen["calibration"][1]

    config.write_text('[camera]\nsource = "simulated:2p:3"\n')  # saved, but the service would not load it
    _, seen, _ = doctor(capsys, "--config", str(config), "--data", str(data))
    assert seen["calibration"][0] == "warn" and "load_calibration = true" in seen["calibration"][2]
    (data / "calibration" / "geometry.json").write_text("{}")
    _, seen, _ = doctor(capsys, "--config", str(config), "--data", str(data))
    assert seen["calibration"][0] == "fail" and "regions (changed)" in seen["calibration"][1]


def test_data_folder_that_is_not_there(tmp_path, capsys):
    status, seen, out = doctor(capsys, "--camera", "simulated:2p:3", "--data", "/nonexistent/x")
    assert status == 1 and seen["disk"][0] == "fail" and "/nonexistent/x does not exist" in seen["disk"][1]
    assert "all checks passed" not in out
    (tmp_path / "file").write_text("")
    _, seen, _ = doctor(capsys, "--camera", "simulated:2p:3", "--data", str(tmp_path / "file"))
    assert seen["disk"][0] == "fail" and "is a file" in seen["disk"][1]


def test_data_dir_is_spelled_data_like_every_other_command(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--data-dir", str(tmp_path)])
    assert exit_.value.code == 2


def test_bad_camera_option_is_one_line(capsys):
    assert main(["doctor", "--camera", "camera:one"]) == 2
    err = capsys.readouterr().err
    assert "camera:N" in err and err.count("\n") == 1

import cv2
import numpy as np
import pytest

from vision.errors import SourceError
from vision.sources import ImageFiles, PiCamera, Synthetic, open_source, read_image
from vision.render import random_state


def test_image_folder_in_name_order(tmp_path):
    for name, v in (("b.png", 20), ("a.png", 10)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), v, np.uint8))
    (tmp_path / "notes.txt").write_text("x")
    frames = list(open_source(str(tmp_path)))
    assert [f.image[0, 0, 0] for f in frames] == [10, 20]
    assert frames[1].t > frames[0].t


def test_unreadable_and_missing_images(tmp_path):
    junk = tmp_path / "x.png"
    junk.write_bytes(b"junk")
    with pytest.raises(SourceError, match="not a readable image"):
        read_image(junk)
    with pytest.raises(SourceError, match="no such"):
        list(ImageFiles([tmp_path / "nope.png"]))
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "nope.mp4"))


def test_picamera_missing_is_one_line():
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 present")
    except ImportError:
        pass
    with pytest.raises(SourceError, match="picamera2"):
        PiCamera()


def test_synthetic_source_keeps_truth(clean_session, geometry2p):
    src = Synthetic(clean_session, [random_state(geometry2p, np.random.default_rng(1))])
    frames = list(src)
    assert len(frames) == 1 and len(src.truths) == 1 and frames[0].image.shape == (720, 1280, 3)


def test_settings_locked_at_calibration_are_applied_where_the_source_takes_them(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    for v in (10, 20):
        writer.write(np.full((24, 32, 3), v, np.uint8))
    writer.release()
    locked = {"auto_exposure": 1, "auto_wb": 0, "exposure": 120.0, "AeEnable": False, "ColourGains": [1.5, 1.2]}
    with open_source(str(path)) as video:
        assert video.apply(locked) == {}  # a video file takes no camera settings
        assert len(list(video)) == 2
    assert open_source(str(tmp_path)).apply(locked) == {}  # nor a folder of images

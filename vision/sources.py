"""Frame sources behind one interface: the Pi camera, an OpenCV capture, image files, the renderer.

Every source is an iterator of ``Frame`` (image, time, name) and a context manager.
"""
from __future__ import annotations

import contextlib

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from .errors import SourceError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


@dataclass(frozen=True)
class Frame:
    """One picture from a source: BGR uint8 image, the time it was taken (s), and where it came from."""

    image: np.ndarray
    t: float
    name: str = ""


def read_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file; SourceError (one line) if missing or unreadable."""
    p = Path(path)
    if not p.is_file():
        raise SourceError(f"{p}: no such image file")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise SourceError(f"{p}: not a readable image")
    return img


class FrameSource:
    """Base of all sources: iterate for frames; ``close`` releases the device."""

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def apply(self, controls: dict) -> dict:
        """Set camera controls saved by ``lock`` at calibration; the ones the source took (none here)."""
        return {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ImageFiles(FrameSource):
    """Frames from a folder of images (sorted by name) or a list of files, spaced ``interval`` s apart."""

    def __init__(self, paths, interval: float = 1.0):
        if isinstance(paths, (str, Path)) and Path(paths).is_dir():
            paths = sorted(p for p in Path(paths).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        elif isinstance(paths, (str, Path)):
            paths = [paths]
        self.paths = [Path(p) for p in paths]
        self.interval = interval

    def __iter__(self):
        for i, p in enumerate(self.paths):
            yield Frame(read_image(p), i * self.interval, str(p))


# The settings ``OpenCVCapture.lock`` records, by name (V4L2 through OpenCV).
_CAPTURE_PROPS = {"auto_exposure": cv2.CAP_PROP_AUTO_EXPOSURE, "auto_wb": cv2.CAP_PROP_AUTO_WB,
                  "autofocus": cv2.CAP_PROP_AUTOFOCUS, "exposure": cv2.CAP_PROP_EXPOSURE,
                  "wb_temperature": cv2.CAP_PROP_WB_TEMPERATURE, "focus": cv2.CAP_PROP_FOCUS}


@contextlib.contextmanager
def _opencv_quiet():
    """OpenCV's own log at ERROR only, for a moment (``cv2.utils.logging`` from 4.7, ``cv2.setLogLevel`` on 4.6)."""
    logging_ = getattr(getattr(cv2, "utils", None), "logging", None)
    get, put, error = ((logging_.getLogLevel, logging_.setLogLevel, logging_.LOG_LEVEL_ERROR) if logging_ else
                       (getattr(cv2, "getLogLevel", None), getattr(cv2, "setLogLevel", None), 2))
    before = get() if get and put else None
    if before is not None:
        put(min(before, error))
    try:
        yield
    finally:
        if before is not None:
            put(before)


class OpenCVCapture(FrameSource):
    """A USB webcam (device index) or a video file/URL through ``cv2.VideoCapture``."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1920, 1080)):
        with _opencv_quiet():  # a camera that is not there is our one line, not OpenCV's WARN lines
            self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            what = f"camera:{device} (no such camera: see ls /dev/video*)" if isinstance(device, int) else repr(device)
            raise SourceError(f"cannot open {what}")
        if size:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.device = device

    def lock(self) -> dict:
        """Turn off auto exposure, auto white balance and autofocus, keeping today's values; the
        settings the device accepted (a video file accepts none)."""
        props = {"exposure": cv2.CAP_PROP_EXPOSURE, "wb_temperature": cv2.CAP_PROP_WB_TEMPERATURE,
                 "focus": cv2.CAP_PROP_FOCUS}
        now = {k: self.cap.get(p) for k, p in props.items()}
        out = {}
        # V4L2 through OpenCV: auto exposure 1 is manual; 0 turns auto white balance and autofocus off.
        for name, prop, value in (("auto_exposure", cv2.CAP_PROP_AUTO_EXPOSURE, 1),
                                  ("auto_wb", cv2.CAP_PROP_AUTO_WB, 0), ("autofocus", cv2.CAP_PROP_AUTOFOCUS, 0)):
            if self.cap.set(prop, value):
                out[name] = value
        for k, p in props.items():
            if now[k] and self.cap.set(p, now[k]):
                out[k] = now[k]
        return out

    def apply(self, controls: dict) -> dict:
        """Set again the settings ``lock`` returned (at calibration); the ones the device accepted."""
        out = {}
        for name, prop in _CAPTURE_PROPS.items():  # the automatic modes off first, then the values
            value = controls.get(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and self.cap.set(prop, value):
                out[name] = value
        return out

    def __iter__(self):
        while True:
            ok, img = self.cap.read()
            if not ok:
                return
            yield Frame(img, time.monotonic(), str(self.device))

    def close(self):
        self.cap.release()


class PiCamera(FrameSource):
    """The Raspberry Pi camera through picamera2 (imported only here). Exposure and colour gains
    can be fixed after calibration with ``controls`` (e.g. {"AeEnable": False, "AwbEnable": False})."""

    def __init__(self, size: tuple[int, int] = (1920, 1080), controls: dict | None = None):
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - only on the Pi
        except ImportError:
            raise SourceError("picamera2 is not installed (it comes with Raspberry Pi OS)") from None
        self.cam = Picamera2()
        # "RGB888" in picamera2 is already OpenCV's BGR byte order.
        self.cam.configure(self.cam.create_video_configuration(main={"size": size, "format": "RGB888"}))
        if controls:
            self.cam.set_controls(controls)
        self.cam.start()

    def lock(self) -> dict:
        """Fix exposure, white balance and focus at the values the camera chose for the picture now, so
        they cannot drift during a game; the controls set (to pass as ``controls`` next time)."""
        meta = self.cam.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                controls[key] = meta[key]
        if "LensPosition" in meta:  # an autofocus lens (Camera Module 3)
            controls["AfMode"] = 0  # libcamera's AfModeManual
            controls["LensPosition"] = meta["LensPosition"]
        self.cam.set_controls(controls)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in controls.items()}

    def apply(self, controls: dict) -> dict:
        """Set again the controls ``lock`` returned (at calibration; JSON lists back to tuples); those
        this camera has."""
        known = getattr(self.cam, "camera_controls", None) or {}
        chosen = {k: tuple(v) if isinstance(v, list) else v for k, v in controls.items() if k in known}
        if chosen:
            self.cam.set_controls(chosen)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in chosen.items()}

    def __iter__(self):
        while True:
            yield Frame(self.cam.capture_array("main"), time.monotonic(), "picamera2")

    def close(self):
        self.cam.stop()
        self.cam.close()


class Synthetic(FrameSource):
    """Rendered frames of board states (see ``vision.render``): a fixed camera, one frame per state."""

    def __init__(self, session, states, interval: float = 1.0, hands: bool = False):
        self.session, self.states, self.interval, self.hands = session, list(states), interval, hands
        self.truths = []

    def __iter__(self):
        for i, state in enumerate(self.states):
            img, truth = self.session.frame(state, hand=self.hands)
            self.truths.append(truth)
            yield Frame(img, i * self.interval, f"synthetic-{i}")


def open_source(spec: str) -> FrameSource:
    """A source from a short description: 'picamera', 'camera:0', a video path, or an image folder/file."""
    if spec == "picamera":
        return PiCamera()
    if spec.startswith("camera:"):
        return OpenCVCapture(int(spec.split(":", 1)[1]))
    p = Path(spec)
    if p.is_dir() or p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFiles(p)
    if p.exists():
        return OpenCVCapture(str(p))
    raise SourceError(f"{spec}: no such camera, folder or file")

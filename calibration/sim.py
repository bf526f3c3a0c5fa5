"""The simulated table: the synthetic renderer as the camera, and a simulated player who does as asked.

``SimulatedTable`` renders one board under one camera and lamp (a ``vision.render.Session``). The
calibration steps tell a table what they need (``prepare``): a real table ignores it (the person
at the table does it); the simulated one clears the board or lays tokens on the tray by itself.
"""
from __future__ import annotations

import numpy as np

import maps
from vision import layout
from vision.render import TIERS, Placed, Session

from .errors import CalibrationError

DESIGN_SEED = 7


class SimulatedTable:
    """A camera over a rendered board; ``frame()`` is what it sees now."""

    def __init__(self, map_name: str = "2p", seed: int = 1, tier: str = "realistic",
                 frame_size: tuple[int, int] = (1280, 720), design_seed: int = DESIGN_SEED):
        try:
            board = maps.load(map_name)
        except ValueError as exc:
            raise CalibrationError(f"map {map_name!r}: {exc}") from None
        if tier not in TIERS:
            raise CalibrationError(f"simulated camera: unknown tier {tier!r} (one of {', '.join(TIERS)})")
        self.map_name = map_name
        self.geometry = layout.generate(board)  # the truth: what the printed board really looks like
        realism = type(TIERS[tier])(**{**TIERS[tier].__dict__, "frame_size": tuple(frame_size)})
        self.session = Session(self.geometry, seed, design_seed, realism)
        self.rng = np.random.default_rng(seed + 101)
        self.tokens: list[Placed] = []
        self.name = f"simulated:{map_name}:{seed}" + ("" if tier == "realistic" else f":{tier}")  # open_camera's spec

    def frame(self) -> np.ndarray:
        return self.session.render(self.tokens, None, self.rng)[0]

    def frames(self, n: int) -> list[np.ndarray]:
        return [self.frame() for _ in range(n)]

    def prepare(self, request: dict) -> None:
        """Do what a calibration step asks of the person at the table."""
        kind = request.get("kind")
        if kind == "empty":
            self.tokens = []
        elif kind == "tray":
            self.tokens = [Placed(label, x + self.rng.uniform(-2, 2), y + self.rng.uniform(-2, 2),
                                  float(self.rng.uniform(-180, 180)))
                           for label, x, y in request["slots"]]
        elif kind == "state":
            self.tokens, _ = self.session.place(request["state"], self.rng)

    def lock(self) -> dict:
        """The settings a real camera would now fix (the simulated one never drifts)."""
        return {"AeEnable": False, "AwbEnable": False, "AfMode": "manual", "simulated": True}

    def close(self) -> None:
        pass


class LiveCamera:
    """A real frame source (``vision.sources``) behind the same small interface as the simulated table."""

    def __init__(self, source):
        self.source = source
        self._it = iter(source)
        self.name = getattr(source, "name", type(source).__name__)

    def frame(self) -> np.ndarray:
        try:
            return next(self._it).image
        except StopIteration:
            raise CalibrationError(f"camera {self.name}: no more frames") from None

    def frames(self, n: int) -> list[np.ndarray]:
        return [self.frame() for _ in range(n)]

    def prepare(self, request: dict) -> None:
        pass

    def lock(self) -> dict:
        lock = getattr(self.source, "lock", None)
        return lock() if callable(lock) else {}

    def close(self) -> None:
        self.source.close()


def open_camera(spec: str):
    """'simulated[:map[:seed[:tier]]]' for the renderer, else any ``vision.sources.open_source`` spec."""
    if spec.startswith("simulated"):
        parts = spec.split(":")
        try:
            seed = int(parts[2]) if len(parts) > 2 else 1
        except ValueError:
            raise CalibrationError(f"camera {spec!r}: the seed must be a whole number") from None
        return SimulatedTable(parts[1] if len(parts) > 1 else "2p", seed, parts[3] if len(parts) > 3 else "realistic")
    from vision.errors import SourceError
    from vision.sources import open_source
    if spec.startswith("camera:") and not spec[len("camera:"):].isdigit():
        raise CalibrationError(f"camera {spec!r}: expected camera:N with N the camera's number")
    try:
        return LiveCamera(open_source(spec))
    except SourceError as exc:
        raise CalibrationError(str(exc)) from None

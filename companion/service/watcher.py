"""The camera at a real table, watched for the game: frames in, still observations on the owner's queue.

With a saved calibration loaded, ``companion serve`` opens ``[camera] source`` (``picamera``,
``camera:N``, a video file, a folder of frames) and reads it in its own thread. Each frame goes
through vision's stillness gate; when the board has been still, vision observes it and the
observation joins the owner's one queue, as a button press would. A camera that fails or ends is
said once in the log and opened again every ``[camera] retry_s`` seconds; it never stops the service.
"""
from __future__ import annotations

import json
import logging
import threading
from concurrent.futures import TimeoutError as FutureTimeout

from ..reconcile import LOOKS, follows
from .inputs import Observation

log = logging.getLogger(__name__)


def plan(config, saved) -> tuple[str | None, str]:
    """The source to watch (or None) and the one line ``companion serve`` prints about it."""
    camera = config.camera
    if not camera.load_calibration:
        return None, "camera: not watched ([camera] load_calibration is off): enter the moves on the dashboard"
    if saved is None:
        return None, "camera: not watched: no usable calibration (see the line above)"
    spec = camera.source.replace("{map}", saved.map)
    if spec.startswith("simulated"):
        return None, (f"camera: not watched: [camera] source is the simulated table ({spec!r}); "
                      "set picamera, camera:N or a folder of frames")
    return spec, f"camera: watching {spec} for the game (map {saved.map})"


def recorded_controls(saved, spec: str) -> dict:
    """The controls locked at calibration (camera.json), if it was made with this camera; else {}."""
    try:
        data = json.loads((saved.folder / "camera.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("camera") != spec or not isinstance(data.get("controls"), dict):
        return {}
    return data["controls"]


def sight(observation) -> tuple:
    """What an observation says about the board (tokens and hidden regions; not the confidences)."""
    return tuple(sorted((int(rid), tuple(sorted(view.tokens.items())), bool(view.occluded))
                        for rid, view in observation.regions.items()))


def _quiet_opencv() -> None:
    """OpenCV's own warnings off (each retry of an unplugged webcam printed two): the watcher says it once."""
    import cv2
    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    except AttributeError:  # an OpenCV built without its logging module
        pass


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class Watcher:
    """A daemon thread reading one frame source for the game owner: ``start()``, ``stop()``."""

    def __init__(self, owner, saved, spec: str, *, retry_s: float = 5.0):
        self.owner, self.saved, self.spec, self.retry_s = owner, saved, spec, retry_s
        self.submitted = 0  # observations put on the owner's queue
        self.ended = 0  # times the source failed to open, failed or ran out of frames
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._said = ""  # the last problem logged (each is said once)
        self._closed = False  # the last attempt to open the source failed
        self._unseen = ""  # why the board was last not seen (said once)
        self._waiting = ""  # why observations are not submitted now
        self._last = None  # (sight, game_id, version) of the last observation submitted
        self._again = 0  # still frames more to observe: the follower holds for another look

    def start(self) -> "Watcher":
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def wait_ended(self, times: int = 1, timeout: float | None = None) -> bool:
        """Wait until the source has failed or run out of frames ``times`` times since the start."""
        with self._changed:
            return self._changed.wait_for(lambda: self.ended >= times, timeout)

    # ---------------------------------------------------------------- the thread
    def _run(self) -> None:
        _quiet_opencv()
        while not self._stop.is_set():
            try:
                source = self._open()
            except Exception as exc:  # noqa: BLE001 - any camera failure is one line, then a retry
                self._say(f"camera {self.spec}: cannot open it: {one_line(exc)}; trying again every "
                          f"{self.retry_s:g} s")
                self._closed = True
                self._rest()
                continue
            if self._closed:  # back after failing to open: its next problem is worth a line again
                log.info("camera %s: open again", self.spec)
                self._said, self._closed = "", False
            try:
                with source:
                    self._watch(source)
                if self._stop.is_set():
                    return
                self._say(f"camera {self.spec}: no more frames; opening it again every {self.retry_s:g} s")
            except Exception as exc:  # noqa: BLE001
                self._say(f"camera {self.spec}: stopped: {one_line(exc)}; opening it again every {self.retry_s:g} s")
            self._rest()

    def _open(self):
        from vision.sources import open_source
        source = open_source(self.spec)
        controls = recorded_controls(self.saved, self.spec)
        if controls:
            try:
                applied = source.apply(controls)
            except Exception as exc:  # noqa: BLE001 - the camera still gives frames, with its own settings
                applied, why = {}, f": {one_line(exc)}"
            else:
                why = ""
            if applied:
                log.info("camera %s: the calibration's settings applied (%s)", self.spec, ", ".join(sorted(applied)))
            else:
                log.info("camera %s: the calibration's settings (camera.json) could not be applied to it%s",
                         self.spec, why)
        return source

    def _watch(self, source) -> None:
        from vision.observe import Observer
        from vision.settings import Settings
        observer = Observer(Settings(), self.saved.calibration, self.saved.model)
        for frame in source:
            if self._stop.is_set():
                return
            if not self._following():
                continue  # no game the camera follows: vision rests
            observation = observer.feed(frame.image, frame.t)
            again = observation is None and self._again > 0 and observer.gate.fired
            if again:  # the board still: the next frame is another look (a vote over still frames)
                self._again -= 1
                observation = self._look_again(observer, frame.image)
            if observation is not None:
                self._offer(observation, again)

    def _following(self) -> bool:
        """Whether a game the camera can follow is on (said once in the log when this changes)."""
        public = self.owner.published.public
        if public.get("no_game"):
            why = "no game is set up"
        elif public.get("finished"):
            why = "the game is over"
        elif not follows(public.get("ruleset", "")):
            why = f"the camera does not follow {public.get('ruleset_title', 'these')} games"
        elif public.get("map") != self.saved.map:
            why = f"the game is on map {public['map']} and the calibration is for map {self.saved.map}"
        else:
            why = ""
        if why != self._waiting:
            self._waiting = why
            log.info("camera %s: %s", self.spec, f"not followed: {why}" if why else "following the game")
        return not why

    @staticmethod
    def _look_again(observer, image):
        from vision.observe import observe
        observation, observer.registration = observe(observer.settings, observer.calibration, observer.model,
                                                     image, observer.registration)
        return observation

    def _offer(self, observation, again: bool = False) -> None:
        """Submit a still observation unless it shows what the last one showed and the game has not
        changed, and the follower asked for no other look (``again``: a frame of the same still period,
        observed because it did)."""
        if not observation.registered:
            if observation.reason != self._unseen:
                log.info("camera %s: board not seen: %s", self.spec, observation.reason)
                self._unseen = observation.reason
            return
        self._unseen = ""
        published = self.owner.published
        seen = sight(observation)
        if self._again == 0 and self._last == (seen, published.game_id, published.version):
            return  # (while the follower wants another look, the same sight is submitted again)
        if not again:
            self._again = 0
        future = self.owner.submit(Observation(observation))
        while not self._stop.is_set():
            try:
                outcome = future.result(timeout=0.5)
                break
            except FutureTimeout:
                continue
        else:
            return
        published = self.owner.published
        self._last = (seen, published.game_id, published.version)
        self.submitted += 1
        if outcome.ok and (outcome.data or {}).get("hold"):
            self._again = max(self._again, 0) or LOOKS - 1  # the follower's other looks at most
        if not outcome.ok:
            log.info("camera %s: %s", self.spec, outcome.sentence)

    def _say(self, problem: str) -> None:
        if problem != self._said:
            log.warning("%s", problem)
            self._said = problem

    def _rest(self) -> None:
        with self._changed:
            self.ended += 1
            self._changed.notify_all()
        self._stop.wait(self.retry_s)

"""The running service's parts, wired together: store, game owner, event hub, table hardware."""
from __future__ import annotations

import logging
import secrets

from . import calibrated, codes, datadir
from .config import Config
from .hub import Hub
from .owner import GameOwner, Published
from .passes import Passes
from .picture import Pictures
from .store import Store
from .views import SEAT_RGB

log = logging.getLogger(__name__)


class Service:
    """Everything but the web server: ``start()``, then ``create_app(service)``, then ``close()``."""

    def __init__(self, config: Config, *, hardware: bool = True, camera: bool = True):
        self.config = config
        self.data = datadir.prepare(config.service.data_path)
        self.store = Store(datadir.private_file(self.data / "companion.sqlite3"))
        self.passes = Passes(self.store.path)  # what a table or seat cookie is worth, revocable
        self.secret_key = self.store.meta_or_create("secret_key", lambda: secrets.token_hex(32))
        self.table_code = codes.normalise(config.service.table_code) or self.store.meta_or_create(
            "table_code", lambda: codes.new_code(8))
        self._write_table_code()
        self.owner = GameOwner(self.store, die_seed=config.service.die_seed)
        self.hub = Hub(keepalive_s=config.service.keepalive_s)
        self.owner.listeners.append(self.hub.publish)
        self._use_hardware = hardware
        self.hardware = None
        # The saved calibration ([camera] load_calibration), and the one line the commands print about it.
        self.saved_calibration, self.calibration_note = calibrated.load(config)
        # The board as it looks on the dashboard: the calibrated photo (the demo sets rendered_maps).
        self.pictures = Pictures(self.saved_calibration)
        # The real camera, watched for the game when a calibration is loaded (``camera=False``: the demo,
        # whose simulated camera is its own); ``camera_note`` says in one line whether it is watched.
        self._watch_camera = camera
        self.watcher = None
        self.camera_note = ""

    @property
    def table_code_file(self):
        return self.data / "table-code"

    def _write_table_code(self) -> None:
        """The table code in a file only its owner reads (it is never logged)."""
        path = self.table_code_file
        try:
            if not path.exists() or path.read_text().strip() != self.table_code:
                datadir.private_file(path).write_text(self.table_code + "\n")
        except OSError as exc:
            log.warning("cannot write %s: %s", path, exc.strerror)

    def start(self) -> "Service":
        self.owner.start()
        if self._use_hardware:
            from ..hardware.table import TableHardware
            self.hardware = TableHardware.start(self.config.hardware, self.owner.hardware_submit)
            self.owner.listeners.append(self._show)
            self._show(self.owner.published)
        if self._watch_camera:
            from .watcher import Watcher, plan
            spec, self.camera_note = plan(self.config, self.saved_calibration)
            if spec is not None:
                self.watcher = Watcher(self.owner, self.saved_calibration, spec,
                                       retry_s=self.config.camera.retry_s).start()
        return self

    def _show(self, published: Published) -> None:
        if self.hardware is not None:
            self.hardware.show(table_display(published))

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        self.hub.close()
        self.owner.stop()
        self.passes.close()
        if self.hardware is not None:
            self.hardware.close()
        self.store.close()


def table_display(published: Published):
    """The panel LEDs' and scoring box's snapshot of the published state."""
    from ..hardware.display import TableDisplay
    p = published.public
    if p.get("no_game"):
        return TableDisplay()
    seat = p.get("current")
    colour = SEAT_RGB[seat % len(SEAT_RGB)] if seat is not None else (0, 0, 0)
    rounds = max(1, min(10, p["rounds"]))
    return TableDisplay(round=min(p["round"], rounds), rounds=rounds, colour=colour, die=p.get("die"),
                        alert=bool(p.get("alerts")), agrees=False)

"""What the demo's simulated camera computes once and keeps between runs: the board's geometry laid
out from the map and the token model enrolled from ideal crops (seconds of work each start, the
same every time).

Kept in ``$COMPANION_CACHE`` (else ``$XDG_CACHE_HOME/companion``, else ``~/.cache/companion``) in
vision's own file formats (a geometry file, a token model), under a name that changes with the map
and with vision's code: a change in either makes them again. A cache that cannot be read or written
is made again, never an error.
"""
from __future__ import annotations

import hashlib
import logging
import os
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)


def folder() -> Path:
    explicit = os.environ.get("COMPANION_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "companion"


@lru_cache(maxsize=1)
def _vision_digest() -> str:
    """A digest of vision's source: what lays out, renders and enrolls."""
    import vision
    h = hashlib.sha256()
    root = Path(vision.__file__).parent
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join((_vision_digest(),) + parts).encode()).hexdigest()[:20]


def geometry(board):
    """``vision.layout.generate(board)``, kept between runs."""
    from vision import geometry as geometries
    from vision import layout
    path = folder() / f"geometry-{board.name}-{_key(repr(board))}.json"
    try:
        return geometries.load(path)
    except Exception:  # noqa: BLE001 - missing, unreadable, or written by another version: made again
        pass
    made = layout.generate(board)
    _keep(path, made.save)
    return made


def model(settings, design_seed: int, seed: int):
    """The token model enrolled from ``enrollment_samples(design_seed, seed=seed)``, kept between runs."""
    from vision.classify import enroll, load_model
    from vision.render import enrollment_samples
    path = folder() / f"model-{design_seed}-{seed}-{_key(repr(settings), str(design_seed), str(seed))}.npz"
    try:
        return load_model(path)
    except Exception:  # noqa: BLE001
        pass
    made = enroll(settings, enrollment_samples(design_seed, seed=seed))
    _keep(path, made.save)
    return made


def _keep(path: Path, save) -> None:
    """``save(a path)``, made ``path`` whole or not at all (two demos may start at once)."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save(part)
        os.replace(part, path)
    except OSError as exc:
        part.unlink(missing_ok=True)
        log.info("demo: cannot keep %s for the next start (%s): made again then", path, exc.strerror)

"""bench/vision.py --cache: a picture replayed from the cache is the picture the renderer draws, and leaves
the random generator where drawing it would have left it (so every later frame is the same too)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from vision.render import Session, random_state

from .conftest import DESIGN, small


def _bench():
    spec = importlib.util.spec_from_file_location("bench_vision", Path(__file__).parents[2] / "bench" / "vision.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _frames(session, seed, n=2):
    rng = np.random.default_rng(seed)
    out = [session.frame(random_state(session.geometry, rng), hand=bool(i % 2), rng=rng) for i in range(n)]
    return out, rng.random()


def test_cached_frames_are_the_rendered_ones(tmp_path, monkeypatch, geometry2p):
    monkeypatch.setattr(Session, "render", Session.render)  # put back after the test
    session = Session(geometry2p, seed=31, design_seed=DESIGN, realism=small("foreign"))
    drawn, after = _frames(session, 7)
    cache = _bench().RenderCache(str(tmp_path))
    cache.install()
    first, after_first = _frames(session, 7)
    again, after_again = _frames(session, 7)
    assert (cache.misses, cache.hits) == (2, 2)
    other, _ = _frames(session, 8)  # another state is drawn, not replayed
    assert cache.misses == 4
    assert after == after_first == after_again
    for (img, truth), (img1, truth1), (img2, truth2) in zip(drawn, first, again):
        assert np.array_equal(img, img1) and np.array_equal(img, img2)
        assert truth.regions == truth1.regions == truth2.regions
        assert truth.occluded == truth1.occluded == truth2.occluded
    assert not np.array_equal(other[0][0], drawn[0][0])

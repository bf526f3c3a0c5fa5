import numpy as np

from vision.still import StillnessGate, is_still, thumbnail


def _frames():
    rng = np.random.default_rng(0)
    base = rng.integers(0, 255, (90, 160, 3), dtype=np.uint8).repeat(6, 0).repeat(6, 1)
    moved = base.copy()
    moved[100:300, 200:400] = 30
    return base, moved


def test_is_still(settings):
    base, moved = _frames()
    a, b = thumbnail(settings, base), thumbnail(settings, moved)
    assert is_still(settings, a, thumbnail(settings, base.copy())).still
    res = is_still(settings, a, b)
    assert not res.still and res.moving_share > 0.01


def test_gate_waits_for_stillness(settings):
    base, moved = _frames()
    gate = StillnessGate(settings)
    fired = [gate.update(img, t * 0.1) for t, img in enumerate([base, moved, base, moved])]
    assert not any(fired)
    times = [0.4 + 0.1 * k for k in range(10)]
    fired = [gate.update(base, t) for t in times]
    # Still from t=0.5 on (first frame equal to its predecessor); fires once after still_seconds.
    assert fired.count(True) == 1
    assert times[fired.index(True)] >= 0.5 + settings.still_seconds - 1e-9
    assert not gate.update(moved, 2.0)

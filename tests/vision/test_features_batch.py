"""Features of many tokens at once: an enrollment or a tray check can hand thousands of views to one call."""
import numpy as np

from vision.features import REMAP_ROWS, batch_features, crop_to_mask, normalise, segment_sample
from vision.render import enrollment_samples

from .conftest import DESIGN


def _views(count: int, size: int = 24):
    """``count`` token views (patch, mask) at the features' size: rendered photos, each turned four ways."""
    photos = [img for imgs in enrollment_samples(DESIGN, per_label=2, seed=3).values() for img in imgs]
    base = [normalise(*crop_to_mask(img, segment_sample(img)), size) for img in photos]
    base += [(np.rot90(p, k).copy(), np.rot90(m, k).copy()) for k in (1, 2, 3) for p, m in base]
    views = [base[i % len(base)] for i in range(count)]
    return np.array([v[0] for v in views]), np.array([v[1] for v in views])


def test_more_tokens_in_one_call_than_one_remap_takes():
    """cv2.remap takes images under 32767 rows: 24-px tokens stacked, 1365 of them. More in one call are read
    in batches, each token as it is read in a smaller call."""
    patches, masks = _views(REMAP_ROWS // 24 + 200)
    n = len(patches)
    feats = batch_features(patches, masks)
    assert feats.shape[0] == n and np.isfinite(feats).all()
    # The same tokens in smaller calls (a token's features depend on the tokens stacked beside it only at the
    # ends of a call: the first and last of each are left out of the comparison).
    first = batch_features(patches[:1000], masks[:1000])
    assert np.array_equal(feats[:999], first[:999])
    start = REMAP_ROWS // 24
    tail = batch_features(patches[start:], masks[start:])
    assert np.array_equal(feats[start + 1:n - 1], tail[1:-1])

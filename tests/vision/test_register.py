import numpy as np
import pytest

from vision.errors import RegistrationError
from vision.register import register

from .conftest import small


def test_registration_error_in_mm_is_small(settings, geometry2p, realistic_session):
    img = realistic_session.empty()
    reg = register(settings, geometry2p, img)
    assert reg.found == (0, 1, 2, 3) and not reg.stale
    # Board points seen by the (distorted) camera, mapped back through the registration.
    pts = np.array([poly.mean(0) for poly in geometry2p.regions.values()])
    seen = realistic_session.image_points(pts)
    back = np.linalg.solve(reg.homography, np.column_stack([seen, np.ones(len(seen))]).T).T
    back = back[:, :2] / back[:, 2:]
    err = np.linalg.norm(back - pts, axis=1)
    assert err.max() < 4.0 and np.median(err) < 2.0


def test_recheck_near_known_markers(settings, geometry2p, realistic_session):
    img = realistic_session.empty()
    first = register(settings, geometry2p, img)
    again = register(settings, geometry2p, img, prior=first)
    assert again.method == "recheck" and not again.stale
    assert np.allclose(again.homography, first.homography, atol=1e-3 * np.abs(first.homography).max())


def test_hidden_markers_keep_last_good_homography(settings, geometry2p, realistic_session):
    img = realistic_session.empty()
    first = register(settings, geometry2p, img)
    covered = img.copy()
    for mid in (0, 1):
        x0, y0 = first.corners[mid].min(0).astype(int) - 5
        x1, y1 = first.corners[mid].max(0).astype(int) + 5
        covered[y0:y1, x0:x1] = 128
    reg = register(settings, geometry2p, covered, prior=first)
    assert reg.homography is first.homography
    assert "0, 1" in reg.reason and "\n" not in reg.reason
    with pytest.raises(RegistrationError, match="need 3 of markers"):
        register(settings, geometry2p, covered)


def test_blank_frame_cannot_register(settings, geometry2p):
    with pytest.raises(RegistrationError) as err:
        register(settings, geometry2p, np.full((720, 1280, 3), 90, np.uint8))
    assert "found none" in str(err.value)


def test_rectify_from_kept_maps_is_warp_perspective_to_the_pixel(settings, geometry2p, realistic_session):
    """A pose seen again is rectified by ``remap`` with kept maps: the same pixels as warpPerspective."""
    import cv2

    from vision.geometry import raster
    from vision.register import _MAPS, forget_poses, rectify, rectifying_transform

    img = realistic_session.empty()
    reg = register(settings, geometry2p, img)
    r = raster(geometry2p, settings.px_per_mm, settings.view_margin_mm)
    forget_poses()
    first, again = rectify(settings, img, reg, r), rectify(settings, img, reg, r)
    assert any(v is not None for v in _MAPS.values())   # the second frame used the kept maps
    noisy = np.random.default_rng(3).integers(0, 256, img.shape, dtype=np.uint8)  # every pixel matters
    direct = cv2.warpPerspective(noisy, rectifying_transform(reg, r), r.size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(first, again)
    assert np.array_equal(rectify(settings, noisy, reg, r), direct)


def test_an_unmoved_camera_keeps_its_homography_through_noise_and_blur(settings, geometry2p):
    """A still camera on a dim, noisy, blurred table (the hard tier, a lens with distortion): the markers'
    corners jitter by a pixel from frame to frame, yet the pose is kept, so every frame is rectified
    like the reference; a camera that moved by several pixels is fitted again."""
    from vision.render import Session, random_state

    session = Session(geometry2p, seed=13, design_seed=5, realism=small("hard"))
    first = register(settings, geometry2p, session.empty())
    rng = np.random.default_rng(4)
    for _ in range(4):
        frame, _ = session.frame(random_state(geometry2p, rng))
        reg = register(settings, geometry2p, frame, prior=first)
        assert reg.homography is first.homography and not reg.stale
    shifted = np.roll(frame, 6, axis=1)
    moved = register(settings, geometry2p, shifted, prior=first)
    assert moved.homography is not first.homography
    assert np.allclose(moved.homography[:2, 2] - first.homography[:2, 2], [6, 0], atol=1.0)

"""Fixtures shared across test folders: a table calibrated once through every step on the simulated camera."""
import pytest

CALIBRATION_KINDS = ["elves", "elves-decline", "orcs", "orcs-decline", "lost-tribe", "mountain"]


@pytest.fixture(scope="session", autouse=True)
def _demo_cache(tmp_path_factory):
    """What the demo's simulated camera keeps between runs goes to a folder of the test run, not the
    user's ~/.cache (the demos the tests start, in this process or a child, share it)."""
    import os
    old = os.environ.get("COMPANION_CACHE")
    os.environ["COMPANION_CACHE"] = str(tmp_path_factory.mktemp("companion-cache"))
    yield
    if old is None:
        os.environ.pop("COMPANION_CACHE", None)
    else:
        os.environ["COMPANION_CACHE"] = old


@pytest.fixture(scope="session")
def calibration_table():
    from calibration.sim import SimulatedTable
    return SimulatedTable("2p", 3, "realistic")


@pytest.fixture(scope="session")
def calibrated(tmp_path_factory, calibration_table):
    """(Folder, report by step): the guided calibration of ``calibration_table`` (never changed by a test)."""
    from calibration import flow
    from calibration.folder import Folder
    from vision.settings import Settings
    folder = Folder(tmp_path_factory.mktemp("calibration"))
    report = flow.whole(Settings(), folder, calibration_table, "2p", CALIBRATION_KINDS)
    return folder, report

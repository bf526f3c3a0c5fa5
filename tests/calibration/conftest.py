"""A table calibrated once through every step on the simulated camera, shared by the tests."""
import pytest

from calibration import flow
from calibration.folder import Folder
from calibration.sim import SimulatedTable
from vision.settings import Settings

KINDS = ["elves", "elves-decline", "orcs", "orcs-decline", "lost-tribe", "mountain"]


@pytest.fixture(scope="session")
def table():
    return SimulatedTable("2p", 3, "realistic")


@pytest.fixture(scope="session")
def calibrated(tmp_path_factory, table):
    folder = Folder(tmp_path_factory.mktemp("calibration"))
    report = flow.whole(Settings(), folder, table, "2p", KINDS)
    return folder, report

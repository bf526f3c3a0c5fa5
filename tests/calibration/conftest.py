"""The calibrated simulated table (tests/conftest.py), under the names these tests use."""
import pytest

from ..conftest import CALIBRATION_KINDS as KINDS  # noqa: F401 (imported by the tests)


@pytest.fixture(scope="session")
def table(calibration_table):
    return calibration_table

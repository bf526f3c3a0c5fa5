import shutil

import pytest

from companion.service.web import create_app

from .helpers import make_service


@pytest.fixture
def service(tmp_path):
    s = make_service(tmp_path)
    yield s
    s.close()


@pytest.fixture
def app(service):
    return create_app(service, testing=True)


@pytest.fixture
def saved_folder(calibrated, tmp_path):
    """A copy of the session's calibrated folder (``calibrated``) that a test may change."""
    copy = tmp_path / "saved"
    shutil.copytree(calibrated[0].path, copy)
    return copy

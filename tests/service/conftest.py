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

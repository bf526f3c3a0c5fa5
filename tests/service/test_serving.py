"""The serving layer: the error page never fails itself."""
from jinja2 import DictLoader


def test_the_error_page_never_fails_even_with_its_templates_gone(app):
    """Line 2 of the README once reinstalled the package under a running demo: error.html was
    gone and the error page raised TemplateNotFound itself. Now a plain page answers."""
    app.jinja_env.loader = DictLoader({})  # every template gone
    app.jinja_env.cache.clear()
    r = app.test_client().get("/no-such-page", headers={"Accept": "text/html"})
    assert r.status_code == 404 and b"Not Found" in r.data and b"Back to the table" in r.data
    r = app.test_client().get("/")  # the table page's own template gone: a 500 page, not a crash
    assert r.status_code == 500 and b"the game is safe" in r.data

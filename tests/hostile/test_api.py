"""The JSON API and the pages under hostile requests: malformed input is a 4xx with one sentence,
never a 500 (any route, any body shape, any path parameter, table or seat or stranger)."""
import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.service.web import create_app

from ..service.helpers import Browser, make_service, new_game
from .values import hostile_values

# routes that stream or drive the (simulated) camera for seconds are fuzzed by bench/fuzz.py only
SLOW = ("/events/", "/calibrate/api/camera", "/calibrate/api/watch", "/calibrate/api/reference",
        "/calibrate/api/tokens/selftest", "/calibrate/api/check", "/calibrate/api/regions/grow",
        "/calibrate/preview.jpg", "/calibrate/rectified.png", "/calibrate/tray.png", "/static/")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    service = make_service(tmp_path_factory.mktemp("api"))
    new_game(service)
    app = create_app(service, testing=True)
    yield service, app
    service.close()


def routes(app, method):
    out = []
    for rule in app.url_map.iter_rules():
        if method in rule.methods and not rule.rule.startswith(SLOW):
            out.append(rule.rule)
    return sorted(set(out))


def fill(rule: str, value: str) -> str:
    import re
    return re.sub(r"<[^>]+>", value, rule)


def no_500(r, what):
    assert r.status_code < 500, (what, r.status_code, r.data[:300])
    if r.status_code >= 400 and r.is_json:
        assert isinstance(r.json.get("sentence"), str) and "\n" not in r.json["sentence"], r.json
    assert b"Traceback" not in r.data


BODIES = st.one_of(
    hostile_values().map(lambda v: json.dumps(v).encode()),
    st.integers(30, 200_000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(30, 5000).map(lambda n: b'{"action": ' * n + b"1" + b"}" * n),
    st.sampled_from([b'{"action": {"act": "conquer", "region": ' + b"9" * 5000 + b"}}", b"\xff\xfe", b"",
                     b"null", b"[]", b'"x"', b'{"action": {"act": ["pick"]}}', b'{"action": {"act": {}}}',
                     b'{"face": 1e999}', b'{"region": "NaN"}', b"NaN", b'{"\\ud800": 1}']),
    st.binary(max_size=64))


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(which=st.integers(0, 10_000), raw=BODIES, who=st.sampled_from(["table", "seat", "stranger"]),
       json_type=st.booleans())
def test_any_post_body_is_never_a_500(table, caplog, which, raw, who, json_type):
    service, app = table
    b = Browser(app)
    if who == "table":
        b.unlock()
    elif who == "seat":
        b.join(service.owner.published.codes[0])
    b.page("/")
    paths = routes(app, "POST")
    path = fill(paths[which % len(paths)], "1")
    if path in ("/lock", "/leave"):
        return  # they take no body; covered by the revocation tests
    kind = "application/json" if json_type else "text/plain"
    with caplog.at_level(logging.ERROR):
        r = b.client.post(path, data=raw, content_type=kind, headers={"X-CSRF-Token": b.token})
    no_500(r, (path, raw[:80]))
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR], caplog.text[:500]


PARTS = st.one_of(st.sampled_from(["99999999999999999999", "-1", "0", "1", "%00", "..", "%2e%2e%2fetc",
                                   "x" * 3000, "%ff", "%ud800", "1e9", "4p", "sample-large-1"]),
                  st.text(alphabet=st.characters(codec="ascii", exclude_characters="/?#%"), max_size=30))


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(which=st.integers(0, 10_000), part=PARTS, query=st.dictionaries(
    st.sampled_from(["map", "ruleset", "next", "kind"]), PARTS, max_size=2), unlocked=st.booleans())
def test_any_get_is_never_a_500(table, which, part, query, unlocked):
    service, app = table
    b = Browser(app)
    if unlocked:
        b.unlock()
    paths = routes(app, "GET")
    path = fill(paths[which % len(paths)], part)
    r = b.client.get(path, query_string=query)
    no_500(r, (path, query))


@pytest.mark.parametrize("path", ["/games/99999999999999999999", "/games/99999999999999999999/record.jsonl",
                                  "/api/alerts/99999999999999999999"])
def test_numbers_too_big_for_the_store_are_not_found(table, path):
    service, app = table
    b = Browser(app).unlock()
    r = b.client.get(path) if path.startswith("/games") else b.post(path, {"accept": True})
    assert r.status_code == 404 and b"Traceback" not in r.data


@pytest.mark.parametrize("path, body", [
    ("/api/action", {"action": {"act": {"x": 1}, "region": 3}}), ("/api/action", {"action": {"act": ["pick"]}}),
    ("/calibrate/api/map", [1, 2]), ("/calibrate/api/map", "2p"), ("/api/roll", [1]), ("/api/values", [])])
def test_the_shapes_seen_are_a_400_with_one_sentence(table, path, body):
    service, app = table
    b = Browser(app).unlock()
    r = b.post(path, body)
    assert r.status_code == 400 and r.json["sentence"] and "\n" not in r.json["sentence"], r.data

"""The address phones get (join links, QR codes): one they can reach, never the Pi's own 127.0.0.1."""
import pytest

from companion.service import address
from companion.service.address import for_phones, is_loopback

from .helpers import Browser, new_game

LAN = "198.51.100.7"  # a documentation address: nothing is sent to it


def lan():
    return LAN


def no_lan():
    return None


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.1.1", "localhost", "::1", "[::1]", "LOCALHOST"])
def test_loopback_names(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", [LAN, "companion.local", "10.0.0.2", "fe80::1", ""])
def test_addresses_other_machines_can_use(host):
    assert not is_loopback(host)


def test_the_screen_on_the_pi_itself_hands_out_the_lan_address():
    got = for_phones("", "0.0.0.0", "http://127.0.0.1:8000/", lan=lan)
    assert got.url == f"http://{LAN}:8000" and got.reachable
    assert for_phones("", "0.0.0.0", "http://localhost/", lan=lan).url == f"http://{LAN}"  # port 80 stays implicit
    assert for_phones("", "::", "http://[::1]:8080/", lan=lan).url == f"http://{LAN}:8080"


def test_an_address_phones_can_use_is_kept():
    assert for_phones("", "0.0.0.0", "http://companion.local/", lan=lan).url == "http://companion.local"
    assert for_phones("", "0.0.0.0", "http://10.0.0.2:8000/", lan=no_lan).url == "http://10.0.0.2:8000"
    chosen = for_phones("http://table.example/", "0.0.0.0", "http://127.0.0.1:8000/", lan=no_lan)
    assert chosen.url == "http://table.example" and chosen.reachable


def test_no_reachable_address_says_why_and_what_to_do():
    alone = for_phones("", "0.0.0.0", "http://127.0.0.1:8000/", lan=no_lan)
    assert not alone.reachable and "no network address" in alone.warning and "Wi-Fi" in alone.warning
    bound = for_phones("", "127.0.0.1", "http://127.0.0.1:8000/", lan=lan)
    assert not bound.reachable and 'host = "0.0.0.0"' in bound.warning
    public = for_phones("http://localhost:8000", "0.0.0.0", "http://companion.local/", lan=lan)
    assert not public.reachable and "public_url" in public.warning


class ScreenAt(Browser):
    """The table screen opened at ``base`` (e.g. http://127.0.0.1:8000 in the Pi's own browser)."""

    def __init__(self, app, base):
        super().__init__(app)
        for name in ("get", "post", "put", "delete"):
            call = getattr(self.client, name)
            setattr(self.client, name, lambda *a, _call=call, **kw: _call(*a, base_url=base, **kw))


def test_join_links_and_the_warning_on_the_table_screen(app, service, monkeypatch):
    new_game(service)
    monkeypatch.setattr(address, "lan_address", lan)
    on_the_pi = ScreenAt(app, "http://127.0.0.1:8000").unlock()
    seats = on_the_pi.get("/api/join-codes").json
    assert [s["url"] for s in seats] == [f"http://{LAN}:8000/join/{s['code']}" for s in seats]
    assert b"address-warning" not in on_the_pi.page("/").data
    by_name = ScreenAt(app, f"http://{address.mdns_name()}").unlock()  # http://companion.local on the Pi
    assert all(s["url"].startswith(f"http://{address.mdns_name()}/join/") for s in by_name.get("/api/join-codes").json)

    monkeypatch.setattr(address, "lan_address", no_lan)
    page = on_the_pi.page("/").data.decode()
    assert 'id="address-warning"' in page and "Phones cannot join" in page and "Wi-Fi" in page

"""The address phones use to reach the table (join links, QR codes, ``companion doctor``).

The table screen is often opened on the Pi itself (http://127.0.0.1/): that address means "this
machine" on every phone, so it is never handed out. In order: ``[service] public_url`` when set,
else the address the table screen used when phones can reach it too, else this machine's LAN
address with the same port. When none reaches the LAN, the address comes with a warning that
says why and how to fix it.
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def lan_address() -> str | None:
    """This machine's address on the LAN (no packet is sent: a UDP socket is only pointed at a
    documentation address so the kernel picks the outgoing interface), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def mdns_name() -> str:
    """The name avahi announces this machine by: HOSTNAME.local (http://companion.local after install.sh)."""
    return socket.gethostname().split(".")[0].lower() + ".local"


def is_loopback(host: str) -> bool:
    """A name or address that means "this machine" wherever it is typed."""
    host = (host or "").strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class PhoneAddress:
    """The base URL for phones (no trailing slash), and why phones cannot use it ("" when they can)."""

    url: str
    warning: str = ""

    @property
    def reachable(self) -> bool:
        return not self.warning


def _with_host(url: str, host: str) -> str:
    parts = urlsplit(url)
    port = f":{parts.port}" if parts.port and parts.port != {"http": 80, "https": 443}.get(parts.scheme) else ""
    return f"{parts.scheme}://{host}{port}"


def for_phones(public_url: str, listen_host: str, screen_url: str,
               lan: Callable[[], str | None] | None = None) -> PhoneAddress:
    """Where phones should go, given ``[service] public_url`` and ``host`` and the URL the table
    screen was opened at (``request.host_url``)."""
    if listen_host and is_loopback(listen_host):
        listening = (f"the companion listens only on this machine ([service] host = \"{listen_host}\"): "
                     "phones cannot reach it; set host = \"0.0.0.0\" and restart it")
    else:
        listening = ""
    if public_url:
        url = public_url.rstrip("/")
        if is_loopback(urlsplit(url).hostname or ""):
            return PhoneAddress(url, listening or f"[service] public_url = \"{public_url}\" is this machine's own "
                                "address on every phone: set it to http://" + mdns_name() + " or leave it empty")
        return PhoneAddress(url, listening)
    screen = screen_url.rstrip("/")
    if not is_loopback(urlsplit(screen).hostname or ""):
        return PhoneAddress(screen, listening)
    address = (lan or lan_address)()
    if address is None:
        return PhoneAddress(screen, listening or "this machine has no network address phones can reach: "
                            "connect it to the table's Wi-Fi (or set [service] public_url)")
    return PhoneAddress(_with_host(screen, address), listening)

"""The serving layer over real sockets: many event streams, clients that go or stop reading, the
pages and the API answering all the while, and an error page that never fails itself."""
import json
import socket
import threading
import time
import urllib.request

import pytest
from jinja2 import DictLoader

from companion.service.config import Config, ServiceSettings

from .helpers import TABLE_CODE, new_game, play


@pytest.fixture
def server(tmp_path):
    from companion.service.server import Server
    config = Config(service=ServiceSettings(host="127.0.0.1", port=0, data_dir=str(tmp_path), table_code=TABLE_CODE,
                                            keepalive_s=1.0, die_seed=5))
    s = Server(config, hardware=False)
    s.start_service()
    thread = threading.Thread(target=s.run, daemon=True)
    thread.start()
    yield s
    s.close()
    thread.join(10)


class Stream:
    """A raw event-stream client: reads what it is sent (``read=False``: never reads a byte)."""

    def __init__(self, port, path="/events/table", rcvbuf=None):
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.data = b""

    def versions(self, timeout=0.0) -> list[int]:
        """The event ids read so far (after reading for up to ``timeout`` s)."""
        self.sock.settimeout(0.05)
        end = time.monotonic() + timeout
        while True:
            try:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.data += chunk
            except (TimeoutError, BlockingIOError):
                if time.monotonic() >= end:
                    break
        return [int(line[4:]) for line in self.data.decode(errors="replace").splitlines() if line.startswith("id: ")]

    def until(self, version, timeout=20.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if version in self.versions(0.2):
                return True
        return False

    def close(self):
        self.sock.close()


def get(port, path, timeout=10.0):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        return r.status, json.loads(r.read())


def wait_for(condition, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_hundred_and_twenty_streams_and_the_api_still_answers_and_every_stream_gets_each_action(server):
    """waitress gave each stream one of its 24 threads: the 18th starved every page. Here a stream
    holds no thread."""
    new_game(server.service)
    streams = [Stream(server.port) for _ in range(120)]
    try:
        assert wait_for(lambda: server.service.hub.count == 120)
        status, state = get(server.port, "/api/state")
        assert status == 200 and state["actions"] == 0
        assert play(server.service, "pick tritons").ok
        version = server.service.owner.published.version
        assert all(s.until(version) for s in streams)
        status, state = get(server.port, "/api/state")
        assert state["actions"] == 1
    finally:
        for s in streams:
            s.close()
    assert wait_for(lambda: server.service.hub.count == 0, 5.0), "closed streams must leave at once"


def test_a_reload_storm_leaves_no_stream_behind(server):
    """Phones reloading: each reload drops a stream and opens another; the ones dropped leave the hub
    as soon as their socket closes, and the API answers all the while."""
    new_game(server.service)
    live = [Stream(server.port) for _ in range(5)]
    for _ in range(8):
        storm = [Stream(server.port) for _ in range(25)]
        assert get(server.port, "/api/state")[0] == 200
        for s in storm:
            s.close()
    assert wait_for(lambda: server.service.hub.count == 5, 5.0)
    assert play(server.service, "pick tritons").ok
    version = server.service.owner.published.version
    assert all(s.until(version) for s in live)
    for s in live:
        s.close()


def test_a_client_that_never_reads_is_dropped_and_holds_up_no_one(server, caplog):
    """Its writes block once its socket's buffers are full: after ``stall_s`` the front drops it (and
    the kernel would close it anyway once it has refused data for TCP_USER_TIMEOUT)."""
    caplog.set_level("INFO", logger="companion.service.asgi")
    server.front.stall_s = 1.0
    new_game(server.service)
    reader = Stream(server.port)
    stuck = Stream(server.port, rcvbuf=4096)  # reads nothing, ever
    assert wait_for(lambda: server.service.hub.count == 2)
    published = server.service.owner.published
    big = dict(published.public, padding="x" * 200_000)  # fill its socket's buffers quickly
    # One state at a time, each written before the next (a burst is folded into its newest state, which
    # the kernel's buffers may swallow whole): within 8 s, before the kernel's TCP_USER_TIMEOUT (10 s),
    # so only the front's own stall rule can pass this.
    n, deadline = 0, time.monotonic() + 8.0
    while server.service.hub.count == 2 and time.monotonic() < deadline:
        n += 1
        server.service.hub.publish(type(published)(published.version + n, published.game_id, big, (), (), ()))
        time.sleep(0.02)
    assert server.service.hub.count == 1, "the stalled stream was not dropped"
    assert reader.until(published.version + n)
    assert "read nothing for 1 s: dropped" in caplog.text
    assert get(server.port, "/api/state")[0] == 200
    reader.close()
    stuck.close()


def test_a_stream_flask_refuses_is_answered_by_flask(server):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/events/seat", timeout=10)
        raise AssertionError("a seat stream without a seat")
    except urllib.error.HTTPError as exc:
        assert exc.code == 403 and json.loads(exc.read())["error"] == "forbidden"
    assert server.service.hub.count == 0


def test_a_head_request_for_a_stream_is_answered_and_holds_nothing(server):
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/events/table", method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    assert server.service.hub.count == 0


def test_shutdown_ends_the_open_streams(server):
    streams = [Stream(server.port) for _ in range(10)]
    assert wait_for(lambda: server.service.hub.count == 10)
    server.close()
    for s in streams:
        s.sock.settimeout(10)
        data = b""
        while chunk := s.sock.recv(65536):
            data += chunk
        assert data.endswith(b"0\r\n\r\n")  # the last chunk: the stream ended, not cut
        s.close()


def test_the_error_page_never_fails_even_with_its_templates_gone(app):
    """Line 2 of the README once reinstalled the package under a running demo: error.html was
    gone and the error page raised TemplateNotFound itself. Now a plain page answers."""
    app.jinja_env.loader = DictLoader({})  # every template gone
    app.jinja_env.cache.clear()
    r = app.test_client().get("/no-such-page", headers={"Accept": "text/html"})
    assert r.status_code == 404 and b"Not Found" in r.data and b"Back to the table" in r.data
    r = app.test_client().get("/")  # the table page's own template gone: a 500 page, not a crash
    assert r.status_code == 500 and b"the game is safe" in r.data


STOP_WHILE_LOCKED = r"""
import signal, socket, sys, threading, time
from companion.service.config import Config, ServiceSettings
from companion.service.server import Server

class Treacherous:
    '''The hub's lock, which brings SIGTERM while the main thread (the event loop) holds it.'''
    def __init__(self):
        self.lock, self.armed = threading.Lock(), threading.Event()
    def __enter__(self):
        self.lock.acquire()
        if self.armed.is_set() and threading.current_thread() is threading.main_thread():
            self.armed.clear()
            signal.raise_signal(signal.SIGTERM)  # its handler runs now, with the lock held
        return self
    def __exit__(self, *exc):
        self.lock.release()

server = Server(Config(service=ServiceSettings(host="127.0.0.1", port=0, data_dir=sys.argv[1], table_code="TABLE7")),
                hardware=False)
server.start_service()
server.service.hub._lock = lock = Treacherous()

def stream_then_arm():
    time.sleep(1.0)
    lock.armed.set()
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(b"GET /events/table HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # the loop takes the lock to subscribe
    s.recv(100)

threading.Thread(target=stream_then_arm, daemon=True).start()
server.run()
print("stopped", flush=True)
"""


@pytest.mark.slow
def test_sigterm_while_the_loop_holds_the_hubs_lock_still_stops_the_server(tmp_path):
    """SIGTERM's handler runs on the main thread, which serves: whatever it interrupts, stopping
    must not wait on a lock the interrupted code holds (the service once hung there for good)."""
    import subprocess
    import sys
    child = subprocess.run([sys.executable, "-c", STOP_WHILE_LOCKED, str(tmp_path)], capture_output=True, text=True,
                           timeout=60)
    assert child.stdout.strip() == "stopped", child.stderr[-2000:]

"""Service benchmark: a game night's screens against the real server, in its own process.

The table view and five phones in Chromium (Debian's /usr/bin/chromium through Playwright), five
more phone tabs reloading every second, ``--streams`` raw event streams (most read, some never read
a byte: stale tabs), and a storm of streams opened and dropped at once, while the table plays
``--actions`` actions of a 5-player game through the API. Prints JSON:

- action -> event: from the moment the action is sent (POST /api/action) to its event in each live
  client (each browser, each reading stream): p50, p95 and the worst client's p95; events missed;
- ``/api/state`` answered every 0.2 s all the while: p50, p95, max;
- the service process's resident memory (largest seen, and its high-water mark).

Not a test. Targets: p95 < 250 ms, /api/state < 1 s throughout, RSS < 250 MB.

    python bench/service.py [--actions 60] [--pace 0.3] [--streams 100] [--stale 10] [--ruleset warcraft]
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLE_CODE = "BENCH123"
# Each page's event arrivals, before the page draws them (``window.__seen`` is set once drawn).
ARRIVALS = """
window.__arrived = {};
const Native = window.EventSource;
window.EventSource = function (url, options) {
  const source = new Native(url, options);
  source.addEventListener("state", (e) => { window.__arrived[e.lastEventId] ??= Date.now(); });
  return source;
};
window.EventSource.prototype = Native.prototype;
"""


# ---------------------------------------------------------------- the service, in its own process
def child(data: str, port: int, ruleset: str) -> None:
    """The service as ``companion serve`` runs it, with a 5-player game set up; prints its port and codes."""
    from companion.rules import ruleset as rulesets
    from companion.service.config import Config, ServiceSettings
    from companion.service.inputs import NewGame
    from companion.service.server import Server
    from companion.shuffle import seeded_setup
    rules = rulesets.get(ruleset)
    default_map = getattr(rules, "default_map", None)
    setup = seeded_setup(default_map(5) if default_map else "5p", 5, 1, rules.name)
    server = Server(Config(service=ServiceSettings(host="127.0.0.1", port=port, data_dir=data, table_code=TABLE_CODE)),
                    hardware=False, camera=False)
    server.start_service()
    assert server.service.owner.submit(NewGame(setup, die_seed=1)).result(10).ok
    print(json.dumps({"port": server.port, "codes": list(server.service.owner.published.codes),
                      "setup": setup.to_json()}), flush=True)
    server.run()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process, in MB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out.get("VmRSS", 0.0), out.get("VmHWM", 0.0)


# ---------------------------------------------------------------- the table, through the API
class Table:
    """The table screen's browser as urllib: its cookie, its CSRF token, the table code given."""

    def __init__(self, url: str):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self._token("/unlock")
        self.post_form("/unlock", {"code": TABLE_CODE})
        self.token = self._token("/")

    def _token(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=30) as r:
            return re.search(r'name="csrf-token" content="([^"]+)"', r.read().decode()).group(1)

    def post_form(self, path: str, form: dict) -> None:
        body = urllib.parse.urlencode({**form, "csrf_token": self.token}).encode()
        self.opener.open(urllib.request.Request(self.url + path, data=body), timeout=30).read()

    def act(self, notation: str) -> dict:
        body = json.dumps({"action": notation}).encode()
        request = urllib.request.Request(self.url + "/api/action", data=body, method="POST", headers={
            "Content-Type": "application/json", "X-CSRF-Token": self.token})
        try:
            with self.opener.open(request, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as exc:  # a refusal: its JSON sentence
            return json.loads(exc.read() or b"{}")

    def current(self) -> int | None:
        with self.opener.open(self.url + "/api/state", timeout=30) as r:
            return json.loads(r.read()).get("current")


class Seat(Table):
    """A player's phone as urllib: joined with the seat's code (the QR code's page, then its button)."""

    def __init__(self, url: str, code: str):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self._token(f"/join/{code}")
        self.post_form("/join", {"code": code})
        self.token = self._token("/seat")


# ---------------------------------------------------------------- raw event streams
class Streams:
    """Event streams on raw sockets, read by one thread: the time each event id arrives on each."""

    def __init__(self, port: int):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.seen: dict[int, dict[int, float]] = {}  # stream -> version -> ms
        self.buffers: dict[int, bytes] = {}
        self.silent: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _connect(self, rcvbuf: int | None = None) -> socket.socket:
        sock = socket.socket()
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(b"GET /events/table HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        return sock

    def open_reading(self, n: int) -> None:
        for _ in range(n):
            sock = self._connect()
            sock.setblocking(False)
            with self._lock:
                self.seen[sock.fileno()] = {}
                self.buffers[sock.fileno()] = b""
                self.selector.register(sock, selectors.EVENT_READ)

    def open_silent(self, n: int) -> None:
        """Stale tabs that never read a byte (small receive buffers, as a phone asleep would leave them)."""
        self.silent += [self._connect(rcvbuf=4096) for _ in range(n)]

    def storm(self, n: int) -> None:
        """Open ``n`` streams and drop them at once (reloads, tabs closed)."""
        socks = [self._connect() for _ in range(n)]
        for s in socks:
            s.close()

    def _read(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                ready = self.selector.select(timeout=0.05) if self.selector.get_map() else []
            if not ready:
                time.sleep(0.01)
                continue
            now = time.time() * 1000
            for key, _ in ready:
                fd = key.fd
                try:
                    chunk = key.fileobj.recv(262144)
                except BlockingIOError:
                    continue
                if not chunk:
                    with self._lock:
                        self.selector.unregister(key.fileobj)
                    continue
                data = self.buffers[fd] + chunk
                lines = data.split(b"\n")
                self.buffers[fd] = lines.pop()
                for line in lines:
                    if line.startswith(b"id: "):
                        self.seen[fd].setdefault(int(line[4:]), now)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        for s in self.silent:
            s.close()


# ---------------------------------------------------------------- /api/state all the while
class StatePoller(threading.Thread):
    def __init__(self, url: str, every_s: float = 0.2):
        super().__init__(daemon=True)
        self.url, self.every_s = url, every_s
        self.times: list[float] = []
        self.failures = 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            start = time.monotonic()
            try:
                with urllib.request.urlopen(self.url + "/api/state", timeout=10) as r:
                    r.read()
                self.times.append((time.monotonic() - start) * 1000)
            except OSError:
                self.failures += 1
            self._done.wait(max(0.0, self.every_s - (time.monotonic() - start)))

    def stop(self) -> None:
        self._done.set()
        self.join(15)


def quantiles(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    xs = sorted(xs)
    return {"n": len(xs), "p50": round(statistics.median(xs), 1), "p95": round(xs[int(0.95 * (len(xs) - 1))], 1),
            "max": round(xs[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between actions")
    parser.add_argument("--streams", type=int, default=100, help="raw event streams held open (idle screens)")
    parser.add_argument("--stale", type=int, default=10, help="of those, how many never read a byte")
    parser.add_argument("--storm", type=int, default=10, help="streams opened and dropped every second")
    parser.add_argument("--reloading", type=int, default=5, help="phone tabs reloading every second (up to 5)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ruleset", default="smallworld",
                        help="smallworld (the 5p map) or warcraft (the 5-player SAMPLE islands)")
    parser.add_argument("--child", nargs=3, metavar=("DATA", "PORT", "RULESET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    here = Path(__file__).resolve().parent  # bench/calibration.py must not shadow the calibration package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2])
        return

    from playwright.sync_api import sync_playwright

    from companion.rules.setup import Setup
    from companion.simulate import play
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, __file__, "--child", data, str(args.port), args.ruleset],
                                stdout=subprocess.PIPE, text=True)
        try:
            info = json.loads(proc.stdout.readline())
            url = f"http://127.0.0.1:{info['port']}"
            result = run(args, proc.pid, url, info, Setup.from_json(info["setup"]), play, sync_playwright)
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                print("the service did not stop within 30 s of SIGTERM: killed", file=sys.stderr)
                proc.kill()
                proc.wait()
    print(json.dumps(result, indent=1))


def run(args, pid, url, info, setup, play, sync_playwright) -> dict:
    table = Table(url)
    base = json.loads(urllib.request.urlopen(url + "/api/state", timeout=30).read())["version"]
    history = play(setup, 1).history[:args.actions]
    rss = [memory(pid)[0]]
    streams = Streams(info["port"])
    streams.open_reading(args.streams - args.stale)
    streams.open_silent(args.stale)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        def new_page():
            context = browser.new_context()
            context.add_init_script(ARRIVALS)
            return context.new_page()

        pages = [new_page()]
        pages[0].goto(url + "/")
        reloading = []
        for n, code in enumerate(info["codes"]):
            for group in (pages, reloading) if n < args.reloading else (pages,):
                page = new_page()
                page.goto(f"{url}/join/{code}")
                page.click("button:has-text('Join')")  # the QR code's page: one button
                page.wait_for_url(f"{url}/seat")
                group.append(page)
        for page in pages:
            page.wait_for_function("Object.keys(window.__seen).length > 0")
        poller = StatePoller(url)
        poller.start()
        sent: dict[int, float] = {}
        refused = []

        phones = [Seat(url, code) for code in info["codes"]]

        def actions():
            for k, action in enumerate(history, 1):
                at = time.time() * 1000
                out = table.act(action.notation())
                if out.get("error") == "conflict" and action.notation().startswith("pick"):
                    out = phones[table.current()].act(action.notation())  # a paid pick: on the phone
                if not out.get("ok"):
                    refused.append((action.notation(), out))
                sent[base + k] = at
                time.sleep(args.pace)

        player = threading.Thread(target=actions, daemon=True)
        cpu_before = cpu_seconds(pid)
        started = time.monotonic()
        player.start()
        next_reload = 0.0
        while player.is_alive():
            if time.monotonic() >= next_reload:  # every second: five phones reload, a storm of streams
                next_reload = time.monotonic() + 1.0
                for page in reloading:
                    page.reload(wait_until="commit")
                streams.storm(args.storm)
                rss.append(memory(pid)[0])
            time.sleep(0.05)
        seconds = time.monotonic() - started
        cpu = cpu_seconds(pid) - cpu_before
        time.sleep(1.5)
        poller.stop()
        browser_seen = [{int(v): t for v, t in page.evaluate("window.__seen").items()} for page in pages]
        browser_arrived = [{int(v): t for v, t in page.evaluate("window.__arrived").items() if v} for page in pages]
        browser.close()
    rss.append(memory(pid)[0])
    hwm = memory(pid)[1]
    final = json.loads(urllib.request.urlopen(url + "/api/state", timeout=30).read())
    streams.close()

    def latencies(seen_by_client):
        per_client, missed = [], 0
        for seen in seen_by_client:
            lat = [seen[v] - t for v, t in sent.items() if v in seen]
            missed += sum(1 for v in sent if v not in seen)
            per_client.append(lat)
        every = [x for lat in per_client for x in lat]
        worst = max((quantiles(lat).get("p95", 0) for lat in per_client if lat), default=None)
        return {**quantiles(every), "worst_client_p95": worst, "clients": len(per_client), "missed": missed}

    stream_seen = [streams.seen[fd] for fd in streams.seen]
    everyone = latencies(browser_arrived + stream_seen)
    return {
        "load_average": [round(x, 1) for x in os.getloadavg()], "cpus": os.cpu_count(),
        "ruleset": setup.ruleset, "map": setup.map, "actions": len(sent), "refused": refused[:3],
        "seconds": round(seconds, 1), "final_version_ok": final["version"] == base + len(history),
        "browsers": len(pages), "reloading_tabs": len(reloading), "reading_streams": len(stream_seen),
        "stale_streams": args.stale, "storm_per_s": args.storm,
        "action_to_event_ms": everyone,
        "action_to_event_ms_browsers_arrived": latencies(browser_arrived),
        "action_to_event_ms_browsers_drawn": latencies(browser_seen),
        "action_to_event_ms_streams": latencies(stream_seen),
        "api_state_ms": {**quantiles(poller.times), "failures": poller.failures},
        "service_rss_mb": {"max_seen": round(max(rss), 1), "high_water": round(hwm, 1)},
        "service_cpu_s_while_playing": round(cpu, 2),
        "targets": {"action_to_event_ms_p95": 250, "api_state_ms_max": 1000, "service_rss_mb": 250},
    }


if __name__ == "__main__":
    main()

"""Drives headless Chromium through the streamed Dashboard whose cards are a forwards SuspenseList,
served by `DashboardServer --test-clock`, moving the server's test clock step by step.

usage: browser-reveal-check.py SERVER_URL WHOLE_DOM OUT_DIR [--page PATH]

A stdlib HTTP server on 127.0.0.1 serves a harness page at / and, at /page, the server's PATH
(default /list) passed through chunk by chunk, so that the harness reads the page's DOM in a
same-origin iframe. The clock moves so that the cards' queries answer in an order unlike the
page's (Visitors at 60 ms, Release notes at 100, Tasks at 150, Alerts failing at 250, the
comments at 400, Signups last at 450). After each step the harness waits until the page's DOM has
stopped changing, then posts the cards Chromium shows, in page order, and the DOM. Each step must
show exactly the cards the list allows: its rows revealed from the top, the next row's placeholder
(the collapsed tail), an error as soon as it is caught, and nothing of a row whose data came early
but whose turn has not come. Screenshots of a middle step and of the end go to OUT_DIR
(through Chrome's DevTools protocol on a pipe), and the final DOM must equal the whole render's
(WHOLE_DOM, Chromium's DOM of `render(.html)`), checked by compare-dom.py.

`--page /` (the cards with no list, each shown as it loads) must fail: the harness's own check.
"""
import base64
import fcntl
import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

server_url, whole_dom, out = sys.argv[1], sys.argv[2], sys.argv[3]
page_path = "/list"
if sys.argv[4:5] == ["--page"]:
    page_path = sys.argv[5]
upstream = urlparse(server_url)

SHOWN, LOADING, ERROR = "shown", "loading", "error"
FIRST = [("Visitors", LOADING)]
TOP = [("Visitors", SHOWN), ("Signups", LOADING)]
FAILED = TOP + [("Alerts", ERROR)]
ALL = [("Visitors", SHOWN), ("Signups", SHOWN), ("Alerts", ERROR), ("Tasks", SHOWN), ("Release notes", SHOWN)]
# (clock time in ms, calls sleeping on the clock just before it moves there, what answers then,
#  the cards shown after it, a screenshot's name)
STEPS = [
    (0, 5, "nothing yet: the shell", FIRST, None),
    (60, 5, "Visitors (row 1)", TOP, None),
    (100, 4, "Release notes (row 5): held", TOP, None),
    (150, 4, "Tasks (row 4): held", TOP, "reveal-middle.png"),
    (250, 3, "Alerts (row 3) fails: its error shows", FAILED, None),
    (400, 2, "the comments, inside the held row 5", FAILED, None),
    (450, 1, "Signups (row 2): rows 2 to 5 reveal", ALL, "reveal-end.png"),
]

HARNESS = r"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>reveal check</title>
<style>body{margin:0}iframe{width:100%;height:100vh;border:0;display:block}</style></head><body>
<iframe id="page" src="/page"></iframe>
<script>
const frame = document.getElementById("page");
const pause = ms => new Promise(resolve => setTimeout(resolve, ms));

// Once the page has its shell, until its DOM has not changed for 600 ms: the chunk a step sent
// has been parsed and its script has run.
async function settled() {
  let last = null, since = performance.now();
  for (;;) {
    const doc = frame.contentDocument;
    const dom = doc && doc.querySelector("main") ? doc.documentElement.outerHTML : null;
    if (dom !== last) { last = dom; since = performance.now(); }
    else if (dom !== null && performance.now() - since >= 600) return;
    await pause(50);
  }
}

// The cards Chromium lays out (a card in a template, or hidden, has no box), in page order.
function cards(doc) {
  return Array.from(doc.querySelectorAll("section.card"))
    .filter(card => card.getClientRects().length > 0)
    .map(card => [card.querySelector("h2").textContent,
                  card.classList.contains("loading") ? "loading" : card.classList.contains("error") ? "error" : "shown"]);
}

(async () => {
  for (;;) {
    const step = await (await fetch("/next")).json();
    if (step.done) break;
    await settled();
    const doc = frame.contentDocument;
    const dom = "<!DOCTYPE html>" + doc.documentElement.outerHTML;
    await fetch("/dom", {method: "POST", body: JSON.stringify({step: step.index, cards: cards(doc), dom})});
  }
})();
</script></body></html>"""

steps = queue.Queue()
dumps = queue.Queue()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def do_GET(self):
        if self.path == "/":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(HARNESS.encode())
        elif self.path == "/next":
            try:
                step = steps.get(timeout=300)
            except queue.Empty:
                step = {"done": True}
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(json.dumps(step).encode())
        elif self.path == "/page":
            self.pass_through()
        else:
            self.send_error(404)

    def pass_through(self):
        """The server's page, each piece written on as it comes."""
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=300)
        connection.request("GET", page_path)
        response = connection.getresponse()
        self.send_response(response.status)
        self.send_header("Content-Type", response.getheader("Content-Type", "text/html"))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            while data := response.read1(65536):
                self.wfile.write(data)
                self.wfile.flush()
        except OSError:
            pass
        connection.close()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        if self.path == "/dom":
            dumps.put(json.loads(body))


class DevTools:
    """Chrome's DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3, answers
    on fd 4, each message JSON ending with a NUL byte): only for screenshots."""

    def __init__(self, command):
        self.commands_read, self.commands = os.pipe()
        self.answers, self.answers_write = os.pipe()

        def descriptors():  # in the child: the pipes as fds 3 and 4, moved above them first
            read = fcntl.fcntl(self.commands_read, fcntl.F_DUPFD, 10)
            write = fcntl.fcntl(self.answers_write, fcntl.F_DUPFD, 10)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(command + ["--remote-debugging-pipe"], preexec_fn=descriptors,
                                        close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        os.close(self.commands_read)
        os.close(self.answers_write)
        self.next_id = 0
        self.results = {}
        self.arrived = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        pending = b""
        while chunk := os.read(self.answers, 1 << 20):
            pending += chunk
            *messages, pending = pending.split(b"\0")
            for message in messages:
                message = json.loads(message)
                if "id" in message:
                    with self.arrived:
                        self.results[message["id"]] = message
                        self.arrived.notify_all()

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        number = self.next_id
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        with self.arrived:
            if not self.arrived.wait_for(lambda: number in self.results, timeout=timeout):
                raise RuntimeError(f"DevTools: no answer to {method} within {timeout} s")
            answer = self.results.pop(number)
        if "error" in answer:
            raise RuntimeError(f"DevTools: {method}: {answer['error']}")
        return answer["result"]

    def screenshot(self, origin, path):
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page" and t["url"].startswith(origin))
        session = self.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        data = self.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait()


def clock(method, path):
    connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
    connection.request(method, path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{method} {path}: {response.status} {body.decode(errors='replace')}")
    return json.loads(body)


def wait_for_sleepers(count):
    """Until `count` calls sleep on the clock: the step's queries have begun their latency."""
    state = clock("GET", "/clock/now")
    deadline = time.monotonic() + 60
    while state["sleepers"] != count and time.monotonic() < deadline:
        time.sleep(0.02)
        state = clock("GET", "/clock/now")
    if state["sleepers"] != count:
        raise RuntimeError(f"expected {count} calls sleeping on the clock at {state['now']} ms, found {state['sleepers']}")


harness = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
harness.daemon_threads = True
threading.Thread(target=harness.serve_forever, daemon=True).start()
origin = f"http://127.0.0.1:{harness.server_address[1]}"
chrome = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
          "--hide-scrollbars", "--window-size=1100,700", "--user-data-dir=" + os.path.join(out, ".chromium"),
          f"{origin}/"]
browser = DevTools(chrome)
failures = []
started = time.monotonic()
try:
    now = 0
    for index, (at, sleepers, answers, expected, screenshot) in enumerate(STEPS):
        wait_for_sleepers(sleepers)
        if at > now:
            now = clock("POST", f"/clock/advance?ms={at - now}")["now"]
        steps.put({"index": index})
        try:
            dump = dumps.get(timeout=120)
        except queue.Empty:
            raise RuntimeError(f"the harness posted no DOM at {at} ms")
        with open(os.path.join(out, f"reveal-{at:03}ms.dom.html"), "w", encoding="utf-8") as file:
            file.write(dump["dom"])
        found = [tuple(card) for card in dump["cards"]]
        verdict = "ok" if found == expected else "FAIL"
        print(f"reveal {at:3} ms, {answers}: {verdict}: " + ", ".join(f"{title} {state}" for title, state in found))
        if found != expected:
            failures.append(at)
            print("  expected: " + ", ".join(f"{title} {state}" for title, state in expected))
        if screenshot:
            browser.screenshot(origin, os.path.join(out, screenshot))
    steps.put({"done": True})
finally:
    browser.close()
final = os.path.join(out, f"reveal-{STEPS[-1][0]:03}ms.dom.html")
compared = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "compare-dom.py"), whole_dom,
                           final, "reveal-final"])
if failures or compared.returncode != 0:
    print(f"browser reveal check: FAILED ({page_path}; steps failing: {' '.join(f'{at} ms' for at in failures) or 'none'})")
    sys.exit(1)
print(f"browser reveal check: ok ({page_path}, {len(STEPS)} steps in {time.monotonic() - started:.1f} s; "
      f"screenshots in {out})")

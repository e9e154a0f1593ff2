"""Serves the trees BrowserEquivalence wrote and has one headless Chromium compare them.

usage: browser-equivalence.py DIR [--only K] [--screenshot K MODE PNG]

A stdlib HTTP server on 127.0.0.1 serves, per tree K, /t/K/whole.html and /t/K/MODE.html, the
stream sent chunk by chunk with a few milliseconds between chunks (seeded by the tree), all with
`Content-Security-Policy: script-src 'nonce-…'` (only the run's nonce may run a script). The harness
page / (no CSP) loads each tree's pages in same-origin iframes, a few trees at once, waits for each
load event (the stream has ended), and compares each stream's final DOM (doctype, elements with
their attributes, text, comments; adjacent text merged; processing instructions, the declarative
swap's markers, left out), `body.innerText`, `title` and each textarea's value with the whole
render's. It writes the verdicts into its own DOM and posts them back; this script prints every
failing tree (the seed, the tree, a diff of the two DOMs) and exits 1 if any failed.

With --screenshot, serves the pages and has Chromium take a screenshot of /t/K/MODE.html (MODE
`whole` for the whole render) instead.
"""
import difflib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

directory = sys.argv[1]
args = sys.argv[2:]
only = None
screenshot = None
while args:
    if args[0] == "--only":
        only, args = int(args[1]), args[2:]
    elif args[0] == "--screenshot":
        screenshot, args = (int(args[1]), args[2], args[3]), args[4:]
    else:
        sys.exit(f"unknown argument {args[0]}")

with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as file:
    manifest = json.load(file)
nonce = manifest["nonce"]
modes = manifest["modes"]
trees = [tree for tree in manifest["trees"] if only is None or tree["index"] == only]
csp = f"script-src 'nonce-{nonce}'"
report = threading.Event()
verdicts = {}
violations = []
# Trees loaded at once: Chromium opens at most 6 connections to one host, and streams hold theirs.
workers = int(os.environ.get("BROWSER_EQUIVALENCE_WORKERS", "4"))
# The harness checks itself: a few out-of-order streams served without their second chunk must
# fail, and every tree without a boundary must pass.
DROPPED = "script-without-chunk-2"
dropped = []
for tree in trees:
    if len(dropped) < 10 and "script" in modes:
        with open(os.path.join(directory, str(tree["index"]), "script.json"), encoding="utf-8") as file:
            if len(json.load(file)["chunks"]) >= 2:
                dropped.append(tree["index"])

# The harness: loads every page in iframes and compares. Its own script is allowed (no CSP here).
HARNESS = r"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>browser equivalence</title>
<style>iframe{width:320px;height:120px;border:1px solid #ccc}</style></head><body>
<pre id="status">running</pre><div id="frames"></div><pre id="verdicts"></pre>
<script>
const config = __CONFIG__;
const frames = document.getElementById("frames");

function load(url) {
  return new Promise(resolve => {
    const frame = document.createElement("iframe");
    const timer = setTimeout(() => resolve({frame, timedOut: true}), 15000);
    frame.onload = () => { clearTimeout(timer); resolve({frame, timedOut: false}); };
    frame.src = url;
    frames.appendChild(frame);
  });
}

// One line per node, indented: what the comparison and the diff read.
function serialize(doc) {
  const lines = [];
  if (doc.doctype) lines.push("<!DOCTYPE " + doc.doctype.name + ">");
  function walk(node, depth) {
    const pad = "  ".repeat(depth);
    let text = null;
    const flush = () => { if (text !== null && text !== "") lines.push(pad + JSON.stringify(text)); text = null; };
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) { text = (text || "") + child.data; continue; }
      if (child.nodeType === 7) continue;  // the declarative swap's <?start>/<?end> markers
      flush();
      if (child.nodeType === 8) { lines.push(pad + "<!--" + child.data + "-->"); continue; }
      if (child.nodeType !== 1) { lines.push(pad + "#node" + child.nodeType); continue; }
      const attributes = Array.from(child.attributes).map(a => " " + a.name + "=" + JSON.stringify(a.value));
      lines.push(pad + "<" + child.localName + attributes.join("") + ">");
      walk(child.localName === "template" ? child.content : child, depth + 1);
    }
    flush();
  }
  walk(doc, 0);
  return lines.join("\n");
}

function observe(doc) {
  return {
    dom: serialize(doc),
    text: doc.body ? doc.body.innerText : "",
    title: doc.title,
    textareas: Array.from(doc.querySelectorAll("textarea")).map(t => t.value),
  };
}

async function check(tree) {
  const results = [];
  const base = "/t/" + tree.index + "/";
  const [whole, ...pages] = await Promise.all(["whole"].concat(tree.modes).map(name => load(base + name + ".html")));
  const expected = observe(whole.frame.contentDocument);
  for (const [number, mode] of tree.modes.entries()) {
    const page = pages[number];
    const found = observe(page.frame.contentDocument);
    const problems = [];
    if (page.timedOut) problems.push("never finished loading");
    if (found.dom !== expected.dom) problems.push("DOM differs");
    if (found.text !== expected.text) problems.push("visible text differs");
    if (found.title !== expected.title) problems.push("title differs");
    if (JSON.stringify(found.textareas) !== JSON.stringify(expected.textareas)) problems.push("textarea value differs");
    const result = {tree: tree.index, mode, ok: problems.length === 0, problems};
    if (!result.ok) Object.assign(result, {expected, found});
    results.push(result);
    page.frame.remove();
  }
  whole.frame.remove();
  return results;
}

(async () => {
  const queue = config.trees.slice();
  const results = [];
  async function worker() {
    while (queue.length) results.push(...await check(queue.shift()));
  }
  await Promise.all(Array.from({length: config.workers}, worker));
  results.sort((a, b) => a.tree - b.tree || a.mode.localeCompare(b.mode));
  document.getElementById("verdicts").textContent =
    results.map(r => r.tree + " " + r.mode + " " + (r.ok ? "ok" : "FAIL " + r.problems.join(", "))).join("\n");
  document.getElementById("status").textContent = "done";
  await fetch("/report", {method: "POST", body: JSON.stringify(results)});
})();
</script></body></html>"""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def send_page(self, body, policy):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if policy:
            self.send_header("Content-Security-Policy", policy)
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if isinstance(body, str):
            self.wfile.write(body.encode())

    def do_GET(self):
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if url.path == "/":
            config = {"workers": workers, "trees": [{"index": tree["index"], "modes": modes + (
                [DROPPED] if tree["index"] in dropped else [])} for tree in trees]}
            return self.send_page(HARNESS.replace("__CONFIG__", json.dumps(config)), None)
        if len(parts) == 3 and parts[0] == "t" and parts[2].endswith(".html"):
            index, mode = parts[1], parts[2][: -len(".html")]
            policy = f"{csp}; report-uri /csp?tree={index}&mode={mode}"
            try:
                if mode == "whole":
                    with open(os.path.join(directory, index, "whole.html"), encoding="utf-8") as file:
                        return self.send_page(file.read(), policy)
                source = "script" if mode == DROPPED else mode
                with open(os.path.join(directory, index, source + ".json"), encoding="utf-8") as file:
                    chunks = json.load(file)["chunks"]
                if mode == DROPPED:
                    del chunks[1]
            except (OSError, ValueError):
                self.send_error(404)
                return
            # Chunk by chunk, as a server streams them: the browser parses each as it comes.
            delays = random.Random(f"{manifest['seed']}/{index}/{mode}")
            self.send_page(None, policy)
            try:
                for chunk in chunks:
                    self.wfile.write(chunk.encode())
                    self.wfile.flush()
                    time.sleep(delays.uniform(0.001, 0.008))
            except OSError:
                pass
            return
        self.send_error(404)

    def do_POST(self):
        url = urlparse(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        if url.path == "/report":
            verdicts["results"] = json.loads(body)
            report.set()
        elif url.path == "/csp":
            query = parse_qs(url.query)
            violations.append((query.get("tree", ["?"])[0], query.get("mode", ["?"])[0], body.decode(errors="replace")))


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
origin = f"http://127.0.0.1:{server.server_address[1]}"
chrome = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--no-first-run", "--hide-scrollbars", "--user-data-dir=" + os.path.join(directory, ".chromium")]

if screenshot:
    index, mode, png = screenshot
    subprocess.run(chrome + [f"--screenshot={png}", "--window-size=800,600", f"{origin}/t/{index}/{mode}.html"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=True)
    print(f"screenshot of tree {index} {mode}: {png}")
    sys.exit(0)

started = time.monotonic()
browser = subprocess.Popen(chrome + [f"{origin}/"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
deadline = started + 300
while not report.wait(timeout=0.2) and browser.poll() is None and time.monotonic() < deadline:
    pass
finished = report.is_set()
time.sleep(0.5)  # CSP violation reports are sent on their own: give the last ones time to come
if browser.poll() is None:
    os.killpg(browser.pid, signal.SIGTERM)
browser.wait()
if not finished:
    sys.exit("browser equivalence: the harness page reported nothing "
             + (f"(chromium exited with {browser.returncode})" if browser.returncode else "within 300 s"))
elapsed = time.monotonic() - started
results = [result for result in verdicts["results"] if result["mode"] != DROPPED]
caught = [result["tree"] for result in verdicts["results"] if result["mode"] == DROPPED and not result["ok"]]

seed = manifest["seed"]
by_tree = {tree["index"]: tree for tree in trees}
failures = [result for result in results if not result["ok"]]
# A stream that threw fails even if the page it left looks right.
for result in results:
    error = by_tree[result["tree"]].get("streamErrors", {}).get(result["mode"])
    if error:
        result["problems"].insert(0, f"the stream threw: {error}")
        if result["ok"]:
            result["ok"] = False
            failures.append(result)
# So does a page whose policy blocked a script (the nonce forgotten somewhere), whatever it shows.
blocked = {(int(tree), mode) for tree, mode, _ in violations if tree.isdigit()}
for result in results:
    if (result["tree"], result["mode"]) in blocked:
        result["problems"].insert(0, "the CSP blocked a script")
        if result["ok"]:
            result["ok"] = False
            failures.append(result)
failures.sort(key=lambda r: (r["tree"], r["mode"]))
for tree in trees:
    if "wholeError" in tree:
        failures.append({"tree": tree["index"], "mode": "whole", "problems": [f"render threw: {tree['wholeError']}"]})


def symptoms(result):
    """What a failing page shows, in a few words, for the summary."""
    found = [problem for problem in result["problems"] if problem.startswith(("the stream threw", "render threw", "the CSP"))]
    if "found" not in result:
        return found or result["problems"]
    expected, page = result["expected"], result["found"]
    if page["text"].strip() == "" and expected["text"].strip() != "":
        found.append("blank page")
    if "sk:" in page["title"] + "".join(page["textareas"]) or "<!--" in page["text"]:
        found.append("markers shown as text")
    if re.search(r"^ *<!--/?sk:", page["dom"], re.MULTILINE):
        found.append("marker comments left")
    for tag in ("template", "script"):
        if f"<{tag}" in page["dom"]:
            found.append(f"<{tag}> left")
    if "loading t" in page["text"] + page["title"] + "".join(page["textareas"]):
        found.append("fallback still shown")
    return found or ["content differs"]


def diff(result, limit=40 if only is None else 400):
    if "expected" not in result:
        return ""
    lines = []
    for key in ("dom", "text"):
        expected, found = result["expected"][key].splitlines(), result["found"][key].splitlines()
        if expected != found:
            lines += list(difflib.unified_diff(expected, found, f"whole {key}", f"{result['mode']} {key}", n=2,
                                               lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join("    " + line for line in lines)


detailed = 5
tally = {}
for number, result in enumerate(failures):
    index = result["tree"]
    seen = symptoms(result)
    for symptom in seen:
        tally[(result["mode"], symptom)] = tally.get((result["mode"], symptom), 0) + 1
    print(f"FAIL seed {seed} tree {index} {result['mode']}: {'; '.join(seen)}"
          f" [{', '.join(by_tree[index]['features'])}]")
    if number < detailed:
        print(f"  reproduce: bash scripts/browser-equivalence.sh --seed {seed} --only {index}")
        with open(os.path.join(directory, str(index), "tree.txt"), encoding="utf-8") as file:
            tree = file.read().splitlines()
        shown = tree if only is not None else tree[:30] + ([f"... ({len(tree) - 30} more lines)"] if len(tree) > 30 else [])
        print("  tree:\n" + "\n".join("    " + line for line in shown))
        print(diff(result))
if len(failures) > detailed:
    print(f"(diffs of the first {detailed} failures only; --only K shows one tree's)")
for (mode, symptom), count in sorted(tally.items(), key=lambda item: (item[0][0], -item[1])):
    print(f"  {mode}: {symptom}: {count} pages")
plain = [tree["index"] for tree in trees if tree.get("boundaries") == 0]
plain_failed = sorted({result["tree"] for result in failures} & set(plain))
harness_broken = (dropped and not caught) or plain_failed
missed = sorted(set(dropped) - set(caught))
print(f"harness check: {len(caught)} of {len(dropped)} streams missing their second chunk failed"
      + (f" (passed: trees {' '.join(map(str, missed))})" if missed else "") + "; "
      f"{len(plain) - len(plain_failed)} of {len(plain)} trees without boundaries passed"
      + (f" (failed: {' '.join(map(str, plain_failed))})" if plain_failed else ""))
pages = len(results)
print(f"browser equivalence: {pages - len(failures)} of {pages} pages equal the whole render "
      f"({len(trees)} trees x {', '.join(modes)}; seed {seed}; browser {elapsed:.1f} s)"
      + "".join(f"; {mode} skipped: {reason}" for mode, reason in manifest.get("skipped", {}).items()))
if harness_broken:
    print("browser equivalence: the harness itself looks wrong (see the harness check above)")
if failures or harness_broken:
    failing = sorted({result["tree"] for result in failures})
    print(f"browser equivalence: FAILED, seed {seed}, trees {' '.join(map(str, failing))}")
    sys.exit(1)

"""Drive headless Chromium over the DevTools protocol through a `--html` page.

Usage: html_view.py PAGE.html OUT_DIR

Loads the page offline (file://, every host name unresolvable), with WebGL through
SwiftShader, and scripts what a person does: look, hover each piece, drag to turn, move
the pieces apart, turn again, show the first piece alone, zoom with the wheel, tap and
pinch with touches. Each step's screenshot
is saved in OUT_DIR, and one JSON object on stdout says what was seen: console errors
and exceptions, requests for anything but the file, for each screenshot how many pixels
show each piece's colour (any of its face shades), how much a step changed the picture,
and which piece the page named under the pointer. tests/html.rs judges it.

Needs `chromium` (Debian) and websocket-client and Pillow (the virtualenv `.ci/run`
makes).
"""

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket
from PIL import Image

WIDTH, HEIGHT = 800, 600
FLAGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--hide-scrollbars",
    "--mute-audio",
    f"--window-size={WIDTH},{HEIGHT}",
]


class Browser:
    def __init__(self, profile):
        self.process = subprocess.Popen(
            ["chromium", *FLAGS, "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if self.process.poll() is not None or time.time() > deadline:
                raise SystemExit("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as r:
                pages = [t for t in json.load(r) if t["type"] == "page"]
            if pages:
                break
            time.sleep(0.05)
        self.ws = websocket.create_connection(
            pages[0]["webSocketDebuggerUrl"], suppress_origin=True, timeout=30)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def wait_for(self, method, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(e.get("method") == method for e in self.events):
                return
            self.ws.settimeout(max(0.1, deadline - time.time()))
            self.events.append(json.loads(self.ws.recv()))
        raise SystemExit(f"no {method} within {seconds} s")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def frames(self):
        return int(self.evaluate("document.body.dataset.frames || '0'"))

    def settle(self, before, seconds=20):
        """Waits until the page has drawn a frame after `before` frames."""
        deadline = time.time() + seconds
        while self.frames() <= before:
            if time.time() > deadline:
                raise SystemExit(f"no new frame within {seconds} s; the page's errors: "
                                 f"{errors(self.events)}")
            time.sleep(0.02)

    def screenshot(self, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        with open(path, "wb") as f:
            f.write(data)
        return Image.open(io.BytesIO(data)).convert("RGB")

    def mouse(self, kind, x, y, pressed=False, **extra):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y,
                  button="left" if pressed or kind != "mouseMoved" else "none",
                  buttons=1 if pressed else 0, **extra)

    def drag(self, x, y, dx, dy, steps=12):
        before = self.frames()
        self.mouse("mousePressed", x, y, pressed=True, clickCount=1)
        for k in range(1, steps + 1):
            self.mouse("mouseMoved", x + dx * k / steps, y + dy * k / steps, pressed=True)
        self.mouse("mouseReleased", x + dx, y + dy, clickCount=1)
        self.settle(before)

    def close(self):
        try:
            self.ws.close()
        finally:
            os.killpg(self.process.pid, 9)
            self.process.wait()


def scene_of(html):
    found = re.search(r'<script type="application/json" id="scene">(.*?)</script>',
                      html, re.S)
    return json.loads(found.group(1))


def shades(scene):
    """Each piece's face colours: its colour times each axis's shade."""
    result = []
    for piece in scene["pieces"]:
        rgb = [int(piece["colour"][k:k + 2], 16) for k in (1, 3, 5)]
        result.append([tuple(round(c * s) for c in rgb) for s in scene["shade"]])
    return result


def close(a, b, tolerance=2):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def piece_pixels(image, faces):
    """How many pixels show each piece's face colours."""
    counts = [0] * len(faces)
    for n, colour in image.getcolors(maxcolors=WIDTH * HEIGHT):
        for i, variants in enumerate(faces):
            if any(close(colour, v) for v in variants):
                counts[i] += n
    return counts


def changed(a, b):
    """The fraction of pixels that differ clearly between two screenshots."""
    pa, pb = a.load(), b.load()
    differ = sum(1 for y in range(0, HEIGHT, 2) for x in range(0, WIDTH, 2)
                 if max(abs(p - q) for p, q in zip(pa[x, y], pb[x, y])) > 24)
    return differ / ((WIDTH // 2) * (HEIGHT // 2))


def inside(image, colour, x0, y0, r=3):
    """Whether the square of radius r around (x0, y0) is all `colour` (inside a face)."""
    px = image.load()
    return all(close(px[x, y], colour)
               for y in range(y0 - r, y0 + r + 1) for x in range(x0 - r, x0 + r + 1))


def spot(image, variants):
    """A point well inside a face of one of `variants`, or None."""
    px = image.load()
    for y in range(8, HEIGHT - 8, 3):
        for x in range(8, WIDTH - 8, 3):
            for v in variants:
                if close(px[x, y], v) and inside(image, v, x, y):
                    return x, y
    return None


def main():
    page, out = sys.argv[1], sys.argv[2]
    html = open(page, encoding="utf-8").read()
    scene = scene_of(html)
    faces = shades(scene)
    profile = tempfile.mkdtemp(prefix="polycover-chromium-")
    browser = Browser(profile)
    report = {"shots": {}, "pixels": {}, "changed": {}, "hover": []}
    try:
        report["version"] = browser.call("Browser.getVersion")["product"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                     deviceScaleFactor=1, mobile=False)
        browser.call("Page.navigate", url="file://" + os.path.abspath(page))
        browser.wait_for("Page.loadEventFired")
        browser.settle(0)
        report["renderer"] = browser.evaluate(
            "(() => { const g = document.createElement('canvas').getContext('webgl');"
            " const d = g && g.getExtension('WEBGL_debug_renderer_info');"
            " return d ? g.getParameter(d.UNMASKED_RENDERER_WEBGL) : String(!!g); })()")

        def shot(name):
            image = browser.screenshot(os.path.join(out, name + ".png"))
            report["shots"][name] = image
            report["pixels"][name] = piece_pixels(image, faces)
            return image

        initial = shot("initial")
        # Hover: the pointer over a face of each piece seen names that piece.
        for i, variants in enumerate(faces):
            at = spot(initial, variants)
            if at is None:
                continue
            browser.mouse("mouseMoved", *at)
            named = browser.evaluate("document.getElementById('info').dataset.piece || ''")
            report["hover"].append({"piece": scene["pieces"][i]["symbol"],
                                    "at": at, "named": named})
        browser.mouse("mouseMoved", 2, HEIGHT - 2)
        # A tap (touch, no mouse) names the piece under the finger too.
        browser.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        if report["hover"]:
            first = report["hover"][0]
            x, y = first["at"]
            before = browser.evaluate("document.getElementById('info').dataset.piece || ''")
            browser.call("Input.dispatchTouchEvent", type="touchStart",
                         touchPoints=[{"x": x, "y": y, "id": 0}])
            browser.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
            report["tap"] = {"piece": first["piece"], "before": before, "named": browser.evaluate(
                "document.getElementById('info').dataset.piece || ''")}
        # Turning about each axis: across turns about the vertical, up and down tilts.
        browser.drag(WIDTH // 2, HEIGHT // 2, 157, 0)
        shot("across")
        browser.drag(WIDTH // 2, HEIGHT // 2, 0, 60)
        shot("turned")
        before = browser.frames()
        browser.evaluate("(() => { const s = document.getElementById('apart');"
                         " s.value = 100; s.dispatchEvent(new Event('input')); })()")
        browser.settle(before)
        shot("apart")
        browser.drag(WIDTH // 2, HEIGHT // 2, 314, -120)
        shot("apart_turned")
        before = browser.frames()
        browser.evaluate("(() => { const s = document.getElementById('count');"
                         " s.value = 1; s.dispatchEvent(new Event('input')); })()")
        browser.settle(before)
        shot("first")
        before = browser.frames()
        browser.evaluate("document.getElementById('next').click()")
        browser.settle(before)
        before = browser.frames()
        browser.mouse("mouseWheel", WIDTH // 2, HEIGHT // 2, deltaX=0, deltaY=-400)
        browser.settle(before)
        shot("zoomed")
        # Two fingers moving apart zoom in.
        before = browser.frames()
        cx, cy = WIDTH // 2, HEIGHT // 2
        for k in range(11):
            d = 40 + 10 * k
            kind = "touchStart" if k == 0 else "touchMove"
            browser.call("Input.dispatchTouchEvent", type=kind, touchPoints=[
                {"x": cx - d, "y": cy, "id": 0}, {"x": cx + d, "y": cy, "id": 1}])
        browser.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
        browser.settle(before)
        shot("pinched")
        shots = report["shots"]
        for name, (a, b) in {"across": ("initial", "across"), "tilt": ("across", "turned"),
                             "apart": ("turned", "apart"),
                             "first": ("apart_turned", "first"),
                             "zoom": ("first", "zoomed"),
                             "pinch": ("zoomed", "pinched")}.items():
            report["changed"][name] = changed(shots[a], shots[b])
        report["shown"] = browser.evaluate("document.getElementById('shown').textContent")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    del report["shots"]
    events = browser.events
    report["errors"] = errors(events)
    report["warnings"] = [
        e["params"]["entry"]["text"]
        for e in events if e.get("method") == "Log.entryAdded"
        and e["params"]["entry"]["level"] == "warning"
    ]
    report["requests"] = [
        e["params"]["request"]["url"]
        for e in events if e.get("method") == "Network.requestWillBeSent"
        and not e["params"]["request"]["url"].startswith("file://")
    ]
    json.dump(report, sys.stdout)


def errors(events):
    """The exceptions, console errors and error log entries among `events`."""
    return [
        e["params"]["exceptionDetails"].get("exception", {}).get("description")
        or e["params"]["exceptionDetails"]["text"]
        for e in events if e.get("method") == "Runtime.exceptionThrown"
    ] + [
        " ".join(str(a.get("value", a.get("description"))) for a in e["params"]["args"])
        for e in events if e.get("method") == "Runtime.consoleAPICalled"
        and e["params"]["type"] in ("error", "assert")
    ] + [
        e["params"]["entry"]["text"]
        for e in events if e.get("method") == "Log.entryAdded"
        and e["params"]["entry"]["level"] == "error"
    ]


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The real GUI window driven by real input events.

Starts Xvfb, opens `ringviz --state-file STATE` in it, sends key presses, clicks and drags with
xdotool, and checks what each did through the state file the window rewrites after every frame
(ringviz.state/1: view, op, round, language, mode, highlighted GPU, and where each clickable
widget is) and through the pixels on the X screen (grabbed with ffmpeg's x11grab).

Usage: input_events.py RINGVIZ keys|mouse
Exit 0 when every check passed, 1 on the first failure, 77 (skipped) when Xvfb or xdotool is
missing. Every wait is bounded; Xvfb and ringviz are killed at the end whatever happens.
"""

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SCREEN_W, SCREEN_H = 1600, 900
WINDOW_W, WINDOW_H = 1280, 720
STATE_WAIT_S = 8.0  # a key's effect, a font rebuild or a recording starting, on 2 shared cores


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Session:
    """Xvfb, one ringviz window in it, and the means to poke it and read it back."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.state_path = os.path.join(workdir, "state.json")
        self.log_path = os.path.join(workdir, "ringviz.log")
        self.xvfb = None
        self.app = None

    def start(self, ringviz, extra_args):
        if os.path.exists(self.state_path):
            os.remove(self.state_path)  # a failed start's state must not pass for this one's
        self.display = self._start_xvfb()
        self.env = dict(os.environ, DISPLAY=self.display, RINGVIZ_SETTINGS="off")
        self.env.pop("WAYLAND_DISPLAY", None)
        # The child keeps its own copy of the descriptor; ours is closed once it has started.
        with open(self.log_path, "w") as log:
            self.app = subprocess.Popen(
                [ringviz, "--size", f"{WINDOW_W}x{WINDOW_H}", "--state-file", self.state_path] + extra_args,
                cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.state = self.wait_for(lambda s: s["frame"] >= 1, "the first state", timeout=30)
        out = self.xdo(["search", "--sync", "--onlyvisible", "--pid", str(self.app.pid)], timeout=20)
        check(out.strip(), "no window of ringviz appeared")
        self.window = out.split()[0]
        self.xdo(["windowfocus", "--sync", self.window], timeout=5, allow_failure=True)
        self.origin = self._window_origin()

    # --- processes ----------------------------------------------------------------------------
    def _start_xvfb(self):
        # -displayfd: Xvfb picks a free display number itself and writes it here when ready, so
        # parallel tests never race for :99.
        read_end, write_end = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24", "-nolisten", "tcp"],
            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(write_end)
        number = b""
        deadline = time.monotonic() + 15
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_end], [], [], 0.2)
            if ready:
                chunk = os.read(read_end, 16)
                if not chunk:
                    break
                number += chunk
        os.close(read_end)
        check(number.strip().isdigit(), "Xvfb did not start (no display number within 15 s)")
        return ":" + number.decode().strip()

    def close(self):
        # SIGTERM first: an Xvfb that is killed outright leaves its lock and socket behind for
        # the next server to trip over.
        for process in (self.app, self.xvfb):
            if process is None or process.poll() is not None:
                continue
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(process.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    process.wait(timeout=3)
                    break
                except subprocess.TimeoutExpired:
                    pass
        self.app = self.xvfb = None

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def xdo(self, args, timeout=5, allow_failure=False):
        try:
            done = subprocess.run(["xdotool"] + args, env=self.env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"xdotool {' '.join(args)} did not return within {timeout} s")
        if done.returncode != 0 and not allow_failure:
            raise Failure(f"xdotool {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def _window_origin(self):
        out = self.xdo(["getwindowgeometry", self.window])
        found = re.search(r"Position:\s*(-?\d+),(-?\d+)", out)
        check(found, f"cannot read the window's position from: {out!r}")
        return int(found.group(1)), int(found.group(2))

    # --- the state file -----------------------------------------------------------------------
    def read_state(self):
        try:
            with open(self.state_path) as f:
                state = json.load(f)  # written to a temporary and renamed: never half a file
        except (OSError, ValueError):
            return None
        check(state.get("format") == "ringviz.state/1", f"unexpected state format {state.get('format')!r}")
        return state

    def wait_for(self, predicate, what, timeout=STATE_WAIT_S):
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            if self.app.poll() is not None:
                raise Failure(f"ringviz exited ({self.app.returncode}) while waiting for {what}")
            state = self.read_state()
            if state is not None:
                last = state
                if predicate(state):
                    self.state = state
                    return state
            time.sleep(0.03)
        summary = {k: last.get(k) for k in ("frame", "view", "op", "position", "playing", "speed", "language",
                                             "mode", "highlighted_gpu", "fullscreen", "window", "help")} if last else None
        raise Failure(f"timed out after {timeout} s waiting for {what}; last state: {summary}")

    def frames_after(self, action):
        """Runs `action` (an input event) and waits until a drawn frame has taken it: the window
        counts input events, and the frame that polled one is the frame that saw it (ImGui 1.86
        reads key state once per frame, so a key let go before that would go unseen). A frame
        counter is not enough: frames still settling from the last event may have polled
        before this one arrived."""
        events = self.read_state()["input_events"]
        action()
        return self.wait_for(lambda s: s["input_events"] > events, "the window to take an input event")

    # --- input --------------------------------------------------------------------------------
    def press(self, keys):
        """Presses `keys` ("Right", "ctrl+q") as a user does: each key down in turn, then up in
        reverse. Each is held until a frame has taken it (frames_after); one xdotool call for a
        whole chord could let go of q before the frame that took ctrl polled it."""
        chord = keys.split("+")
        for key in chord:
            self.frames_after(lambda: self.xdo(["keydown", key]))
        for key in reversed(chord):
            self.frames_after(lambda: self.xdo(["keyup", key]))

    def item(self, name):
        """`name`'s rectangle once it holds still: widgets placed from last frame's sizes move
        for a few frames after a change (the Record button follows the lesson bar when a
        lesson ends), and a click aimed at the old place lands on another widget."""
        deadline = time.monotonic() + STATE_WAIT_S
        state = self.read_state()
        same = 0
        while True:
            items = state["items"]
            check(name in items, f"no item {name!r} in the state (items: {sorted(items)[:40]})")
            try:  # idle (no frame within 0.3 s), or in the same place for 3 frames: still
                later = self.wait_for(lambda st: st["frame"] > state["frame"], "the next frame", timeout=0.3)
            except Failure:
                return items[name]
            same = same + 1 if later["items"].get(name) == items[name] else 0
            if same >= 3 or time.monotonic() > deadline:
                return items[name]
            state = later

    def screen_point(self, x, y):
        return int(round(self.origin[0] + x)), int(round(self.origin[1] + y))

    def move(self, x, y):
        sx, sy = self.screen_point(x, y)
        if (sx, sy) == getattr(self, "pointer", None):
            return  # already there: X sends no motion event, so there is nothing to wait for
        self.frames_after(lambda: self.xdo(["mousemove", str(sx), str(sy)]))
        self.pointer = (sx, sy)

    def click_at(self, x, y):
        self.move(x, y)
        self.frames_after(lambda: self.xdo(["mousedown", "1"]))
        self.frames_after(lambda: self.xdo(["mouseup", "1"]))

    def click(self, name, fx=0.5, fy=0.5):
        r = self.item(name)
        self.click_at(r["x"] + r["w"] * fx, r["y"] + r["h"] * fy)

    # --- pixels -------------------------------------------------------------------------------
    def grab(self):
        """The X screen as rows of (r, g, b), through ffmpeg's x11grab (a binary PPM on stdout)."""
        ffmpeg = shutil.which("ffmpeg")
        if ffmpeg is None:  # the state checks still run; only the pixels go unchecked
            if not getattr(self, "said_blind", False):
                print("note: ffmpeg is not installed, so screen pixels are not checked", flush=True)
                self.said_blind = True
            return BlindPicture()
        try:
            done = subprocess.run([ffmpeg, "-loglevel", "error", "-f", "x11grab", "-video_size",
                                   f"{SCREEN_W}x{SCREEN_H}", "-i", self.display + "+0,0", "-frames:v", "1",
                                   "-f", "image2pipe", "-vcodec", "ppm", "-"],
                                  env=self.env, capture_output=True, timeout=15)
        except subprocess.TimeoutExpired:
            raise Failure("ffmpeg did not grab the screen within 15 s")
        check(done.returncode == 0, f"ffmpeg x11grab failed: {done.stderr.decode(errors='replace').strip()}")
        return Picture(done.stdout, self.origin)


class Picture:
    """A grabbed screen; coordinates are the window's, as in the state file."""

    def __init__(self, ppm, origin):
        header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", ppm)
        check(header, "ffmpeg did not write a PPM")
        self.width, self.height = int(header.group(1)), int(header.group(2))
        self.data = ppm[header.end():]
        self.origin = origin

    def pixel(self, x, y):
        sx, sy = int(self.origin[0] + x), int(self.origin[1] + y)
        i = (sy * self.width + sx) * 3
        return tuple(self.data[i:i + 3])

    def differing(self, other, rect, step=2):
        """The fraction of sampled pixels inside `rect` that differ from `other`'s."""
        total = changed = 0
        for y in range(int(rect["y"]) + 1, int(rect["y"] + rect["h"]) - 1, step):
            for x in range(int(rect["x"]) + 1, int(rect["x"] + rect["w"]) - 1, step):
                total += 1
                changed += self.pixel(x, y) != other.pixel(x, y)
        return changed / max(1, total)


class BlindPicture:
    """Stands in for a grab where ffmpeg is missing: every pixel check passes."""

    def pixel(self, x, y):
        return None

    def differing(self, other, rect, step=2):
        return 1.0


def overlaps(a, b):
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def near(a, b, tolerance=3):
    if a is None:
        return True
    return all(abs(int(p) - int(q)) <= tolerance for p, q in zip(a, b))


def view_corner(state):
    """A point of the centre view that only its background covers: near its bottom-left corner."""
    view = state["panels"]["view"]
    return view["x"] + 4, view["y"] + view["h"] - 4


# --- the checks ---------------------------------------------------------------------------------

def keys(s, say):
    state = s.state
    check(state["view"] == "ring" and state["mode"] == "normal" and state["language"] == "en",
          f"unexpected start: {state['view']}, {state['mode']}, {state['language']}")
    rounds = state["rounds"]
    check(rounds >= 2, "expected a collective of several rounds")

    s.press("Right")
    s.wait_for(lambda st: st["position"] == 1 and st["round"] == 1, "Right: after round 1")
    s.press("Right")
    s.wait_for(lambda st: st["position"] == 2, "Right: after round 2")
    s.press("Left")
    s.wait_for(lambda st: st["position"] == 1, "Left: back to round 1")
    s.press("End")
    s.wait_for(lambda st: st["position"] == rounds, "End: the last round")
    s.press("Home")
    s.wait_for(lambda st: st["position"] == 0, "Home: the start")
    say("Right, Left, End, Home")

    s.press("space")
    s.wait_for(lambda st: st["playing"], "Space: playing")
    # While the ring plays the window keeps its frame and redraws only what changed.
    whole = s.state["window"]["w"] * s.state["window"]["h"]
    st = s.wait_for(lambda st: st["playing"] and 0 < st["pixels_redrawn"] < whole,
                    "playing: a frame that redrew only part of the window")
    check(st["frame_path"] in ("target", "back_buffer"), f"playing: the frame was drawn {st['frame_path']}")
    s.press("space")
    s.wait_for(lambda st: not st["playing"], "Space: paused")
    s.press("Home")
    s.wait_for(lambda st: st["position"] == 0, "Home after playing")
    say("Space plays and pauses")

    speed = s.state["speed"]
    s.press("shift+equal")  # + on a US keyboard
    s.wait_for(lambda st: st["speed"] == speed * 2, "+: double speed")
    s.press("minus")
    s.wait_for(lambda st: st["speed"] == speed, "-: speed back")
    s.press("KP_Add")
    s.wait_for(lambda st: st["speed"] == speed * 2, "keypad +: double speed")
    s.press("KP_Subtract")
    s.wait_for(lambda st: st["speed"] == speed, "keypad -: speed back")
    say("+ and - (main keys and keypad) double and halve the speed")

    for key, op in (("1", "allgather"), ("2", "reducescatter"), ("3", "allreduce")):
        s.press(key)
        s.wait_for(lambda st: st["op"] == op, f"{key}: {op}")
    say("1, 2, 3 switch AllGather, ReduceScatter, AllReduce")

    before = s.grab()
    s.press("h")
    st = s.wait_for(lambda st: st["help"], "H: help shown")
    check(s.grab().differing(before, st["panels"]["view"]) > 0.05, "help is on but the view looks the same")
    s.press("h")
    s.wait_for(lambda st: not st["help"], "H: help hidden")
    say("H toggles the help window (checked on screen)")

    s.press("s")
    s.wait_for(lambda st: st["pipelined"], "S: pipelined")
    s.press("s")
    s.wait_for(lambda st: not st["pipelined"], "S: lock-step again")
    say("S toggles pipelined rounds")

    # P: the state says presentation, and the screen's view background follows the theme.
    background = s.state["view_background"]
    x, y = view_corner(s.state)
    before = s.grab()
    check(near(before.pixel(x, y), background),
          f"view background on screen {before.pixel(x, y)} is not the theme's {background}")
    s.press("p")
    st = s.wait_for(lambda st: st["mode"] == "presentation" and st["presentation"], "P: presentation mode")
    check(st["view_background"] != background, "P did not change the view's colours")
    x, y = view_corner(st)
    after = s.grab()
    check(near(after.pixel(x, y), st["view_background"]),
          f"presentation: view background on screen {after.pixel(x, y)} is not {st['view_background']}")
    scale = st["ui_scale"]
    s.press("bracketright")
    s.wait_for(lambda st: st["ui_scale"] > scale, "]: larger presentation text")
    s.press("bracketleft")
    s.wait_for(lambda st: st["ui_scale"] == scale, "[: presentation text back")
    s.press("p")
    s.wait_for(lambda st: st["mode"] == "normal" and not st["presentation"], "P: presentation off")
    say("P toggles presentation mode (theme checked on screen pixels); ] and [ size its text")

    s.press("g")
    s.wait_for(lambda st: st["mode"] == "predict" and st["predict"] and st["predict"]["pending"], "G: predict mode asks")
    s.press("g")
    s.wait_for(lambda st: st["mode"] == "normal" and st["predict"] is None, "G: predict mode off")
    say("G toggles predict mode")

    before = s.grab()
    s.press("l")
    st = s.wait_for(lambda st: st["language"] == "zh", "L: Chinese")
    check(s.grab().differing(before, st["panels"]["caption"]) > 0.01, "Chinese is on but the caption looks the same")
    s.press("l")
    s.wait_for(lambda st: st["language"] == "en", "L: English")
    say("L switches the language (the caption checked on screen)")

    s.press("f")
    s.wait_for(lambda st: st["fullscreen"] and st["window"] == {"w": SCREEN_W, "h": SCREEN_H}, "F: fullscreen")
    s.press("f")
    s.wait_for(lambda st: not st["fullscreen"] and st["window"] == {"w": WINDOW_W, "h": WINDOW_H}, "F: windowed")
    say("F toggles fullscreen")

    try:
        s.press("ctrl+q")
    except Failure:
        pass  # the window closed before the keys were let go
    try:
        code = s.app.wait(timeout=10)
    except subprocess.TimeoutExpired:
        raise Failure("Ctrl+Q did not close the window within 10 s")
    check(code == 0, f"ringviz exited {code} after Ctrl+Q")
    say("Ctrl+Q quits with exit 0")


def memory(s, say):
    """On the Memory tab, Space, the arrows, Home/End and the controls bar drive the iteration's
    clock, and the ring beside the bars runs the collective of that moment."""
    s.click("tab.memory")
    st = s.wait_for(lambda st: st["view"] == "memory" and st["memory"]["at_rest"], "the Memory tab, at rest")
    beats = st["memory"]["beats"]
    check(beats > 4, f"expected an iteration of several beats, got {beats}")
    ring_before = st["position"]
    s.press("Home")
    s.wait_for(lambda st: st["memory"]["position"] == 0 and not st["memory"]["at_rest"], "Home: the iteration's start")
    s.press("Right")
    s.wait_for(lambda st: st["memory"]["position"] == 1, "Right: one beat on")
    s.press("Right")
    s.wait_for(lambda st: st["memory"]["position"] == 2, "Right: two beats on")
    s.press("Left")
    s.wait_for(lambda st: st["memory"]["position"] == 1, "Left: one beat back")
    s.press("End")
    s.wait_for(lambda st: st["memory"]["position"] == beats, "End: the iteration's end")
    s.press("Home")
    s.wait_for(lambda st: st["memory"]["position"] == 0, "Home again")
    say("Right, Left, End, Home move the memory view's clock")

    s.press("space")
    st = s.wait_for(lambda st: st["memory"]["playing"], "Space: the iteration plays")
    check(not st["playing"], "Space on the Memory tab also started the ring's own playback")
    s.wait_for(lambda st: st["memory"]["position"] > 1, "the iteration moves while playing")
    s.press("space")
    s.wait_for(lambda st: not st["memory"]["playing"], "Space: the iteration pauses")
    say("Space plays and pauses the iteration, not the hidden ring")

    speed = s.state["memory"]["speed"]
    s.press("shift+equal")
    s.wait_for(lambda st: st["memory"]["speed"] == speed * 2 and st["speed"] == speed * 2,
               "+ on the Memory tab: the iteration (and the ring) twice as fast")
    s.press("minus")
    s.wait_for(lambda st: st["memory"]["speed"] == speed, "- on the Memory tab: speed back")
    say("+ and - set the speed of the iteration too")

    # The ring beside the bars follows the clock. ZeRO-2's iteration: beat 0 forward, beat 1
    # the first bucket's backward, beats 2-4 its reduce-scatter's three rounds.
    s.press("Home")
    s.wait_for(lambda st: st["memory"]["position"] == 0, "Home before the collective")
    s.press("Right")
    s.wait_for(lambda st: st["memory"]["position"] == 1, "Right: the first bucket's backward")
    s.press("Right")
    s.wait_for(lambda st: st["memory"]["position"] == 2 and st["op"] == "reducescatter" and st["position"] == 0,
               "Right: the ring beside the bars starts the bucket's reduce-scatter")
    s.press("Right")
    s.wait_for(lambda st: st["memory"]["position"] == 3 and st["op"] == "reducescatter" and st["position"] == 1,
               "Right: one round of the reduce-scatter on the ring")
    say(f"the ring beside the bars runs the bucket's reduce-scatter round by round (the ring was at {ring_before})")

    # The controls bar's Play button drives the same clock.
    s.click("controls.play")
    s.wait_for(lambda st: st["memory"]["playing"], "the controls bar's Play: the iteration plays")
    s.click("controls.play")
    s.wait_for(lambda st: not st["memory"]["playing"], "the controls bar's Play again: paused")
    say("the controls bar's Play button drives the iteration")

    # Another language relabels the tabs; the tab shown stays the Memory tab (a tab's ID is
    # the view's name, not its label, which ImGui would take for a new tab and select Ring).
    s.press("l")
    st = s.wait_for(lambda st: st["language"] == "zh", "L: Chinese")
    # ImGui picks another tab a frame after the labels change: look once the window has drawn
    # its settling frames and rests (its frame count stands still).
    while True:
        time.sleep(0.3)
        before = st["frame"]
        st = s.wait_for(lambda st: st["language"] == "zh", "Chinese, at rest")
        if st["frame"] == before:
            break
    check(st["view"] == "memory", f"L on the Memory tab opened the {st['view']} view")
    s.press("l")
    s.wait_for(lambda st: st["language"] == "en", "L: English")
    say("L on the Memory tab keeps the Memory tab")


def mouse(s, say):
    # A tab: the memory view replaces the ring, on screen as well.
    ring = s.grab()
    view = s.state["panels"]["view"]
    s.click("tab.memory")
    s.wait_for(lambda st: st["view"] == "memory", "a click on the Memory tab")
    check(s.grab().differing(ring, view) > 0.05, "the Memory tab was clicked but the view looks the same")
    s.click("tab.ring")
    s.wait_for(lambda st: st["view"] == "ring" and "gpu.2" in st["items"], "a click on the Ring tab")
    say("clicking the Memory and Ring tabs")

    # A GPU box: highlighted in the state and outlined on screen.
    before = s.grab()
    s.click("gpu.2", 0.5, 0.15)
    s.wait_for(lambda st: st["highlighted_gpu"] == 2, "a click on GPU 2's box")
    box = s.item("gpu.2")
    check(s.grab().differing(before, box, step=1) > 0.005, "GPU 2 is highlighted but its box looks the same")
    s.click("gpu.2", 0.5, 0.15)
    s.wait_for(lambda st: st["highlighted_gpu"] is None, "a second click on GPU 2 clears the highlight")
    say("clicking a GPU box highlights it (checked on screen) and clicks again to clear")

    # A transfers row: highlights the row's sender.
    rows = [(name, int(name.rsplit("src", 1)[1])) for name in s.state["items"] if name.startswith("transfers.row.")]
    check(rows, "no transfers rows in the state")
    name, src = rows[0]
    s.click(name, 0.1, 0.5)
    s.wait_for(lambda st: st["highlighted_gpu"] == src, f"a click on {name}: GPU {src} highlighted")
    s.click(name, 0.1, 0.5)
    s.wait_for(lambda st: st["highlighted_gpu"] is None, f"a second click on {name}")
    say(f"clicking a transfers row highlights its sender (GPU {src})")

    # The timeline: a drag scrubs through the rounds, following the mouse.
    rounds = s.state["rounds"]
    timeline = s.item("timeline")
    y = timeline["y"] + timeline["h"] / 2
    s.move(timeline["x"] + timeline["w"] * 0.02, y)
    s.frames_after(lambda: s.xdo(["mousedown", "1"]))
    s.move(timeline["x"] + timeline["w"] * 0.5, y)
    middle = s.wait_for(lambda st: 0.25 * rounds < st["position"] < 0.75 * rounds, "the timeline dragged half way")
    s.move(timeline["x"] + timeline["w"] + 40, y)  # past the end: a drag clamps to the last round
    s.frames_after(lambda: s.xdo(["mouseup", "1"]))
    s.wait_for(lambda st: st["position"] == rounds, "the timeline dragged to its end")
    say(f"dragging the timeline (half way: position {middle['position']:.2f} of {rounds}, then the end)")
    s.press("Home")
    s.wait_for(lambda st: st["position"] == 0, "Home before predict mode")

    # Predict mode: click a right answer among the highlighted GPU's cells.
    s.press("g")
    st = s.wait_for(lambda st: st["predict"] and st["predict"]["pending"], "predict mode asking")
    pending = st["predict"]["pending"]
    answer = f"predict.answer.{pending['slots'][0]}"
    s.click(answer)
    st = s.wait_for(lambda st: st["predict"]["answered"] == 1, f"a click on {answer} answers")
    check(st["predict"]["right"] == 1, f"the right cell {answer} was scored wrong: {st['predict']}")
    s.wait_for(lambda st: st["position"] == pending["round"], "the answered round plays")
    s.press("g")
    s.wait_for(lambda st: st["mode"] == "normal", "predict mode off")
    say(f"predict mode: clicking slot {pending['slots'][0]} of GPU {pending['gpu']} answers right, the round plays")

    # The lesson picker: open it, pick the first lesson, then none.
    s.click("lesson.picker")
    st = s.wait_for(lambda st: any(n.startswith("lesson.item.") for n in st["items"]), "the lesson picker open")
    first = sorted(n for n in st["items"] if n.startswith("lesson.item."))[0]
    s.click(first)
    s.wait_for(lambda st: st["mode"] == "lesson" and st["lesson"], f"a click on {first} starts the lesson")
    # The lesson bar grows its buttons; at this width it once pushed Record over the Devices tab,
    # which then took that tab's clicks.
    s.item("lesson.picker")  # once the bar has settled
    items = s.read_state()["items"]
    for control in ("record.button", "lesson.picker"):
        for tab in (n for n in items if n.startswith("tab.")):
            check(not overlaps(items[control], items[tab]), f"{control} {items[control]} covers {tab} {items[tab]}")
    s.click("lesson.picker")
    s.wait_for(lambda st: "lesson.none" in st["items"], "the lesson picker open again")
    s.click("lesson.none")
    s.wait_for(lambda st: st["mode"] == "normal" and st["lesson"] is None, "a click on none stops the lesson")
    say(f"the lesson picker: {first[len('lesson.item.'):]} plays, none stops it")

    # The Record button: records, Stop finishes a file in the working folder.
    s.click("record.button")
    s.wait_for(lambda st: st["recording"] and "record.stop" in st["items"], "a click on Record starts recording")
    s.wait_for(lambda st: st["frame"] >= s.state["frame"] + 5, "a few recorded frames")
    s.click("record.stop")
    s.wait_for(lambda st: not st["recording"] and "record.button" in st["items"], "a click on Stop ends recording")
    made = [n for n in os.listdir(s.workdir) if n.startswith("ringviz-")]
    check(made, "Stop did not leave a recording in the working folder")
    say(f"the Record button recorded {made[0]}")


SHIPPED_JOB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "jobs",
                           "ddp-gpt-gloo-4.json")


def job(s, say):
    # Opened with --open JOB: the Job view, one mark per collective on its first rank's lane.
    s.wait_for(lambda st: st["view"] == "job" and "job.collective.3" in st["items"], "the Job view of the shipped job")
    with open(SHIPPED_JOB) as f:
        document = json.load(f)
    expected = [c["count"] for c in document["ranks"][0]["collectives"] if c["group"] == "0"]
    say(f"the Job view opens on {len(expected)} collectives")

    # The wheel zooms about the pointer: a bar under it grows.
    bar = s.item("job.collective.3")
    s.move(bar["x"] + bar["w"] / 2, bar["y"] + bar["h"] / 2)
    for _ in range(3):
        s.frames_after(lambda: s.xdo(["click", "4"]))
    zoomed = s.item("job.collective.3")
    check(zoomed["w"] > bar["w"] * 1.5, f"three wheel steps up did not zoom in: {bar['w']:.1f} -> {zoomed['w']:.1f} px")
    say(f"the wheel zooms in ({bar['w']:.0f} -> {zoomed['w']:.0f} px wide)")

    # A drag pans: the bar moves with the mouse and nothing opens.
    x, y = zoomed["x"] + zoomed["w"] / 2, zoomed["y"] + zoomed["h"] / 2
    s.move(x, y)
    s.frames_after(lambda: s.xdo(["mousedown", "1"]))
    s.move(x - 60, y)
    s.frames_after(lambda: s.xdo(["mouseup", "1"]))
    panned = s.item("job.collective.3")
    check(abs((zoomed["x"] - panned["x"]) - 60) < 8, f"a 60 px drag moved the bar {zoomed['x'] - panned['x']:.0f} px")
    check(s.state["view"] == "job", "a drag opened a collective instead of panning")
    say("a drag pans the timeline without opening anything")

    # A click on a bar steps that collective on the ring, at its real count.
    s.click("job.collective.3")
    s.wait_for(lambda st: st["view"] == "ring" and st["job_collective"] == 3, "a click on collective 3")
    check(s.state["count"] == expected[3] and s.state["gpus"] == 4,
          f"the ring runs count {s.state['count']} on {s.state['gpus']} GPUs; collective 3 has {expected[3]} on 4")
    say(f"clicking collective 3 steps it on the ring ({expected[3]} elements on 4 GPUs)")


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("keys", "mouse", "memory", "job"):
        print("usage: input_events.py RINGVIZ keys|mouse|memory|job", file=sys.stderr)
        return 2
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            print(f"SKIPPED: {tool} is not installed (scripts/install-deps.sh installs it)")
            return 77
    ringviz, group = os.path.abspath(sys.argv[1]), sys.argv[2]
    start_args = ["--open", SHIPPED_JOB] if group == "job" else ["--gpus", "4", "--op", "allreduce"]
    workdir = tempfile.mkdtemp(prefix="ringviz-input-")
    session = None
    started = time.monotonic()
    say = lambda text: print(f"ok {time.monotonic() - started:5.1f}s  {text}", flush=True)
    try:
        session = Session(workdir)
        try:
            session.start(ringviz, start_args)
        except Failure as failure:
            # Once more on a fresh server: parallel Xvfb starts can race for a display.
            print(f"note: first start failed ({failure}); starting again", flush=True)
            print(session.log(), flush=True)
            session.close()
            session = Session(workdir)
            session.start(ringviz, start_args)
        say(f"window on display {session.display} at {session.origin}, first state at frame {session.state['frame']}")
        {"keys": keys, "mouse": mouse, "memory": memory, "job": job}[group](session, say)
        print(f"PASS: {group} in {time.monotonic() - started:.1f} s")
        return 0
    except Failure as failure:
        print(f"FAIL: {failure}")
        if session is not None:
            print("--- ringviz output:\n" + session.log())
        return 1
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

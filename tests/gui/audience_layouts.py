#!/usr/bin/env python3
"""What an audience sees is checked frame by frame: every shipped lesson recorded at 1280x720 and
1920x1080 (1 frame a second) shows its scene's centre view, and every centre view in
presentation mode at 1280x720 to 3840x2160 draws no text over other text, out of the window or
cut off (the layout dump's "texts", checked by text_overlap.py); `scales` does the same for every
view at --ui-scale 0.5 to 4, at the smallest and largest of those sizes (a view that cannot fit
must say so, not overlap).

Usage: audience_layouts.py RINGVIZ lessons|views|scales [NAME...]
Exits 0 when every frame is clean, 1 with every finding listed, 77 where no OpenGL context exists.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import text_overlap  # noqa: E402  (the checker beside this script)

HERE = os.path.dirname(os.path.abspath(__file__))
LESSONS = os.path.join(HERE, "..", "..", "assets", "lessons")
LESSON_SIZES = ("1280x720", "1920x1080")
VIEW_SIZES = ("1280x720", "1600x900", "1920x1080", "3840x2160")
VIEWS = ("ring", "memory", "training", "compare", "devices", "job")
UI_SCALES = ("0.5", "1", "2", "3", "4")
SCALE_SIZES = ("1280x720", "3840x2160")
# A scene's centre view (docs/lessons.md, "Views"): its first view the centre can show; the
# round table, traffic, timeline and a lesson's "compare" belong to the ring.
CENTRE_VIEWS = {"memory": "memory", "training": "training", "job": "job"}


class NoContext(Exception):
    pass


def run(command, work):
    env = dict(os.environ, RINGVIZ_SETTINGS="off")
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=work,
                            timeout=600)
    if result.returncode != 0:
        output = result.stdout.decode(errors="replace")
        if "no OpenGL context" in output:
            raise NoContext(output.strip())
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}:\n{output}")


def scene_view(scene):
    return CENTRE_VIEWS.get(scene["views"][0], "ring") if scene["views"] else "ring"


def check_lesson(ringviz, name, size, work):
    """Records `name` at `size`, 1 fps, and returns the findings of every frame."""
    with open(os.path.join(LESSONS, name + ".json"), encoding="utf-8") as f:
        scenes = json.load(f)["scenes"]
    layouts = os.path.join(work, f"{name}-{size}") + "/"
    # The layouts alone: no frame is drawn or encoded, since only the layouts are checked here.
    run([ringviz, "record", "--lesson", name, "--size", size, "--fps", "1", "--dump-layout", layouts], work)
    problems = []
    frames = text_overlap.layout_files([layouts])
    if not frames:
        problems.append(f"{name} {size}: no layout files written")
    scene_frames = 0
    for path in frames:
        layout = text_overlap.load_layout(path)
        lesson = layout.get("lesson")
        expected = None
        if lesson is not None:
            scene_frames += 1
            expected = scene_view(scenes[lesson["scene"]])
        problems += [f"{name} {size}: {line}" for line in text_overlap.findings(path, layout, expected)]
    if frames and scene_frames == 0:
        problems.append(f"{name} {size}: no frame says which scene it shows")
    return problems, len(frames)


def check_view(ringviz, view, size, work, ui_scale=None):
    scale = ["--ui-scale", ui_scale] if ui_scale else []
    path = os.path.join(work, f"{view}-{size}-{ui_scale or 'auto'}.json")
    run([ringviz, "--headless", "--present", "--view", view, "--size", size, *scale, "--dump-layout", path], work)
    return [f"--present --view {view} --size {size} {' '.join(scale)}: {line}"
            for line in text_overlap.findings(path, text_overlap.load_layout(path), view)]


def main(argv):
    if len(argv) < 3 or argv[2] not in ("lessons", "views", "scales"):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    ringviz, group, names = os.path.abspath(argv[1]), argv[2], argv[3:]
    problems = []
    with tempfile.TemporaryDirectory(prefix="ringviz-audience-") as work:
        try:
            if group == "lessons":
                lessons = names or sorted(f[:-5] for f in os.listdir(LESSONS) if f.endswith(".json"))
                for name in lessons:
                    for size in LESSON_SIZES:
                        found, frames = check_lesson(ringviz, name, size, work)
                        problems += found
                        print(f"{'FAIL' if found else 'ok  '} {name} at {size}: {frames} frames, {len(found)} finding(s)",
                              flush=True)
            elif group == "scales":
                for view in names or VIEWS:
                    for size in SCALE_SIZES:
                        for ui_scale in UI_SCALES:
                            found = check_view(ringviz, view, size, work, ui_scale)
                            problems += found
                            print(f"{'FAIL' if found else 'ok  '} --present --view {view} at {size} --ui-scale {ui_scale}: "
                                  f"{len(found)} finding(s)", flush=True)
            else:
                for view in names or VIEWS:
                    for size in VIEW_SIZES:
                        found = check_view(ringviz, view, size, work)
                        problems += found
                        print(f"{'FAIL' if found else 'ok  '} --present --view {view} at {size}: {len(found)} finding(s)",
                              flush=True)
        except NoContext as why:
            print(f"SKIPPED: {why}")
            return 77
    for line in problems:
        print(line)
    print(f"summary: {len(problems)} finding(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The logic of text_overlap.py on synthetic layouts: what it must find and what it must not."""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import text_overlap  # noqa: E402


def text(s, x, y, w, h, clipped=False):
    return {"x": x, "y": y, "w": w, "h": h, "text": s, "clipped": clipped}


def layout(texts, view="ring", width=800, height=600):
    return {"schema": "ringviz.layout/1", "window": {"width": width, "height": height}, "view": view, "texts": texts}


class TextOverlapTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def write(self, name, document):
        path = os.path.join(self.folder.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(document if isinstance(document, str) else json.dumps(document))
        return path

    def run_main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = text_overlap.main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def test_an_overlapping_pair_is_reported_with_both_strings_and_rectangles(self):
        path = self.write("a.json", layout([text("GPU 0", 10, 10, 40, 13), text("a0+b0", 45, 20, 30, 13),
                                            text("far away", 400, 400, 50, 13)]))
        code, out, _ = self.run_main(path)
        self.assertEqual(code, 1)
        lines = [line for line in out.splitlines() if "overlap:" in line]
        self.assertEqual(len(lines), 1)
        self.assertIn(path, lines[0])
        self.assertIn("'GPU 0' at (10, 10) 40x13", lines[0])
        self.assertIn("'a0+b0' at (45, 20) 30x13", lines[0])

    def test_touching_rectangles_and_overlaps_within_the_tolerance_are_not_reported(self):
        texts = [text("left", 10, 10, 40, 13), text("right", 50, 10, 40, 13),   # share an edge
                 text("above", 10, 100, 40, 13), text("below", 10, 113, 40, 13),
                 text("rounding", 200, 10, 40.4, 13), text("next", 240, 10, 30, 13)]  # 0.4 px
        code, out, _ = self.run_main(self.write("b.json", layout(texts)))
        self.assertEqual(code, 0, out)
        self.assertNotIn("overlap:", out)

    def test_every_pair_is_found_among_many_texts(self):
        # A grid of labels, one of them moved onto its neighbour, plus a long text across several.
        texts = [text("c%d" % i, (i % 10) * 60, (i // 10) * 20, 50, 13) for i in range(100)]
        texts[55]["x"] = texts[54]["x"] + 20
        texts.append(text("wide", 0, 185, 590, 13))  # under row 9 (y 180..193): meets all ten
        pairs = text_overlap.overlapping_pairs(texts)
        brute = [(i, j) for i in range(len(texts)) for j in range(i + 1, len(texts))
                 if text_overlap.overlap(texts[i], texts[j])]
        self.assertEqual(pairs, brute)
        self.assertIn((54, 55), pairs)
        self.assertEqual(sum(1 for i, j in pairs if j == 100), 10)

    def test_text_leaving_the_window_and_clipped_text_are_reported(self):
        texts = [text("off the right", 780, 10, 40, 13), text("inside", 10, 10, 40, 13),
                 text("cut", 100, 100, 20, 13, clipped=True), text("edge", 0, 587, 40, 13)]
        code, out, _ = self.run_main(self.write("c.json", layout(texts)))
        self.assertEqual(code, 1)
        self.assertIn("outside the 800x600 window: 'off the right'", out)
        self.assertIn("clipped: 'cut'", out)
        self.assertNotIn("'inside'", out)
        self.assertNotIn("'edge'", out)  # touches the bottom edge: inside

    def test_hidden_texts_are_not_checked(self):
        texts = [text("under the card", 10, 10, 200, 13), text("card title", 20, 12, 100, 13),
                 text("cut but hidden", 900, 10, 50, 13, clipped=True)]
        for t in (texts[0], texts[2]):
            t["hidden"] = True
        code, out, _ = self.run_main(self.write("h.json", layout(texts)))
        self.assertEqual(code, 0, out)

    def test_expect_view_checks_the_view_field(self):
        path = self.write("d.json", layout([], view="memory"))
        self.assertEqual(self.run_main(path, "--expect-view", "memory")[0], 0)
        code, out, _ = self.run_main(path, "--expect-view", "ring")
        self.assertEqual(code, 1)
        self.assertIn("view is 'memory', expected 'ring'", out)

    def test_a_folder_stands_for_its_json_files(self):
        self.write("frame-000000.json", layout([text("a", 0, 0, 10, 10)]))
        self.write("frame-000001.json", layout([text("a", 0, 0, 10, 10), text("b", 5, 5, 10, 10)]))
        self.write("notes.txt", "not a layout")
        code, out, _ = self.run_main(self.folder.name)
        self.assertEqual(code, 1)
        self.assertIn("frame-000001.json: overlap", out)
        self.assertIn("in 1 of 2 file(s)", out)

    def test_a_file_that_is_not_a_layout_with_texts_exits_2(self):
        for name, document in [("e.json", "{"), ("f.json", {"window": {"width": 1, "height": 1}}),
                               ("g.json", layout([{"text": "no rectangle"}]))]:
            code, _, err = self.run_main(self.write(name, document))
            self.assertEqual(code, 2, name)
            self.assertIn(name, err)
        self.assertEqual(self.run_main(os.path.join(self.folder.name, "missing.json"))[0], 2)


if __name__ == "__main__":
    unittest.main()

"""One clock for every event a rank records.

time.perf_counter_ns is monotonic and, on Linux, the same counter in every process of a
machine, so ranks on one machine agree to the nanosecond; it has no epoch, though. The wall
clock is read once, next to it, to give that counter an epoch, so that parts written on
different machines land near each other before the importer aligns them.
"""

import time

_SAMPLES = 5


def _wall_minus_monotonic_ns():
    """The offset from the monotonic counter to the wall clock, from the tightest of a few
    paired reads (the pair with the least time between its two monotonic reads)."""
    best_gap, best_offset = None, 0
    for _ in range(_SAMPLES):
        before = time.perf_counter_ns()
        wall = time.time_ns()
        after = time.perf_counter_ns()
        gap = after - before
        if best_gap is None or gap < best_gap:
            best_gap, best_offset = gap, wall - (before + after) // 2
    return best_offset


class Clock:
    """Microseconds since the Unix epoch, advanced by the monotonic counter."""

    def __init__(self):
        self._offset_ns = _wall_minus_monotonic_ns()

    @staticmethod
    def now_ns():
        return time.perf_counter_ns()

    def to_us(self, monotonic_ns):
        return (monotonic_ns + self._offset_ns) / 1000.0

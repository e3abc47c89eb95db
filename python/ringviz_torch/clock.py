"""One clock for every event a rank records.

time.perf_counter_ns is monotonic and, on Linux, the same counter in every process of a
machine, but it has no epoch. Each rank reads the wall clock once, next to it, to give it one:
ranks of one machine then differ only by how exactly each paired its two reads (well under a
microsecond), and parts written on different machines land near each other (as near as their
wall clocks agree) before the importer aligns them."""

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


# Times are written from this fixed moment, 2020-01-01T00:00:00Z, not from the Unix epoch:
# microseconds since 1970 pass 10^15, which a job document refuses as a time, and every rank
# must count from the same moment. (Until 2051 the values stay below 10^15.)
ORIGIN_UNIX_NS = 1577836800 * 1_000_000_000


class Clock:
    """Microseconds since ORIGIN on the wall clock, advanced by the monotonic counter."""

    def __init__(self):
        self._offset_ns = _wall_minus_monotonic_ns() - ORIGIN_UNIX_NS

    @staticmethod
    def now_ns():
        return time.perf_counter_ns()

    def to_us(self, monotonic_ns):
        return (monotonic_ns + self._offset_ns) / 1000.0

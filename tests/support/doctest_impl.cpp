// doctest's implementation (runner, reporters, assertion handlers), compiled once for every
// suite instead of once per test executable: it is a large translation unit.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

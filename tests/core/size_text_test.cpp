// Sizes in messages: the unit that keeps the number short, never an exponent.
#include <doctest/doctest.h>

#include "core/model/text.h"

using ringviz::format_size_for_message;

TEST_CASE("a size in a message takes the decimal unit that keeps it below 1000") {
  CHECK(format_size_for_message(0) == "0 B");
  CHECK(format_size_for_message(512) == "512 B");
  CHECK(format_size_for_message(512e6) == "512 MB");
  CHECK(format_size_for_message(1.234e9) == "1.23 GB");
  CHECK(format_size_for_message(7.7e12) == "7.7 TB");
}

TEST_CASE("a size just below the next unit moves up rather than printing 1e+03") {
  CHECK(format_size_for_message(999.7e9) == "1 TB");
  CHECK(format_size_for_message(999.4e9) == "999 GB");
}

TEST_CASE("a size beyond every unit prints whole digits, not an exponent") {
  CHECK(format_size_for_message(5e27) == "5000 YB");
}

// Numbers in words: sizes in the unit that keeps them short, counts with the noun agreeing.
#include <doctest/doctest.h>

#include "core/model/text.h"

using ringviz::count_of;
using ringviz::format_size_for_message;
using ringviz::Language;
using ringviz::Noun;

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

TEST_CASE("a count of one takes the singular in English and the same words in Chinese") {
  CHECK(count_of(Noun::elements, "1", Language::en) == "1 element");
  CHECK(count_of(Noun::elements, "4", Language::en) == "4 elements");
  CHECK(count_of(Noun::elements, "4 or 3", Language::en) == "4 or 3 elements");
  CHECK(count_of(Noun::chunks, "1", Language::en) == "1 chunk");
  CHECK(count_of(Noun::gpus, "1", Language::en) == "1 GPU");
  CHECK(count_of(Noun::gpus, "8", Language::en) == "8 GPUs");
  CHECK(count_of(Noun::gpus, "1", Language::zh) == count_of(Noun::gpus, "1", Language::en).substr(0, 1) + " 张 GPU");
}

#pragma once
// The one conversion from a number as a user wrote it to an element of a --dtype. Every input
// value goes through it: `--init values:`, init files, a lesson's inline values and recorded
// traces, so that each source accepts and refuses exactly the same numbers
// (docs/architecture.md, "Reading input files").
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/buffers.h"
#include "core/model/dtype.h"

namespace ringviz {

// A number is held before the element type is known as an ElementValue whose is_integer says
// that the text was a whole number within int64, held exactly in `integer` (9007199254740993
// stays itself, which a double cannot hold); `real` is the nearest double, NaN and the
// infinities only when written as nan, inf, -inf.
enum class NumberReading { number, not_a_number, beyond_double };
struct WrittenNumber {
  NumberReading reading = NumberReading::not_a_number;
  ElementValue value;
};

// Reads a decimal as JSON writes numbers (-?digits, optional .digits, optional e±digits: no
// '+', no leading zeros, no hex, no spaces) or one of the words nan, inf, -inf. `beyond_double`
// for a decimal past ±1.8e308 (1e400), which fits no type.
WrittenNumber read_written_number(std::string_view text);

// The number as `type` stores it, or nothing when it does not fit: integers must be whole and
// in range (so NaN, the infinities, 1.5, 1e-400 and 3e9 for i32 are refused), floats finite
// after rounding unless NaN or an infinity was asked for (70000 is no f16). A float that merely
// rounds (0.1 in f16) fits.
std::optional<ElementValue> stored_as(const ElementValue& number, DType type);

// A value that is already a double (a GUI table cell): exact when whole and within int64.
ElementValue number_of_real(double real);
// A table of such values (the GUI's edited table; tests).
std::vector<std::vector<ElementValue>> numbers_of_reals(const std::vector<std::vector<double>>& rows);

// The values `type` holds, as messages word them ("whole numbers from -2147483648 to ...").
std::string type_range(DType type);

// The shortest text that reads back as `value`: its integer digits when exact, else the
// shortest decimal of its double, or nan, inf, -inf.
std::string written_text(const ElementValue& value);

// Floating-point numbers to and from text, the way std::from_chars and std::to_chars do it
// (exactly rounded, no locale, shortest round-trip output), for every build: through them where
// the standard library has them for floating point (__cpp_lib_to_chars), else (the browser
// build's libc++) through strtod and printf-style formatting held to the same results.
// `read_double` takes only what from_chars takes, and says result_out_of_range where the value
// is past a double or below its smallest subnormal.
std::from_chars_result read_double(const char* first, const char* last, double& value);
std::string shortest_text(double value);        // "0.1", "1e+20": the shortest that reads back
std::string shortest_text(float value);
std::string shortest_fixed_text(double value);  // "2.5", never an exponent

}  // namespace ringviz

// Text for the HTML report: escaping what comes from the input (file
// names, metric names, settings) and formatting numbers.
#pragma once

#include <string>
#include <string_view>

namespace vqx::html {

// `text` safe in HTML text and in a quoted attribute value: & < > " '
// become references, and control characters (which a JSON string may hold
// as \u0001) U+FFFD.
std::string escape(std::string_view text);

// `v` with `decimals` digits after the point ("%.*f"), "inf", "-inf", or
// "n/a" for NaN (a value absent, or null in the file: not known). Always with a decimal point,
// whatever the C locale.
std::string number(double v, int decimals);

}  // namespace vqx::html

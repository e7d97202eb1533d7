// Number and text formatting shared by the output writers. Everything here is
// locale-independent (std::to_chars), whatever setlocale() the host program
// has made.
#pragma once

#include <string>
#include <string_view>

namespace vqx::output_detail {

// libvmaf's choice between "%.6f" and "%.16f": take the fractional part of
// |v| and count how many times it must be multiplied by 10 (in double
// arithmetic) to reach 1. More than 6 times means "%.16f". So a value whose
// fractional part is nonzero and below about 1e-6 gets 16 decimals, whatever
// its integer part: 1e-7 -> "0.0000001000000000", 100 + 1.4e-14 ->
// "100.0000000000000142". Zero, non-finite values and |v| >= 2^31 (which
// libvmaf converts to int out of range) always get "%.6f".
bool reference_wants_16_decimals(double v);

// Appends v as printf("%.*f", decimals, v) would in the C locale ("inf",
// "-inf", "nan", "-nan" for non-finite values).
void append_fixed(std::string& out, double v, int decimals);

// Appends a metric value under Report::precision: kPrecisionReference ->
// "%.6f" or "%.16f" by the rule above; 0..16 -> "%.Nf"; kPrecisionMax ->
// "%.17g". Non-finite values are written as printf would write them.
void append_value(std::string& out, double v, int precision);

// Appends an unsigned integer in decimal.
void append_uint(std::string& out, unsigned long long v);

// Appends s as a quoted JSON string.
void append_json_string(std::string& out, std::string_view s);

// Appends s escaped for an XML attribute value (without the quotes).
void append_xml_attr_text(std::string& out, std::string_view s);

}  // namespace vqx::output_detail

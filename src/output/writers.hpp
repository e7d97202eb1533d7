// Output writers: a Report printed in one of the formats of Netflix's `vmaf`
// tool (XML, its default; JSON; CSV; SUB subtitles), with the same element,
// key and column names, nesting, order, whitespace and number formatting.
//
// Deliberate differences from libvmaf 3.2.0 (each only where libvmaf's own
// output would be broken):
//  - CSV: a metric absent on a frame leaves an empty field, so columns stay
//    aligned (libvmaf drops the field and shifts the rest of the row left).
//  - JSON: the comma before a frame depends on whether a frame was already
//    written (libvmaf tests frameNum > 0, which gives "[," when frame 0 is not
//    written).
//  - JSON strings are escaped, XML attribute values (the version) too.
#pragma once

#include <cmath>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "output/report.hpp"
#include "vqx/status.hpp"

namespace vqx {

// "xml", "json", "csv", "sub".
inline Expected<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "xml") {
    return OutputFormat::kXml;
  }
  if (name == "json") {
    return OutputFormat::kJson;
  }
  if (name == "csv") {
    return OutputFormat::kCsv;
  }
  if (name == "sub") {
    return OutputFormat::kSub;
  }
  return Error(Errc::kInvalidArgument, "unknown output format \"" + std::string(name) +
                                           "\" (expected xml, json, csv or sub)");
}

namespace output_detail {

// One per format. Each assumes validate_report(r) is ok and leaves checking
// the stream to write_report().
void write_xml(const Report& r, std::ostream& out);
void write_json(const Report& r, std::ostream& out);
void write_csv(const Report& r, std::ostream& out);
void write_sub(const Report& r, std::ostream& out);

// True when some metric has a value on reported frame `i`.
inline bool frame_has_values(const Report& r, std::size_t i) {
  for (const ReportMetric& m : r.metrics) {
    if (!std::isnan(m.value(i))) {
      return true;
    }
  }
  return false;
}

}  // namespace output_detail

// A Report the writers accept: a known precision, one value per frame in
// every metric.
inline Status validate_report(const Report& r) {
  if (r.precision < kPrecisionReference || r.precision > kPrecisionMax) {
    return Error(Errc::kInvalidArgument,
                 "output precision " + std::to_string(r.precision) + " is out of range (-1 to 17)");
  }
  for (const ReportMetric& m : r.metrics) {
    if (!m.value_at && m.values.size() != r.frame_numbers.size()) {
      return Error(Errc::kInvalidArgument, "metric \"" + m.name + "\" has " +
                                               std::to_string(m.values.size()) + " values for " +
                                               std::to_string(r.frame_numbers.size()) + " frames");
    }
  }
  return Status::Ok();
}

// Writes `r` to `out` in format `f`. Fails with kInvalidArgument on a Report
// validate_report() rejects (writing nothing) and kIo when the stream fails.
inline Status write_report(const Report& r, OutputFormat f, std::ostream& out) {
  VQX_RETURN_IF_ERROR(validate_report(r));
  switch (f) {
    case OutputFormat::kXml:
      output_detail::write_xml(r, out);
      break;
    case OutputFormat::kJson:
      output_detail::write_json(r, out);
      break;
    case OutputFormat::kCsv:
      output_detail::write_csv(r, out);
      break;
    case OutputFormat::kSub:
      output_detail::write_sub(r, out);
      break;
  }
  out.flush();
  if (!out) {
    return Error(Errc::kIo, "could not write the output");
  }
  return Status::Ok();
}

}  // namespace vqx

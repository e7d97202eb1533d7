#include "input_checks.hpp"

#include "vqx/run_checks.hpp"

#include <sys/stat.h>

#include <string>
#include <vector>

namespace vqx::cli {

namespace {

// The CLI's options, as the library's checks name them.
const RunCheckNames& cli_names() {
  static const RunCheckNames names{.ignore_frame_rate = "--ignore_frame_rate",
                                   .frame_cnt = "--frame_cnt",
                                   .frame_skip_ref = "--frame_skip_ref",
                                   .frame_skip_dist = "--frame_skip_dist",
                                   .scale = "--scale"};
  return names;
}

}  // namespace

Status check_output_is_not_an_input(const CliOptions& o) {
  return check_output_is_not_an_input(o.output, o);
}

Status check_output_is_not_an_input(const std::string& output, const CliOptions& o) {
  std::vector<NamedInput> inputs = {{"reference video", o.reference}};
  for (const std::string& d : o.distorted) inputs.push_back({"distorted video", d});
  return check_output_is_not_one_of(output, inputs);
}

Status check_output_is_not_one_of(const std::string& output,
                                  const std::vector<NamedInput>& inputs) {
  struct stat out {};
  if (output.empty() || ::stat(output.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) {
    return Status::Ok();
  }
  for (const NamedInput& input : inputs) {
    struct stat in {};
    if (::stat(input.path.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
        in.st_ino == out.st_ino) {
      return Error(Errc::kInvalidArgument, "--output " + output + " is the " + input.what + " " +
                                               input.path + ": the report would replace it");
    }
  }
  return Status::Ok();
}

Status check_same_format(const VideoReader& ref, const VideoReader& dist) {
  return vqx::check_same_format(ref, dist, cli_names());
}

Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, const CliOptions& o) {
  return vqx::check_frame_rates(ref, dist, o.ignore_frame_rate, cli_names());
}

Status check_frame_counts(const VideoReader& ref, const VideoReader& dist, const CliOptions& o,
                          int offset) {
  return vqx::check_frame_counts(ref, dist,
                                 {.skip_ref = o.frame_skip_ref,
                                  .skip_dist = o.frame_skip_dist,
                                  .frame_cnt = o.frame_cnt,
                                  .offset = offset},
                                 cli_names());
}

}  // namespace vqx::cli

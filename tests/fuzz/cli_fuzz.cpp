// Fuzz target: the command-line parser (tools/vqx/cli_options.cpp, CLI11
// underneath). Input: argv[1..] separated by NUL bytes. parse_cli must return
// options or a one-line error, never throw or crash.
#include <cstdint>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"vqx"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() > 64) return 0;
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    auto parsed = vqx::cli::parse_cli(static_cast<int>(argv.size()), argv.data());
    if (!parsed.ok() && parsed.status().message().empty()) vqx::fuzz::broken_promise("empty error");
  } catch (...) {
    vqx::fuzz::broken_promise("parse_cli threw");
  }
  return 0;
}

// Running the vqx command from the CLI tests: its exit status and what it
// wrote on stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace vqx::cli_test {

struct CliRun {
  int code = -1;  // the exit status, or 128 + the signal that ended it
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `command` through the shell with its stdout and stderr in files of
// `dir` (removed afterwards).
inline CliRun run_command(const std::string& command, const std::filesystem::path& dir) {
  const std::filesystem::path out = dir / "stdout.txt";
  const std::filesystem::path err = dir / "stderr.txt";
  const std::string cmd = command + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// `vqx ARGS` (the binary under test, VQX_CLI).
inline CliRun run_vqx(const std::string& args, const std::filesystem::path& dir) {
  return run_command(std::string(VQX_CLI) + " " + args, dir);
}

}  // namespace vqx::cli_test

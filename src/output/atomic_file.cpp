#include "output/atomic_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace vqx {

Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write) {
  std::error_code ec;
  const auto st = std::filesystem::status(path == "-" ? "/dev/stdout" : path, ec);
  if (path == "-" || (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))) {
    // Standard output, a device or a pipe: nothing to rename, write in place.
    std::ofstream out(path == "-" ? "/dev/stdout" : path, std::ios::binary);
    if (!out) return Error(Errc::kIo, path + ": cannot open for writing");
    if (Status s = write(out); !s.ok()) return Error(s.code(), path + ": " + s.message());
    out.flush();
    return out ? Status::Ok() : Error(Errc::kIo, path + ": write failed");
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error(Errc::kIo, path + ": cannot open for writing");
    Status s = write(out);
    if (!s.ok()) s = Error(s.code(), path + ": " + s.message());
    out.flush();
    if (s.ok() && !out) s = Error(Errc::kIo, path + ": write failed");
    out.close();
    if (!s.ok()) {
      std::remove(tmp.c_str());
      return s;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Error(Errc::kIo, path + ": cannot rename the finished output into place");
  }
  return Status::Ok();
}

}  // namespace vqx

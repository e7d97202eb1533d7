// Writes a file under a temporary name and renames it into place only when
// the whole write succeeded, so that a failed or interrupted run never
// leaves a file that looks complete.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "vqx/status.hpp"

namespace vqx {

Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write);

}  // namespace vqx

// Files written under a temporary name beside their path and renamed into
// place when complete (the promise of vqx/output_files.hpp, which also holds
// the process-wide hold, commit and discard). The writers (src/output's
// write_file_atomically, CAMBI's heatmaps) create their files here, so that
// every temporary the process made is recorded and a failure or a signal
// can remove them all.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "vqx/status.hpp"

namespace vqx::staged {

struct StagedFile {
  int fd = -1;         // open for writing; the writer closes it before finish()
  std::string temp;    // where it is written
  std::string target;  // where it goes
  std::uint64_t id = 0;
};

// The path a write to `path` goes to: symbolic links followed (a dangling
// one included), so that a link itself is never replaced. Errors name `path`.
Expected<std::string> resolve_links(const std::string& path);

// Creates the temporary for `target` (a resolved path, not a folder or a
// device) and records it. A file already at `target` gives its permissions
// to the temporary; a new one gets 0666 less the umask. Under hold, a
// temporary already made for `target` (by prepare_output_path() or an
// earlier write) is emptied and used again. The error is the reason only
// ("cannot create: Permission denied"); callers add the path.
Expected<StagedFile> create(const std::string& target);

// The file is complete (its descriptor closed): renamed into place now, or
// at commit_output_files() under hold. On a failed rename the temporary is
// removed; the error is the reason only.
Status finish(StagedFile& file);

// The write failed: closes the descriptor if open and removes the temporary.
void abandon(StagedFile& file);

// create() then, under hold, keep the empty temporary for the write to come
// (and for a signal to find); otherwise remove it: the up-front check.
Status reserve(const std::string& target);

// Creates the folder `dir` and its missing parents. Under hold, the folders
// it created are recorded, and removed by a discard when they are empty.
// The error is the reason only.
Status create_folders(const std::string& dir);

}  // namespace vqx::staged

// Files written under a temporary name beside their path and renamed into
// place when complete (the promise of vqx/output_files.hpp). Every file is
// created in an OutputFiles set, which records it until it is renamed or
// removed, so that the set's commit, discard or close finds every temporary
// it made; the set decides whether a complete file goes into place at once
// or waits for the commit (hold). The writers (src/output's
// write_file_atomically, CAMBI's heatmaps) create their files here, in the
// set of the context they write for. No state outside the sets.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx::staged {

struct StagedFile {
  int fd = -1;         // open for writing; the writer closes it before finish()
  std::string temp;    // where it is written
  std::string target;  // where it goes
  std::uint64_t id = 0;
  // The set that recorded it; the writer keeps the set alive until the file
  // is finished or abandoned. Null for a file never created.
  OutputFiles* set = nullptr;
};

// The path a write to `path` goes to: symbolic links followed (a dangling
// one included), so that a link itself is never replaced. Errors name `path`.
Expected<std::string> resolve_links(const std::string& path);

// Creates the temporary for `target` (a resolved path, not a folder or a
// device) and records it in `set`. A file already at `target` gives its
// permissions to the temporary; a new one gets 0666 less the umask. Under
// hold, a temporary already made in `set` for `target` (by prepare() or an
// earlier write) is emptied and used again. The error is the reason only
// ("cannot create: Permission denied"); callers add the path.
Expected<StagedFile> create(OutputFiles& set, const std::string& target);

// The file is complete (its descriptor closed): renamed into place now, or
// at its set's commit() under hold. On a failed rename the temporary is
// removed; the error is the reason only.
Status finish(StagedFile& file);

// The write failed: closes the descriptor if open and removes the temporary.
// Nothing for a file never created.
void abandon(StagedFile& file);

// create() then, under hold, keep the empty temporary for the write to come
// (and for a signal to find); otherwise remove it: the up-front check.
Status reserve(OutputFiles& set, const std::string& target);

// Creates the folder `dir` and its missing parents. Under hold, `set`
// records the folders it created, and a discard removes them when they are
// empty. The error is the reason only.
Status create_folders(OutputFiles& set, const std::string& dir);

}  // namespace vqx::staged

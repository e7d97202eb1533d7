// The files VQX writes, and how a program makes a run's files all or nothing.
//
// VQX writes files in two places: Context::write_output() (the report) and
// CAMBI's heatmaps_path option (heatmap files, written frame by frame).
// Each is written under a temporary name beside its path,
// "<path>.tmp.<pid>" (".<pid>.<n>" when that is taken), and renamed into
// place only when it is complete: a path never holds a partial file, and a
// file already at a path is replaced only by a complete one. A symbolic
// link's target is written (the link stays); outputs that are not regular
// files (standard output, a pipe, a device) are written in place.
//
// The files a context writes belong to an OutputFiles set: the one given in
// ContextSettings::output_files, or, when none is given, a private set of
// the context's own. Sets are independent: what one set does (hold, commit,
// discard, close) never changes another's files, so contexts with sets of
// their own behave as they would alone.
//
// A set renames each file into place as soon as it is complete. A program
// for which a run's files are one result (the vqx command: after a failure
// or a signal no file of the run may be left behind, and no file already at
// one of its paths destroyed) makes a set, gives it to the run's contexts,
// and calls hold() before the run: complete files then wait under their
// temporary names until commit() renames them all, or discard() removes
// every temporary (complete or not) and the folders VQX created for them.
// Either ends the hold.
#pragma once

#include <memory>
#include <string>

#include "vqx/status.hpp"

namespace vqx {

namespace staged {
struct Access;  // the writers' side of a set (inside the library)
}

// The files one run writes. Thread-safe: the contexts writing into a set
// and a thread that commits, discards or closes it may be different ones.
class OutputFiles {
 public:
  // Renames each file into place as soon as it is complete (no hold).
  OutputFiles();
  // Removes what a set that was neither committed nor discarded still holds
  // (its temporaries and the folders made for them), as discard() does.
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // From now on, complete files wait for commit() (or discard()).
  void hold();

  // Renames every complete file into place, and removes the temporaries of
  // files that were never completed. A rename that fails is an error naming
  // the path (the files after it are removed, not renamed). Ends the hold.
  Status commit();

  // Removes every temporary file and the (empty) folders VQX created for
  // the files not yet committed. Ends the hold.
  void discard();

  // discard() for a process that is about to end (on a signal): it also
  // keeps any later file of this set from being created or renamed, so that
  // nothing appears between this call and the end. Waits for a commit in
  // progress to finish. May be called from a thread other than the ones
  // writing; never from a signal handler (it takes a lock). A closed set
  // stays closed, and is not to be destroyed.
  void close();

  // Checks, before a long run, that `path` can be written the way
  // Context::write_output() writes it, with the same one-line errors: a
  // missing folder, a folder without write permission, a path that is a
  // folder, a standard output that is closed or open only for reading. For
  // a regular file (or one that does not exist yet) this creates its
  // temporary file: under hold() the temporary stays, and write_output()
  // of a context given this set writes into it, until commit or discard;
  // otherwise it is removed at once.
  Status prepare(const std::string& path);

 private:
  friend struct staged::Access;
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace vqx

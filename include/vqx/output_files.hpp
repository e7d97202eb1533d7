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
// By default each file is renamed into place as soon as it is complete. A
// program for which a run's files are one result (the vqx command: after a
// failure or a signal no file of the run may be left behind, and no file
// already at one of its paths destroyed) calls hold_output_files() before
// the run: complete files then wait under their temporary names until
// commit_output_files() renames them all, or discard_output_files() removes
// every temporary (complete or not) and the folders VQX created for them.
// Either ends the hold. Process-wide: it covers the files of every context.
#pragma once

#include <string>

#include "vqx/status.hpp"

namespace vqx {

// From now on, complete files wait for commit_output_files() (or
// discard_output_files()).
void hold_output_files();

// Renames every complete file into place, and removes the temporaries of
// files that were never completed. A rename that fails is an error naming
// the path (the files after it are removed, not renamed).
Status commit_output_files();

// Removes every temporary file and the (empty) folders VQX created for the
// files not yet committed. Ends the hold.
void discard_output_files();

// discard_output_files() for a process that is about to end (on a signal):
// it also keeps any later file from being created, so that nothing appears
// between this call and the end. Waits for a commit in progress to finish.
// Use it from a thread, never from a signal handler (it takes a lock).
void close_output_files();

// Checks, before a long run, that `path` can be written the way
// Context::write_output() writes it, with the same one-line errors: a
// missing folder, a folder without write permission, a path that is a
// folder, a standard output that is closed or open only for reading. For a
// regular file (or one that does not exist yet) this creates its temporary
// file: under hold_output_files() the temporary stays, and write_output()
// writes into it, until commit or discard; otherwise it is removed at once.
Status prepare_output_path(const std::string& path);

}  // namespace vqx

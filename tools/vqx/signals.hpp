// How vqx ends on a signal (docs/reliability.md). A run's files are one
// result (an OutputFiles set, held until the run succeeded), so that no
// signal leaves a file of the run behind or destroys one that was there:
//   * the first SIGINT asks the run to stop at the next frame (main() then
//     says "interrupted after N frames; no output written", exit status 1);
//   * SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU and a
//     second SIGINT (the run is stuck, e.g. reading a stalled pipe) end the
//     process at once: every temporary file of the run is removed first
//     (the set is closed), one line says so, then the signal's default
//     action ends the process (its wait status names the signal);
//   * SIGPIPE and SIGXFSZ are ignored, so that a write to a closed pipe or
//     past the file size limit fails, and is reported, like any other.
// The signals are blocked in every thread and taken by a thread of their own
// (sigwait), which can take locks: nothing is done in a signal handler.
// SIGKILL cannot be caught: it can leave temporary files "<path>.tmp.<pid>",
// never a partial file at a path, never a file destroyed.
#pragma once

#include <memory>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx::cli {

// Call first in main(), before any other thread exists: the threads
// started later (workers, decoders, GPU runtimes) inherit the mask. `files`
// is the run's set: a signal that ends the process closes it.
void start_signal_thread(std::shared_ptr<OutputFiles> files);

// A first SIGINT asked the run to stop.
bool stop_requested();

// Renames the run's files into place (files.commit()), unless a signal is
// ending the process or asked the run to stop: then an error, and the files
// go with the discard.
Status commit_run(OutputFiles& files);

}  // namespace vqx::cli

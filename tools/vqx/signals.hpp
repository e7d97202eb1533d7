// How vqx ends on a signal (docs/reliability.md). A run's files are one
// result (vqx/output_files.hpp: held until the run succeeded), so that no
// signal leaves a file of the run behind or destroys one that was there:
//   * the first SIGINT asks the run to stop at the next frame (main() then
//     says "interrupted after N frames; no output written", exit status 1);
//   * SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU and a
//     second SIGINT (the run is stuck, e.g. reading a stalled pipe) end the
//     process at once: every temporary file of the run is removed first,
//     one line says so, then the signal's default action ends the process
//     (its wait status names the signal);
//   * SIGPIPE and SIGXFSZ are ignored, so that a write to a closed pipe or
//     past the file size limit fails, and is reported, like any other.
// The signals are blocked in every thread and taken by a thread of their own
// (sigwait), which can take locks: nothing is done in a signal handler.
// SIGKILL cannot be caught: it can leave temporary files "<path>.tmp.<pid>",
// never a partial file at a path, never a file destroyed.
//
// Header-only: the CLI target's sources are listed in CMakeLists.txt.
#pragma once

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <thread>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx::cli {

namespace signals_detail {

struct Shared {
  std::atomic<bool> stop{false};
  // Held while the run's files are committed, and for good by the signal
  // thread once it ends the process: a commit is never cut in half.
  std::mutex commit;
  bool committed = false;  // under `commit`
};

// Never destroyed: the signal thread may use it while the process exits.
inline Shared& shared() {
  static Shared* const s = new Shared;  // NOLINT: deliberately leaked
  return *s;
}

inline const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "a second SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGALRM:
      return "SIGALRM";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "a signal";
  }
}

[[noreturn]] inline void end_process(int sig) {
  Shared& s = shared();
  s.commit.lock();  // a commit under way finishes first; none starts after
  vqx::close_output_files();
  if (!s.committed)
    std::fprintf(stderr, "vqx: stopped by %s; no output written\n", signal_name(sig));
  std::fflush(stderr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);  // delivered to this thread, the only one not blocking it
  ::_exit(128 + sig);
}

inline void wait_for_signals(sigset_t set) {
  for (;;) {
    int sig = 0;
    if (::sigwait(&set, &sig) != 0) continue;
    if (sig == SIGINT && !shared().stop.exchange(true)) continue;  // the first: stop at a frame
    end_process(sig);
  }
}

}  // namespace signals_detail

// Call first in main(), before any other thread exists: the threads
// started later (workers, decoders, GPU runtimes) inherit the mask.
inline void start_signal_thread() {
  for (const int sig : {SIGPIPE, SIGXFSZ}) std::signal(sig, SIG_IGN);
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU}) {
    sigaddset(&set, sig);
  }
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(signals_detail::wait_for_signals, set).detach();
}

// A first SIGINT asked the run to stop.
inline bool stop_requested() { return signals_detail::shared().stop.load(); }

// Renames the run's files into place (vqx::commit_output_files()), unless a
// signal is ending the process or asked the run to stop: then an error, and
// the files go with the discard.
inline Status commit_run() {
  signals_detail::Shared& s = signals_detail::shared();
  std::lock_guard lock(s.commit);
  if (s.stop.load()) return Error(Errc::kInvalidArgument, "interrupted; no output written");
  VQX_RETURN_IF_ERROR(vqx::commit_output_files());
  s.committed = true;
  return Status::Ok();
}

}  // namespace vqx::cli

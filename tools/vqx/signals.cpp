#include "signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <thread>
#include <utility>

namespace vqx::cli {

namespace {

// What the signal thread and the run share: signals belong to the process,
// so this is the process's one instance.
struct Shared {
  std::atomic<bool> stop{false};
  // Held while the run's files are committed, and for good by the signal
  // thread once it ends the process: a commit is never cut in half.
  std::mutex commit;
  bool committed = false;  // under `commit`
};

// Never destroyed: the signal thread may use it while the process exits.
Shared& shared() {
  static Shared* const s = new Shared;  // NOLINT: deliberately leaked
  return *s;
}

const char* signal_name(int sig) {
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

[[noreturn]] void end_process(int sig, OutputFiles& files) {
  Shared& s = shared();
  s.commit.lock();  // a commit under way finishes first; none starts after
  files.close();
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

// The thread's copy of `files` keeps the set alive while the process exits.
void wait_for_signals(sigset_t set, const std::shared_ptr<OutputFiles>& files) {
  for (;;) {
    int sig = 0;
    if (::sigwait(&set, &sig) != 0) continue;
    if (sig == SIGINT && !shared().stop.exchange(true)) continue;  // the first: stop at a frame
    end_process(sig, *files);
  }
}

}  // namespace

void start_signal_thread(std::shared_ptr<OutputFiles> files) {
  for (const int sig : {SIGPIPE, SIGXFSZ}) std::signal(sig, SIG_IGN);
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU}) {
    sigaddset(&set, sig);
  }
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(wait_for_signals, set, std::move(files)).detach();
}

bool stop_requested() { return shared().stop.load(); }

Status commit_run(OutputFiles& files) {
  Shared& s = shared();
  std::lock_guard lock(s.commit);
  if (s.stop.load()) return Error(Errc::kCancelled, "interrupted; no output written");
  VQX_RETURN_IF_ERROR(files.commit());
  s.committed = true;
  return Status::Ok();
}

}  // namespace vqx::cli

#include "core/staged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

namespace vqx {

namespace {

// strerror() is not thread-safe; std::error_code's message() is.
std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

// Where a recorded file stands.
enum class Stage { kReserved, kWriting, kComplete };

struct Entry {
  std::uint64_t id;
  std::string temp;
  std::string target;
  Stage stage;
};

}  // namespace

// Every temporary the set made and has not renamed or removed, and the
// folders made for them: names only, no result.
struct OutputFiles::State {
  std::mutex m;
  bool hold = false;  // under m
  // Set by close(), which keeps `m` locked for good.
  std::atomic<bool> closed{false};
  std::vector<Entry> entries;
  std::vector<std::string> folders;  // in the order they were made
  std::uint64_t next_id = 1;

  Entry* find(std::uint64_t id) {
    auto it =
        std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.id == id; });
    return it == entries.end() ? nullptr : &*it;
  }
  void erase(std::uint64_t id) {
    std::erase_if(entries, [&](const Entry& e) { return e.id == id; });
  }
  // Removes every temporary and the folders made for them (deepest first;
  // rmdir() leaves a folder that is not empty).
  void discard_locked() {
    for (const Entry& e : entries) ::unlink(e.temp.c_str());
    entries.clear();
    for (auto it = folders.rbegin(); it != folders.rend(); ++it) ::rmdir(it->c_str());
    folders.clear();
    hold = false;
  }
};

namespace staged {

struct Access {
  static auto& state(OutputFiles& set) { return *set.state_; }
};

Expected<std::string> resolve_links(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) return Error(Errc::kIo, path + ": cannot read the link: " + reason(errno));
    std::string target(buf.data(), static_cast<std::size_t>(n));
    if (target.empty() || target[0] != '/') {
      const auto slash = p.rfind('/');
      if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
    }
    p = target;
  }
  return Error(Errc::kIo, path + ": too many levels of symbolic links");
}

Expected<StagedFile> create(OutputFiles& set, const std::string& target) {
  auto& r = Access::state(set);
  std::lock_guard lock(r.m);
  if (r.hold) {
    for (Entry& e : r.entries) {
      if (e.target != target || e.stage == Stage::kWriting) continue;
      const int fd = ::open(e.temp.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) {
        e.stage = Stage::kWriting;
        return StagedFile{fd, e.temp, e.target, e.id, &set};
      }
      ::unlink(e.temp.c_str());  // gone or replaced: start afresh
      r.erase(e.id);
      break;
    }
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
  // <target>.tmp.<pid>, or .<pid>.<n> when that is taken (by another set of
  // this process writing the same path, or a run of a process that had this
  // pid and was killed before it could clean up).
  const std::string base = target + ".tmp." + std::to_string(::getpid());
  for (int n = 0; n < 100; ++n) {
    const std::string temp = n == 0 ? base : base + "." + std::to_string(n);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      const int err = errno;
      if (err == ENOENT) {
        const auto slash = target.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash);
        struct stat dst {};
        if (!dir.empty() && ::stat(dir.c_str(), &dst) != 0) {
          return Error(Errc::kIo, "cannot create: " + reason(err) + " (the folder " + dir +
                                      " does not exist)");
        }
      }
      return Error(Errc::kIo, "cannot create: " + reason(err));
    }
    if (exists) (void)::fchmod(fd, mode);  // the umask does not apply to a replaced file
    const std::uint64_t id = r.next_id++;
    r.entries.push_back(Entry{id, temp, target, Stage::kWriting});
    return StagedFile{fd, temp, target, id, &set};
  }
  return Error(Errc::kIo, "cannot create: 100 temporary names " + base + ".* are taken");
}

Status finish(StagedFile& file) {
  if (file.set == nullptr) return Error(Errc::kInternal, "finishing a file never created");
  auto& r = Access::state(*file.set);
  std::lock_guard lock(r.m);
  Entry* e = r.find(file.id);
  if (e == nullptr) return Error(Errc::kIo, "its temporary file was discarded");
  if (r.hold) {
    e->stage = Stage::kComplete;
    return Status::Ok();
  }
  Status s = Status::Ok();
  if (std::rename(e->temp.c_str(), e->target.c_str()) != 0) {
    s = Error(Errc::kIo, "cannot rename the finished output into place: " + reason(errno));
    ::unlink(e->temp.c_str());
  }
  r.erase(file.id);
  return s;
}

void abandon(StagedFile& file) {
  if (file.fd >= 0) {
    ::close(file.fd);
    file.fd = -1;
  }
  if (file.set == nullptr) return;
  auto& r = Access::state(*file.set);
  std::lock_guard lock(r.m);
  if (r.find(file.id) == nullptr) return;
  ::unlink(file.temp.c_str());
  r.erase(file.id);
}

Status reserve(OutputFiles& set, const std::string& target) {
  VQX_ASSIGN_OR_RETURN(StagedFile file, create(set, target));
  ::close(file.fd);
  file.fd = -1;
  auto& r = Access::state(set);
  std::lock_guard lock(r.m);
  Entry* e = r.find(file.id);
  if (e == nullptr) return Status::Ok();
  if (r.hold) {
    e->stage = Stage::kReserved;
  } else {
    ::unlink(e->temp.c_str());
    r.erase(file.id);
  }
  return Status::Ok();
}

Status create_folders(OutputFiles& set, const std::string& dir) {
  if (dir.empty()) return Error(Errc::kInvalidArgument, "the folder name is empty");
  // The missing folders, from `dir` up to the first that exists.
  std::vector<std::string> missing;
  std::string p = dir;
  while (!p.empty()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return Error(Errc::kIo, p + " exists and is not a folder");
      break;
    }
    if (errno != ENOENT) return Error(Errc::kIo, p + ": " + reason(errno));
    missing.push_back(p);
    while (!p.empty() && p.back() == '/') p.pop_back();
    const auto slash = p.rfind('/');
    if (slash == std::string::npos) break;
    p = p.substr(0, slash);
  }
  auto& r = Access::state(set);
  std::lock_guard lock(r.m);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) != 0) {
      if (errno == EEXIST) continue;  // made meanwhile by someone else: not ours
      return Error(Errc::kIo, "cannot create the folder " + *it + ": " + reason(errno));
    }
    if (r.hold) r.folders.push_back(*it);
  }
  return Status::Ok();
}

}  // namespace staged

OutputFiles::OutputFiles() : state_(std::make_unique<State>()) {}

OutputFiles::~OutputFiles() {
  if (state_->closed.load()) {
    // Its lock is held for good (a mutex is not destroyed locked): left, as
    // the process that closed it is ending.
    (void)state_.release();
    return;
  }
  std::lock_guard lock(state_->m);
  state_->discard_locked();
}

void OutputFiles::hold() {
  std::lock_guard lock(state_->m);
  state_->hold = true;
}

Status OutputFiles::commit() {
  State& r = *state_;
  std::lock_guard lock(r.m);
  Status s = Status::Ok();
  for (const Entry& e : r.entries) {
    if (s.ok() && e.stage == Stage::kComplete) {
      if (std::rename(e.temp.c_str(), e.target.c_str()) == 0) continue;
      s = Error(Errc::kIo,
                e.target + ": cannot rename the finished output into place: " + reason(errno));
    }
    ::unlink(e.temp.c_str());
  }
  r.entries.clear();
  r.folders.clear();
  r.hold = false;
  return s;
}

void OutputFiles::discard() {
  std::lock_guard lock(state_->m);
  state_->discard_locked();
}

void OutputFiles::close() {
  State& r = *state_;
  r.m.lock();  // never unlocked: no file of the set is created or renamed after this
  r.discard_locked();
  r.closed = true;
}

}  // namespace vqx

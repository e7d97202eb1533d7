#include "core/staged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

#include "vqx/output_files.hpp"

namespace vqx {

namespace {

// strerror() is not thread-safe; std::error_code's message() is.
std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

enum class State { kReserved, kWriting, kComplete };

struct Entry {
  std::uint64_t id;
  std::string temp;
  std::string target;
  State state;
};

// Every temporary this process made and has not renamed or removed, and the
// folders made for them. One per process, as files and signals are: it
// holds no result, only names. Never destroyed, so that a thread handling a
// signal can still use it while the process exits.
struct Registry {
  std::mutex m;
  bool hold = false;
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

Registry& registry() {
  static Registry* const r = new Registry;  // NOLINT: deliberately never destroyed
  return *r;
}

}  // namespace

namespace staged {

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

Expected<StagedFile> create(const std::string& target) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  if (r.hold) {
    for (Entry& e : r.entries) {
      if (e.target != target || e.state == State::kWriting) continue;
      const int fd = ::open(e.temp.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) {
        e.state = State::kWriting;
        return StagedFile{fd, e.temp, e.target, e.id};
      }
      ::unlink(e.temp.c_str());  // gone or replaced: start afresh
      r.erase(e.id);
      break;
    }
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
  // <target>.tmp.<pid>, or .<pid>.<n> when that is taken (a run of a
  // process that had this pid and was killed before it could clean up).
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
    r.entries.push_back(Entry{id, temp, target, State::kWriting});
    return StagedFile{fd, temp, target, id};
  }
  return Error(Errc::kIo, "cannot create: 100 temporary names " + base + ".* are taken");
}

Status finish(StagedFile& file) {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  Entry* e = r.find(file.id);
  if (e == nullptr) return Error(Errc::kIo, "its temporary file was discarded");
  if (r.hold) {
    e->state = State::kComplete;
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
  Registry& r = registry();
  std::lock_guard lock(r.m);
  if (r.find(file.id) == nullptr) return;
  ::unlink(file.temp.c_str());
  r.erase(file.id);
}

Status reserve(const std::string& target) {
  VQX_ASSIGN_OR_RETURN(StagedFile file, create(target));
  ::close(file.fd);
  file.fd = -1;
  Registry& r = registry();
  std::lock_guard lock(r.m);
  Entry* e = r.find(file.id);
  if (e == nullptr) return Status::Ok();
  if (r.hold) {
    e->state = State::kReserved;
  } else {
    ::unlink(e->temp.c_str());
    r.erase(file.id);
  }
  return Status::Ok();
}

Status create_folders(const std::string& dir) {
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
  Registry& r = registry();
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

void hold_output_files() {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  r.hold = true;
}

Status commit_output_files() {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  Status s = Status::Ok();
  for (const Entry& e : r.entries) {
    if (s.ok() && e.state == State::kComplete) {
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

void discard_output_files() {
  Registry& r = registry();
  std::lock_guard lock(r.m);
  r.discard_locked();
}

void close_output_files() {
  Registry& r = registry();
  r.m.lock();  // never unlocked: no file is created or renamed after this
  r.discard_locked();
}

}  // namespace vqx

// The layering rule (see layering_check.hpp): the table, and a scanner for
// #include directives that skips comments and raw strings.
#include "layering_check.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace vqx::contract {

namespace {

namespace fs = std::filesystem;

// One row per folder of includers: the units its sources may include. A
// unit ends in '/' (a folder, all of it) or is one file; an included file
// belongs to the longest unit that holds it, so a file unit is carved out
// of its folder and must be listed on its own to be allowed.
struct Row {
  const char* folder;  // the includers: every source under it
  const char* role;    // for messages
  std::vector<const char*> may_include;
};

// The public API's headers besides the vocabulary every layer speaks
// (Status, Picture): each is the face of the layer that implements it.
constexpr const char* kContextApi = "include/vqx/vqx.hpp";               // src/engine
constexpr const char* kVideoReaderApi = "include/vqx/video_reader.hpp";  // src/io
constexpr const char* kReadAheadApi = "include/vqx/read_ahead.hpp";      // src/io

// The thread pool is core's, but only the engine's scheduler runs work on
// it: code below the engine gets its parallelism as a core/fork_join.hpp.
constexpr const char* kThreadPool = "src/core/thread_pool.hpp";
// The table of metric families: the one header of metrics/ that the model
// layer reads (to resolve a model's feature names to families).
constexpr const char* kRegistry = "src/metrics/registry.hpp";

const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      // Installed alone (install(DIRECTORY include/vqx)): a user's compiler
      // has nothing else, so a public header includes public headers only.
      {"include/vqx/",
       "the public API",
       {"include/vqx/", kContextApi, kVideoReaderApi, kReadAheadApi}},
      // The floor (status, pictures, options, the thread pool, the extractor
      // interface): everything stands on it, so it stands on nothing but the
      // public vocabulary. Not vqx.hpp or video_reader.hpp: those are the
      // engine's and io's faces, and would make core depend on them.
      {"src/core/", "the core floor", {"src/core/", kThreadPool, "include/vqx/"}},
      // Devices: vendor headers, RAII buffers and streams, the frame
      // pipeline. It knows twins and feature writers (core), no family,
      // file, model or output; and it schedules nothing (no thread pool).
      {"src/gpu/", "the GPU layer", {"src/core/", "src/gpu/", "include/vqx/"}},
      // One folder per family: its CPU extractor and its GPU twin (on gpu/).
      {"src/metrics/",
       "the metric families",
       {"src/core/", "src/gpu/", "src/metrics/", kRegistry, "include/vqx/"}},
      // The readers turn files into Pictures; they implement video_reader.hpp
      // and read_ahead.hpp (the readers on threads of their own).
      {"src/io/",
       "the readers",
       {"src/core/", "src/io/", "include/vqx/", kVideoReaderApi, kReadAheadApi}},
      // JSON models and the SVM. A model names features by libvmaf's names;
      // the registry maps them to families (nothing else of metrics/: the
      // model needs their names, not their arithmetic).
      {"src/model/", "the models", {"src/core/", "src/model/", kRegistry, "include/vqx/"}},
      // The writers format a Report. vqx.hpp gives OutputFormat and the
      // precision constants, which write_output() takes.
      {"src/output/", "the writers", {"src/core/", "src/output/", "include/vqx/", kContextApi}},
      // The engine is the context over every other layer of the library.
      {"src/engine/",
       "the engine",
       {"src/core/", kThreadPool, "src/gpu/", "src/metrics/", kRegistry, "src/io/", "src/model/",
        "src/output/", "src/engine/", "include/vqx/", kContextApi, kVideoReaderApi, kReadAheadApi}},
      // The libvmaf-compatible C API (installed with VQX_LIBVMAF_COMPAT):
      // its headers include each other only, and its implementation is a
      // user of the public C++ API, as the CLI is.
      {"include/libvmaf/", "the libvmaf-compatible C API", {"include/libvmaf/"}},
      {"src/capi/",
       "the libvmaf-compatible C API's implementation",
       {"include/libvmaf/", "include/vqx/", kContextApi, "src/capi/"}},
      // The CLI is a user of the library like any other program: the public
      // API, its own files and third-party headers (CLI11, fmt).
      {"tools/vqx/",
       "the CLI",
       {"include/vqx/", kContextApi, kVideoReaderApi, kReadAheadApi, "tools/vqx/"}},
      // The Python package's module (docs/python.md): another such program,
      // with pybind11's headers.
      {"python/src/",
       "the Python module",
       {"include/vqx/", kContextApi, kVideoReaderApi, kReadAheadApi, "python/src/"}},
  };
  return rows;
}

// Every unit any row names, for resolving an included file to its unit.
const std::vector<std::string>& units() {
  static const std::vector<std::string> all = [] {
    std::set<std::string> s;
    for (const Row& r : table()) {
      s.insert(r.folder);
      for (const char* u : r.may_include) s.insert(u);
    }
    return std::vector<std::string>(s.begin(), s.end());
  }();
  return all;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The longest unit holding `path`, or "" for none.
std::string unit_of(const std::string& path) {
  std::string best;
  for (const std::string& u : units()) {
    const bool holds = u.back() == '/' ? starts_with(path, u) : path == u;
    if (holds && u.size() > best.size()) best = u;
  }
  return best;
}

const Row* row_of(const std::string& path) {
  const Row* best = nullptr;
  for (const Row& r : table()) {
    if (starts_with(path, r.folder) &&
        (best == nullptr || std::string(r.folder).size() > std::string(best->folder).size())) {
      best = &r;
    }
  }
  return best;
}

// Where a header named from an include root lives: "vqx/x.hpp" under
// include/, the library's folders ("core/x.hpp") under src/. "" when the
// first folder is none of ours (a third-party header, or a bad path).
std::string resolve_rooted(const std::string& name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos) return "";
  const std::string first = name.substr(0, slash + 1);
  for (const char* root : {"include/", "src/"}) {
    const std::string folder = root + first;
    for (const std::string& u : units()) {
      if (starts_with(u, folder)) return root + name;
    }
  }
  return "";
}

struct Include {
  int line = 0;
  char delimiter = 0;  // '"', '<', or 0 for a computed include
  std::string name;
};

// The text with comments and raw-string contents blanked (newlines kept),
// so that only real directives start a line with '#'.
std::string strip(const std::string& s) {
  std::string out = s;
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k) {
      if (out[k] != '\n') out[k] = ' ';
    }
  };
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      std::size_t e = i;
      // A comment ends at a newline that no backslash continues.
      while (e < s.size() && !(s[e] == '\n' && s[e - 1] != '\\')) ++e;
      blank(i, e);
      i = e;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t close = s.find("*/", i + 2);
      const std::size_t e = close == std::string::npos ? s.size() : close + 2;
      blank(i, e);
      i = e;
    } else if (c == '"' || c == '\'') {
      std::size_t e = i + 1;
      while (e < s.size() && s[e] != c && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      i = e + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      // A number, with any digit separators (1'000) that would otherwise
      // open a character literal.
      while (i < s.size() && (ident(s[i]) || s[i] == '.' || s[i] == '\'')) ++i;
    } else if (ident(c)) {
      std::size_t e = i;
      while (e < s.size() && ident(s[e])) ++e;
      const std::string word = s.substr(i, e - i);
      const bool raw =
          !word.empty() && word.back() == 'R' && e < s.size() && s[e] == '"' &&
          (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR");
      if (raw) {
        const std::size_t open = s.find('(', e);
        if (open == std::string::npos) return out;
        const std::string end = ")" + s.substr(e + 1, open - e - 1) + "\"";
        const std::size_t close = s.find(end, open);
        const std::size_t stop = close == std::string::npos ? s.size() : close + end.size();
        blank(e + 1, stop - 1);
        i = stop;
      } else {
        i = e;
      }
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<Include> includes_of(const std::string& text) {
  std::vector<Include> out;
  std::istringstream in(strip(text));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const int start = n;
    while (!line.empty() && line.back() == '\\') {  // a directive continued
      std::string next;
      if (!std::getline(in, next)) break;
      ++n;
      line.pop_back();
      line += next;
    }
    std::size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos || line[p] != '#') continue;
    p = line.find_first_not_of(" \t", p + 1);
    if (p == std::string::npos) continue;
    std::size_t e = p;
    while (e < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) {
      ++e;
    }
    const std::string directive = line.substr(p, e - p);
    if (directive != "include" && directive != "include_next" && directive != "import") continue;
    p = line.find_first_not_of(" \t", e);
    Include inc;
    inc.line = start;
    if (p != std::string::npos && (line[p] == '"' || line[p] == '<')) {
      const char close = line[p] == '"' ? '"' : '>';
      const std::size_t q = line.find(close, p + 1);
      inc.delimiter = line[p];
      inc.name = line.substr(p + 1, q == std::string::npos ? std::string::npos : q - p - 1);
    } else {
      inc.name = p == std::string::npos ? "" : line.substr(p);
    }
    out.push_back(std::move(inc));
  }
  return out;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string allowed_list(const Row& r) {
  std::string s;
  for (const char* u : r.may_include) s += (s.empty() ? "" : ", ") + std::string(u);
  return s;
}

}  // namespace

std::vector<Violation> check_layering(const std::vector<SourceFile>& files) {
  std::set<std::string> paths;
  for (const SourceFile& f : files) paths.insert(f.path);
  std::vector<Violation> v;
  for (const SourceFile& f : files) {
    const Row* row = row_of(f.path);
    if (row == nullptr) {
      v.push_back({"layering-unknown", f.path, 1,
                   "is in no folder of the layering table (tests/contract/layering_check.cpp): "
                   "add a row saying what it may include"});
      continue;
    }
    for (const Include& inc : includes_of(f.text)) {
      const std::string quoted =
          inc.delimiter == '<' ? "<" + inc.name + ">" : "\"" + inc.name + "\"";
      if (inc.delimiter == 0) {
        v.push_back({"layering-unknown", f.path, inc.line,
                     "a computed #include (" + inc.name + ") cannot be checked; name the header"});
        continue;
      }
      std::string target;
      if (inc.name.find('/') == std::string::npos) {
        if (inc.delimiter == '<') continue;  // <vector>, <unistd.h>
        target = folder_of(f.path) + inc.name;
        if (paths.count(target) == 0) {
          v.push_back({"layering-bare-name", f.path, inc.line,
                       "includes " + quoted + " by bare name, but no " + target +
                           " exists: a bare name is for a file beside the includer"});
          continue;
        }
      } else {
        const bool relative = starts_with(inc.name, "./") || starts_with(inc.name, "../") ||
                              inc.name.find("/../") != std::string::npos;
        target = relative ? "" : resolve_rooted(inc.name);
        if (target.empty()) {
          if (inc.delimiter == '<' && !relative) continue;  // <CLI/CLI.hpp>, <fmt/format.h>
          v.push_back({"layering-unknown", f.path, inc.line,
                       "includes " + quoted +
                           ", which names no folder of the layering table: name our headers "
                           "from their root (\"core/options.hpp\", \"vqx/status.hpp\"), "
                           "third-party ones with <...>"});
          continue;
        }
      }
      const std::string unit = unit_of(target);
      const bool allowed = std::any_of(row->may_include.begin(), row->may_include.end(),
                                       [&](const char* u) { return unit == u; });
      if (!allowed) {
        v.push_back({"layering", f.path, inc.line,
                     std::string(row->folder) + " (" + row->role + ") includes " + quoted +
                         ", which is in " + (unit.empty() ? target : unit) + "; it may include " +
                         allowed_list(*row)});
      }
    }
  }
  return v;
}

std::vector<SourceFile> layered_sources(const std::string& repo_root) {
  static const std::set<std::string> kExtensions = {".h",  ".hpp", ".c",   ".cc", ".cpp",
                                                    ".cu", ".cuh", ".inl", ".ipp"};
  std::vector<SourceFile> out;
  const fs::path root(repo_root);
  for (const char* top : {"include", "src", "tools", "python"}) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (!e.is_regular_file() || kExtensions.count(e.path().extension().string()) == 0) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({fs::relative(e.path(), root).generic_string(), ss.str()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace vqx::contract

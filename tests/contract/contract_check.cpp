// The frame-protocol contract check (see contract_check.hpp). A small C++
// tokenizer, not a compiler: it finds function bodies and the calls in
// them by name, which is enough for the rules and robust to formatting.
#include "contract_check.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace vqx::contract {

namespace {

namespace fs = std::filesystem;

struct Token {
  std::string text;
  int line;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(const std::string& s) { return !s.empty() && ident_start(s[0]); }

struct Macro {
  std::string name;
  bool function_like = false;
  std::vector<Token> body;
  int line = 0;
};

// Tokens of one file, with comments, string literals and preprocessor lines
// removed; #define bodies become macros, #include targets are kept aside.
struct Lexed {
  std::vector<Token> tokens;
  std::vector<Macro> macros;
  std::vector<Token> includes;
};

std::vector<Token> tokenize(const std::string& s, int first_line) {
  std::vector<Token> out;
  int line = first_line;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 2;
    } else if (c == '"' || c == '\'') {
      const char q = c;
      ++i;
      while (i < s.size() && s[i] != q) {
        if (s[i] == '\\') ++i;
        if (i < s.size() && s[i] == '\n') ++line;
        ++i;
      }
      ++i;
      out.push_back({q == '"' ? "\"\"" : "''", line});
    } else if (ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back({s.substr(i, j - i), line});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && (ident_char(s[j]) || s[j] == '.' || s[j] == '\'')) ++j;
      out.push_back({s.substr(i, j - i), line});
      i = j;
    } else {
      static const char* kTwo[] = {"::", "->", "<<", ">>", "&&", "||", "==", "!=", "<=", ">="};
      std::string op(1, c);
      for (const char* t : kTwo) {
        if (s.compare(i, 2, t) == 0) op = t;
      }
      // Keep '>' '>' apart: they close templates (a >> b is rare in the rules' scope).
      if (op == ">>") op = ">";
      out.push_back({op, line});
      i += op.size();
    }
  }
  return out;
}

Lexed lex(const std::string& text) {
  Lexed lx;
  std::string code;  // the text with preprocessor lines blanked (lines kept)
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::size_t p = line.find_first_not_of(" \t");
    if (p != std::string::npos && line[p] == '#') {
      std::string directive = line;
      const int start = n;
      while (!directive.empty() && directive.back() == '\\' && std::getline(in, line)) {
        directive.pop_back();
        directive += " " + line;
        ++n;
        code += "\n";
      }
      code += "\n";
      std::vector<Token> t = tokenize(directive.substr(p + 1), start);
      if (t.empty()) continue;
      if (t[0].text == "define" && t.size() >= 2) {
        Macro m;
        m.name = t[1].text;
        m.line = start;
        std::size_t b = 2;
        // Function-like only when '(' follows the name directly.
        const std::size_t after = directive.find(m.name, p) + m.name.size();
        if (after < directive.size() && directive[after] == '(') {
          m.function_like = true;
          while (b < t.size() && t[b].text != ")") ++b;
          ++b;
        }
        m.body.assign(t.begin() + static_cast<long>(std::min(b, t.size())), t.end());
        lx.macros.push_back(std::move(m));
      } else if (t[0].text == "include") {
        std::string target = directive.substr(directive.find("include") + 7);
        lx.includes.push_back({target, start});
      }
      continue;
    }
    code += line + "\n";
  }
  lx.tokens = tokenize(code, 1);
  return lx;
}

std::size_t match(const std::vector<Token>& t, std::size_t open, const char* o, const char* c) {
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].text == o) ++depth;
    if (t[i].text == c && --depth == 0) return i;
  }
  return t.size();
}

struct Function {
  std::string name;
  std::string cls;  // enclosing class, if any
  bool twin = false;
  std::string path;
  int line = 0;
  std::vector<Token> body;  // between the braces
  bool is_macro = false;
};

const std::set<std::string> kQualifiers = {"const",    "noexcept", "override", "final", "mutable",
                                           "volatile", "&",        "&&",       "throw"};

// Function bodies (and their enclosing classes) of one file.
void find_functions(const std::vector<Token>& t, const std::string& path, bool metrics_file,
                    std::vector<Function>& out) {
  struct Scope {
    bool is_class;
    std::string name;
    bool twin;
  };
  std::vector<Scope> scopes;
  std::size_t i = 0;
  while (i < t.size()) {
    const std::string& s = t[i].text;
    if (s == "namespace") {
      std::size_t j = i + 1;
      while (j < t.size() && t[j].text != "{" && t[j].text != ";" && t[j].text != "=") ++j;
      if (j < t.size() && t[j].text == "{") scopes.push_back({false, "", false});
      i = j + 1;
      continue;
    }
    if (s == "class" || s == "struct" || s == "union") {
      std::size_t j = i + 1;
      std::string name = j < t.size() ? t[j].text : "";
      bool twin = false;
      // A class head runs to '{' (bases may hold template arguments and
      // commas); a template parameter or a declaration ends otherwise.
      while (j < t.size() && t[j].text != "{" && t[j].text != ";" && t[j].text != "(" &&
             t[j].text != ")" && t[j].text != ">" && t[j].text != "=") {
        if (t[j].text == "Twin") twin = true;
        j = t[j].text == "<" ? match(t, j, "<", ">") + 1 : j + 1;
      }
      if (j < t.size() && t[j].text == "{") {
        scopes.push_back({true, name, twin});
        i = j + 1;
      } else {
        i = i + 1;
      }
      continue;
    }
    if (s == "enum") {
      std::size_t j = i;
      while (j < t.size() && t[j].text != "{" && t[j].text != ";") ++j;
      i = (j < t.size() && t[j].text == "{") ? match(t, j, "{", "}") + 1 : j + 1;
      continue;
    }
    if (s == "}") {
      if (!scopes.empty()) scopes.pop_back();
      ++i;
      continue;
    }
    if (s == "{") {  // an initializer or anything else: not analysed
      i = match(t, i, "{", "}") + 1;
      continue;
    }
    const bool op = s == "operator";
    if ((is_ident(s) || op) && i + 1 < t.size()) {
      std::size_t p = i + 1;
      std::string name = s;
      if (op) {
        while (p < t.size() && t[p].text != "(") name += t[p++].text;
        if (p < t.size() && p + 1 < t.size() && t[p + 1].text == ")" && name == "operator") {
          name += "()";
          p += 2;
        }
      }
      if (p < t.size() && t[p].text == "(") {
        std::size_t j = match(t, p, "(", ")") + 1;
        while (j < t.size() && kQualifiers.count(t[j].text) != 0) {
          ++j;
          if (j < t.size() && t[j].text == "(") j = match(t, j, "(", ")") + 1;
        }
        if (j < t.size() && t[j].text == "->") {
          while (j < t.size() && t[j].text != "{" && t[j].text != ";") ++j;
        }
        if (j < t.size() && t[j].text == ":") {  // constructor initializer list
          ++j;
          while (j < t.size()) {
            while (j < t.size() && (is_ident(t[j].text) || t[j].text == "::")) ++j;
            if (j < t.size() && t[j].text == "<") j = match(t, j, "<", ">") + 1;
            if (j < t.size() && t[j].text == "(")
              j = match(t, j, "(", ")") + 1;
            else if (j < t.size() && t[j].text == "{")
              j = match(t, j, "{", "}") + 1;
            if (j < t.size() && t[j].text == ",") {
              ++j;
              continue;
            }
            break;
          }
        }
        if (j < t.size() && t[j].text == "{") {
          const std::size_t end = match(t, j, "{", "}");
          Function f;
          f.name = name;
          for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
            if (it->is_class) {
              f.cls = it->name;
              f.twin = it->twin;
              break;
            }
          }
          f.twin = f.twin || metrics_file;
          f.path = path;
          f.line = t[i].line;
          f.body.assign(t.begin() + static_cast<long>(j + 1), t.begin() + static_cast<long>(end));
          out.push_back(std::move(f));
          i = end + 1;
          continue;
        }
      }
    }
    ++i;
  }
}

const std::set<std::string> kNotCalls = {
    "if",         "for",     "while",    "switch",           "return",
    "sizeof",     "alignof", "decltype", "static_cast",      "reinterpret_cast",
    "const_cast", "catch",   "defined",  "__launch_bounds__"};

struct Call {
  std::string name;
  int line;
};

// Calls in a body, in order: `name(`, `name<...>(`, and object-like macros.
std::vector<Call> calls_in(const std::vector<Token>& b,
                           const std::set<std::string>& object_macros) {
  std::vector<Call> calls;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::string& s = b[i].text;
    if (!is_ident(s) || kNotCalls.count(s) != 0) continue;
    if (object_macros.count(s) != 0) {
      calls.push_back({s, b[i].line});
      continue;
    }
    std::size_t j = i + 1;
    if (j < b.size() && b[j].text == "<") {
      const std::size_t close = match(b, j, "<", ">");
      if (close < b.size() && close - j < 24) j = close + 1;
    }
    if (j < b.size() && b[j].text == "(") calls.push_back({s, b[i].line});
  }
  return calls;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool clear_primitive(const std::string& n) {
  const std::string l = lower(n);
  return l.find("memset") != std::string::npos || n == "clear_async";
}

bool upload_primitive(const std::string& n) {
  const std::string l = lower(n);
  return l.find("hosttodevice") != std::string::npos ||
         l.find("host_to_device") != std::string::npos || l.find("upload") != std::string::npos;
}

bool allocation_function(const Function& f) {
  const std::string n = lower(f.name);
  for (const char* p : {"init", "allocate", "create", "make", "reserve", "setup"}) {
    if (n.rfind(p, 0) == 0) return true;
  }
  return !f.cls.empty() && f.name == f.cls;  // a constructor
}

bool vendor_name(const std::string& n) {
  for (const char* p : {"cuda", "hip"}) {
    const std::size_t len = std::char_traits<char>::length(p);
    if (n.size() > len && n.compare(0, len, p) == 0 &&
        (std::isupper(static_cast<unsigned char>(n[len])) || n[len] == '_')) {
      return true;
    }
  }
  return false;
}

bool atomic_name(const std::string& n) {
  return n.size() > 6 && n.compare(0, 6, "atomic") == 0 &&
         std::isupper(static_cast<unsigned char>(n[6]));
}

bool under(const std::string& path, const std::string& dir) {
  return path.find(dir) != std::string::npos;
}

}  // namespace

std::vector<Violation> check(const std::vector<SourceFile>& files) {
  std::vector<Violation> v;
  std::vector<Function> functions;
  std::set<std::string> object_macros;
  for (const SourceFile& f : files) {
    const Lexed lx = lex(f.text);
    const bool vendor_file = under(f.path, "src/gpu/vendor/");
    const bool reduce_file = under(f.path, "src/gpu/reduce.cuh");
    if (!vendor_file) {
      for (const Token& inc : lx.includes) {
        if (inc.text.find("gpu/vendor/") != std::string::npos) continue;  // ours
        if (inc.text.find("cuda") != std::string::npos ||
            inc.text.find("hip/") != std::string::npos) {
          v.push_back({"vendor", f.path, inc.line, "includes a vendor header:" + inc.text});
        }
      }
    }
    auto scan_names = [&](const std::vector<Token>& toks) {
      for (const Token& t : toks) {
        if (!vendor_file && vendor_name(t.text)) {
          v.push_back({"vendor", f.path, t.line,
                       "names a vendor API (" + t.text + "); only src/gpu/vendor/ may"});
        }
        if (!reduce_file && atomic_name(t.text)) {
          v.push_back({"atomic", f.path, t.line,
                       "uses " + t.text +
                           "; atomics live in src/gpu/reduce.cuh only "
                           "(integer add_exact_warp), never for float sums"});
        }
      }
    };
    scan_names(lx.tokens);
    for (const Macro& m : lx.macros) {
      scan_names(m.body);
      Function fm;
      fm.name = m.name;
      fm.path = f.path;
      fm.line = m.line;
      fm.body = m.body;
      fm.is_macro = true;
      fm.twin = under(f.path, "src/metrics/");
      if (!m.function_like) object_macros.insert(m.name);
      functions.push_back(std::move(fm));
    }
    find_functions(lx.tokens, f.path, under(f.path, "src/metrics/"), functions);
  }

  // Which names clear and which upload, through helpers and macros. Calls
  // are matched by name only, so an edge that closes a cycle (a function
  // reaching itself, e.g. a submit() calling another class's submit())
  // comes from two functions sharing a name and carries nothing.
  std::vector<std::vector<Call>> calls(functions.size());
  std::map<std::string, std::set<std::string>> graph;
  for (std::size_t k = 0; k < functions.size(); ++k) {
    calls[k] = calls_in(functions[k].body, object_macros);
    for (const Call& c : calls[k]) graph[functions[k].name].insert(c.name);
  }
  auto reaches = [&](const std::string& from, const std::string& to) {
    std::set<std::string> seen;
    std::vector<std::string> todo = {from};
    while (!todo.empty()) {
      const std::string n = todo.back();
      todo.pop_back();
      if (n == to) return true;
      if (!seen.insert(n).second) continue;
      auto it = graph.find(n);
      if (it != graph.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
    }
    return false;
  };
  std::set<std::string> clearers;
  std::set<std::string> uploaders;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = 0; k < functions.size(); ++k) {
      const std::string& f = functions[k].name;
      for (const Call& c : calls[k]) {
        const bool cycle =
            !clear_primitive(c.name) && !upload_primitive(c.name) && reaches(c.name, f);
        if (cycle) continue;
        if ((clear_primitive(c.name) || clearers.count(c.name) != 0) && clearers.insert(f).second) {
          changed = true;
        }
        if ((upload_primitive(c.name) || uploaders.count(c.name) != 0) &&
            uploaders.insert(f).second) {
          changed = true;
        }
      }
    }
  }
  auto clears = [&](const std::string& n) { return clear_primitive(n) || clearers.count(n) != 0; };
  auto uploads = [&](const std::string& n) {
    return upload_primitive(n) || uploaders.count(n) != 0;
  };

  for (std::size_t k = 0; k < functions.size(); ++k) {
    const Function& f = functions[k];
    const std::string where =
        (f.is_macro ? "macro " : "") + (f.cls.empty() ? "" : f.cls + "::") + f.name;
    const Call* first_clear = nullptr;
    for (const Call& c : calls[k]) {
      // A helper that both uploads and clears was checked in its own body:
      // here it uploads, then has cleared.
      if (uploads(c.name) && first_clear != nullptr) {
        v.push_back({"clear-before-upload", f.path, c.line,
                     where + " uploads (" + c.name + ") after queueing a clear (" +
                         first_clear->name + ", line " + std::to_string(first_clear->line) +
                         "): the clear must come after the frame's upload"});
        break;
      }
      if (clears(c.name) && first_clear == nullptr) first_clear = &c;
    }
    if (f.twin) {
      for (const Call& c : calls[k]) {
        if (uploads(c.name)) {
          v.push_back({"twin-uploads", f.path, c.line,
                       where + " uploads (" + c.name + "): only the pipeline uploads a frame"});
          break;
        }
      }
    }
    if (!f.is_macro && allocation_function(f)) {
      for (const Call& c : calls[k]) {
        if (clears(c.name)) {
          v.push_back({"allocation-clear", f.path, c.line,
                       where + " queues a clear (" + c.name +
                           ") where it allocates: a clear at allocation is no per-frame clear; "
                           "queue it in Twin::clear()"});
          break;
        }
      }
    }
  }
  return v;
}

std::vector<Violation> check_device_code_placement(const std::vector<SourceFile>& others) {
  std::vector<Violation> v;
  for (const SourceFile& f : others) {
    const Lexed lx = lex(f.text);
    for (std::size_t i = 0; i < lx.tokens.size(); ++i) {
      const std::string& t = lx.tokens[i].text;
      const bool launch = t == "<<" && i + 1 < lx.tokens.size() && lx.tokens[i + 1].text == "<" &&
                          i > 0 &&
                          (is_ident(lx.tokens[i - 1].text) || lx.tokens[i - 1].text == ">");
      if (t == "__global__" || t == "__device__" || t == "__shared__" || t == "__constant__" ||
          launch) {
        v.push_back({"device-code-placement", f.path, lx.tokens[i].line,
                     (launch ? std::string("a kernel launch") : t) +
                         " outside the GPU sources: device code goes in a .cu or .cuh file "
                         "(or src/gpu/), which the contract check reads"});
        break;
      }
    }
  }
  return v;
}

namespace {

bool is_gpu_source(const fs::path& p, const std::string& rel) {
  const std::string ext = p.extension().string();
  return rel.rfind("src/gpu/", 0) == 0 || ext == ".cu" || ext == ".cuh" ||
         (rel.rfind("src/metrics/", 0) == 0 && p.filename() == "gpu.hpp");
}

// The files under src/ that are (or are not) GPU sources, sorted by path.
std::vector<SourceFile> src_files(const std::string& repo_root, bool gpu) {
  std::vector<SourceFile> out;
  const fs::path root(repo_root);
  for (const auto& e : fs::recursive_directory_iterator(root / "src")) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (is_gpu_source(e.path(), rel) != gpu) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({rel, ss.str()});
  }
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace

std::vector<SourceFile> gpu_sources(const std::string& repo_root) {
  return src_files(repo_root, true);
}

std::vector<SourceFile> other_sources(const std::string& repo_root) {
  return src_files(repo_root, false);
}

std::string format(const Violation& v) {
  return v.path + ":" + std::to_string(v.line) + ": [" + v.rule + "] " + v.message;
}

}  // namespace vqx::contract

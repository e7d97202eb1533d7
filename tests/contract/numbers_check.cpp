// The numbers rules (numbers_check.hpp): what each params.hpp defines, and
// the GPU sources' literals and constants checked against it.
#include "numbers_check.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "constant_expr.hpp"

namespace vqx::contract {

namespace {

namespace fs = std::filesystem;
using numbers::evaluate;
using numbers::literal_value;
using numbers::matching;
using numbers::Names;
using numbers::same_value;
using numbers::to_text;
using numbers::Tok;
using numbers::TokKind;
using numbers::Value;

// A value a params.hpp defines, and how ("kGainEps", "a literal in ...").
struct Defined {
  Value value;
  std::string what;
  std::string path;
  int line;
};

struct Params {
  std::string path;
  std::vector<Defined> defined;
  Names names;
};

bool trivial(const Value& v) {
  if (v.is_float) {
    const double a = std::fabs(v.f);
    return a == 0.0 || a == 0.5 || a == 1.0 || a == 2.0;
  }
  const std::uint64_t a =
      v.i < 0 ? 0U - static_cast<std::uint64_t>(v.i) : static_cast<std::uint64_t>(v.i);
  return a <= 16 || (a <= 1024 && (a & (a - 1)) == 0);
}

// Where the declaration that starts after `constexpr` (or `const`) at
// tokens[i] stops: at its "=", "{", "(" or ";" outside template brackets,
// or, with `in_parameters`, at a "," or ")" (a parameter, not a variable).
std::size_t declarator_end(const std::vector<Tok>& t, std::size_t i, bool in_parameters) {
  int angle = 0;
  for (std::size_t j = i + 1; j < t.size(); ++j) {
    const std::string& s = t[j].text;
    if (s == "<") ++angle;
    if (s == ">") --angle;
    if (s == ">>") angle -= 2;
    if (angle > 0) continue;
    if (s == "=" || s == "{" || s == "(" || s == ";") return j;
    if (in_parameters && (s == "," || s == ")")) return t.size();
  }
  return t.size();
}

// The ";" that ends an initializer starting at `from`, outside brackets.
std::size_t initializer_end(const std::vector<Tok>& t, std::size_t from) {
  for (std::size_t j = from; j < t.size(); ++j) {
    const std::string& s = t[j].text;
    if (s == "(" || s == "{" || s == "[") {
      j = matching(t, j);
      continue;
    }
    if (s == ";" || s == ")" || s == "}") return j;
  }
  return t.size();
}

// The declared name before the "=" or "{" at `stop` (`kX` in `kX[3] = ...`).
std::string declared_name(const std::vector<Tok>& t, std::size_t stop) {
  std::size_t k = stop;
  if (k > 0 && t[k - 1].text == "]") {
    while (k > 0 && t[k - 1].text != "[") --k;
    if (k > 0) --k;
  }
  return k > 0 && t[k - 1].kind == TokKind::kIdent ? t[k - 1].text : "";
}

bool is_static_assert(const std::vector<Tok>& t, std::size_t i) {
  return t[i].text == "static_assert" && i + 1 < t.size() && t[i + 1].text == "(";
}

// Adds the literals of [b, e), and the values of its parenthesised constant
// expressions, as defined by `owner`.
void add_range(const std::vector<Tok>& t, std::size_t b, std::size_t e, const std::string& owner,
               Params& p) {
  for (std::size_t k = b; k < e; ++k) {
    if (is_static_assert(t, k)) {
      k = matching(t, k + 1);
      continue;
    }
    if (t[k].kind == TokKind::kNumber) {
      if (const auto v = literal_value(t[k].text)) {
        p.defined.push_back({*v, "a literal in " + owner, p.path, t[k].line});
      }
    } else if (t[k].text == "(") {
      const std::size_t close = matching(t, k);
      if (close < e) {
        if (const auto v = evaluate(t, k + 1, close, p.names)) {
          p.defined.push_back({*v, "a value in " + owner, p.path, t[k].line});
        }
      }
    }
  }
}

Params read_params(const SourceFile& f) {
  Params p;
  p.path = f.path;
  const std::vector<Tok> t = numbers::lex_source(f.text).tokens;
  std::size_t i = 0;
  while (i < t.size()) {
    if (is_static_assert(t, i)) {
      i = matching(t, i + 1) + 1;
      continue;
    }
    if (t[i].text != "constexpr" || (i > 0 && t[i - 1].text == "if")) {
      ++i;
      continue;
    }
    const std::size_t j = declarator_end(t, i, false);
    if (j >= t.size()) break;
    if (t[j].text == ";") {
      i = j + 1;
      continue;
    }
    if (t[j].text == "(") {  // a function: its body's numbers
      const std::string name = j > 0 ? t[j - 1].text : "";
      std::size_t k = matching(t, j) + 1;
      while (k < t.size() && t[k].text != "{" && t[k].text != ";") {
        k = t[k].text == "(" ? matching(t, k) + 1 : k + 1;
      }
      if (k < t.size() && t[k].text == "{") {
        const std::size_t end = matching(t, k);
        add_range(t, k + 1, end, name + "()", p);
        i = end + 1;
      } else {
        i = k + 1;
      }
      continue;
    }
    // A variable: "= init;" or "{init};".
    const std::string name = declared_name(t, j);
    const bool braced = t[j].text == "{";
    const std::size_t b = j + 1;
    const std::size_t e = braced ? matching(t, j) : initializer_end(t, b);
    if (e >= t.size()) break;
    add_range(t, b, e, name + "'s definition", p);
    if (!name.empty() && b < e && t[b].text != "{") {
      if (const auto v = evaluate(t, b, e, p.names)) {
        p.defined.push_back({*v, name, p.path, t[j].line});
        p.names[name] = *v;
      }
    }
    i = e + 1;
  }
  return p;
}

// The family of a path under src/metrics/, or "".
std::string family_of(const std::string& path) {
  const std::string root = "src/metrics/";
  const std::size_t p = path.find(root);
  if (p == std::string::npos) return "";
  const std::size_t b = p + root.size();
  const std::size_t e = path.find('/', b);
  return e == std::string::npos ? "" : path.substr(b, e - b);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The definition of value v that the GPU source should use: a named
// constant where there is one, else the literal or expression it repeats.
const Defined* find_defined(const std::vector<const Params*>& seen, const Value& v) {
  const Defined* found = nullptr;
  for (const Params* p : seen) {
    for (const Defined& d : p->defined) {
      if (!same_value(d.value, v)) continue;
      const bool named = d.what.rfind("a ", 0) != 0;
      if (named) return &d;
      if (found == nullptr) found = &d;
    }
  }
  return found;
}

std::string where(const Defined& d) {
  return d.path + ":" + std::to_string(d.line) + " (" + d.what + ")";
}

void check_file(const SourceFile& f, const std::vector<Params>& all, std::vector<Violation>& v) {
  const numbers::Lexed lx = numbers::lex_source(f.text);
  std::vector<const Params*> seen;
  const std::string family = family_of(f.path);
  for (const Params& p : all) {
    bool sees = !family.empty() && family_of(p.path) == family;
    for (const std::string& inc : lx.includes) {
      sees = sees || (ends_with(inc, "params.hpp") && ends_with(p.path, inc));
    }
    if (sees) seen.push_back(&p);
  }
  if (seen.empty()) return;
  Names names;
  for (const Params* p : seen) names.insert(p->names.begin(), p->names.end());

  const std::vector<Tok>& t = lx.tokens;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_static_assert(t, i)) {
      i = matching(t, i + 1);
      continue;
    }
    if (t[i].kind == TokKind::kNumber) {
      const auto value = literal_value(t[i].text);
      if (!value || trivial(*value)) continue;
      if (const Defined* d = find_defined(seen, *value)) {
        v.push_back({value->is_float ? "numbers-float" : "numbers-integer", f.path, t[i].line,
                     "the literal " + t[i].text + " is defined in " + where(*d) +
                         ": use that definition, or name this number in params.hpp"});
      }
      continue;
    }
    // const / constexpr variables whose literal initializer repeats a value.
    if ((t[i].text != "constexpr" && t[i].text != "const") || (i > 0 && t[i - 1].text == "if")) {
      continue;
    }
    const std::size_t j = declarator_end(t, i, true);
    if (j >= t.size() || (t[j].text != "=" && t[j].text != "{")) continue;
    const std::string name = declared_name(t, j);
    const bool braced = t[j].text == "{";
    const std::size_t b = j + 1;
    const std::size_t e = braced ? matching(t, j) : initializer_end(t, b);
    if (name.empty() || e >= t.size() || b >= e || t[b].text == "{") continue;
    const auto value = evaluate(t, b, e, names);
    if (!value) continue;
    names[name] = *value;
    const bool literal =
        std::any_of(t.begin() + static_cast<long>(b), t.begin() + static_cast<long>(e),
                    [](const Tok& k) { return k.kind == TokKind::kNumber; });
    if (!literal || trivial(*value)) continue;
    if (const Defined* d = find_defined(seen, *value)) {
      v.push_back(
          {"numbers-constexpr", f.path, t[i].line,
           name + " = " + to_text(*value) + " redefines " + where(*d) + ": use that definition"});
    }
  }
}

}  // namespace

std::vector<SourceFile> params_sources(const std::string& repo_root) {
  std::vector<SourceFile> out;
  const fs::path metrics = fs::path(repo_root) / "src" / "metrics";
  if (!fs::is_directory(metrics)) return out;
  for (const auto& e : fs::directory_iterator(metrics)) {
    const fs::path p = e.path() / "params.hpp";
    if (!e.is_directory() || !fs::is_regular_file(p)) continue;
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({fs::relative(p, repo_root).generic_string(), ss.str()});
  }
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return out;
}

std::vector<Violation> check_numbers(const std::vector<SourceFile>& gpu,
                                     const std::vector<SourceFile>& params) {
  std::vector<Params> all;
  all.reserve(params.size());
  for (const SourceFile& p : params) all.push_back(read_params(p));
  std::vector<Violation> v;
  for (const SourceFile& f : gpu) check_file(f, all, v);
  return v;
}

}  // namespace vqx::contract

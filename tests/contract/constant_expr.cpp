// The numbers check's tokenizer and constant evaluator (constant_expr.hpp).
#include "constant_expr.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace vqx::contract::numbers {

namespace {

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The end of the string or character literal whose opening quote is at i.
std::size_t quoted_end(const std::string& s, std::size_t i, int& line) {
  const char q = s[i];
  ++i;
  while (i < s.size() && s[i] != q) {
    if (s[i] == '\\') ++i;
    if (i < s.size() && s[i] == '\n') ++line;
    ++i;
  }
  return i + 1;
}

// The end of a raw string literal whose opening quote is at i: R"d( ... )d".
std::size_t raw_end(const std::string& s, std::size_t i, int& line) {
  const std::size_t open = s.find('(', i);
  if (open == std::string::npos) return s.size();
  const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
  const std::size_t e = s.find(close, open);
  const std::size_t stop = e == std::string::npos ? s.size() : e + close.size();
  for (std::size_t k = i; k < stop; ++k) line += s[k] == '\n' ? 1 : 0;
  return stop;
}

void lex_into(const std::string& s, int first_line, Lexed& out);

// One preprocessor directive (continuations joined), starting at line `line`.
void directive(const std::string& d, int line, Lexed& out) {
  std::size_t p = d.find_first_not_of(" \t", 1);
  if (p == std::string::npos) return;
  std::size_t e = p;
  while (e < d.size() && is_alnum(d[e])) ++e;
  const std::string word = d.substr(p, e - p);
  if (word == "include") {
    const std::size_t a = d.find_first_of("\"<", e);
    const std::size_t b = a == std::string::npos ? a : d.find_first_of("\">", a + 1);
    if (b != std::string::npos) out.includes.push_back(d.substr(a + 1, b - a - 1));
  } else if (word == "define") {
    std::size_t n = d.find_first_not_of(" \t", e);
    if (n == std::string::npos) return;
    while (n < d.size() && is_alnum(d[n])) ++n;
    if (n < d.size() && d[n] == '(') n = d.find(')', n) + 1;  // the parameters
    if (n == 0 || n >= d.size()) return;
    lex_into(d.substr(n), line, out);  // the body is code
  }
}

void lex_into(const std::string& s, int first_line, Lexed& out) {
  int line = first_line;
  bool line_start = true;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (c == '#' && line_start) {
      std::string d;
      const int start = line;
      while (i < s.size()) {
        const std::size_t e = s.find('\n', i);
        const std::size_t stop = e == std::string::npos ? s.size() : e;
        std::string part = s.substr(i, stop - i);
        i = stop;
        const bool more = !part.empty() && part.back() == '\\';
        if (more) part.pop_back();
        d += part + " ";
        if (!more || i >= s.size()) break;
        ++i;  // the newline of a continued line
        ++line;
      }
      directive(d, start, out);
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 2;
    } else if (c == '"' || c == '\'') {
      const int at = line;
      i = quoted_end(s, i, line);
      out.tokens.push_back({TokKind::kString, "\"\"", at});
    } else if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      const bool hex = c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X');
      std::size_t j = i;
      while (j < s.size()) {
        const char ch = s[j];
        const char prev = j > i ? s[j - 1] : '\0';
        const bool exponent_sign = (ch == '+' || ch == '-') && (hex ? (prev == 'p' || prev == 'P')
                                                                    : (prev == 'e' || prev == 'E'));
        const bool separator = ch == '\'' && j + 1 < s.size() && is_alnum(s[j + 1]);
        if (!(is_alnum(ch) || ch == '.' || exponent_sign || separator)) break;
        ++j;
      }
      out.tokens.push_back({TokKind::kNumber, s.substr(i, j - i), line});
      i = j;
    } else if (is_alpha(c)) {
      std::size_t j = i;
      while (j < s.size() && is_alnum(s[j])) ++j;
      const std::string word = s.substr(i, j - i);
      static const std::set<std::string> kRawPrefixes = {"R", "u8R", "uR", "UR", "LR"};
      if (j < s.size() && s[j] == '"' && kRawPrefixes.count(word) != 0) {
        const int at = line;
        i = raw_end(s, j, line);
        out.tokens.push_back({TokKind::kString, "\"\"", at});
        continue;
      }
      out.tokens.push_back({TokKind::kIdent, word, line});
      i = j;
    } else {
      static const char* kOps[] = {"<<=", ">>=", "...", "::", "->", "<<", ">>", "&&",
                                   "||",  "==",  "!=",  "<=", ">=", "++", "--", "+=",
                                   "-=",  "*=",  "/=",  "%=", "&=", "|=", "^="};
      std::string op(1, c);
      for (const char* o : kOps) {
        if (s.compare(i, std::char_traits<char>::length(o), o) == 0) {
          op = o;
          break;
        }
      }
      out.tokens.push_back({TokKind::kPunct, op, line});
      i += op.size();
    }
  }
}

std::optional<std::uint64_t> parse_unsigned(const std::string& digits, int base) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (const char ch : digits) {
    int d = 0;
    if (is_digit(ch)) {
      d = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      d = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      d = ch - 'A' + 10;
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    const auto b = static_cast<std::uint64_t>(base);
    const auto dd = static_cast<std::uint64_t>(d);
    if (v > (UINT64_MAX - dd) / b) return std::nullopt;
    v = v * b + dd;
  }
  return v;
}

Value integer(std::int64_t i) { return {false, 0, i}; }
Value floating(double f) { return {true, f, 0}; }
double as_double(const Value& v) { return v.is_float ? v.f : static_cast<double>(v.i); }

// Bits of the fixed-width integer types, for casts (0: leave as is).
int type_bits(const std::string& type, bool& is_unsigned) {
  struct T {
    const char* name;
    int bits;
    bool is_unsigned;
  };
  static const T kTypes[] = {{"int8_t", 8, false},   {"uint8_t", 8, true},   {"int16_t", 16, false},
                             {"uint16_t", 16, true}, {"int32_t", 32, false}, {"uint32_t", 32, true},
                             {"int64_t", 64, false}, {"uint64_t", 64, true}, {"size_t", 64, true}};
  for (const T& t : kTypes) {
    if (type == t.name) {
      is_unsigned = t.is_unsigned;
      return t.bits;
    }
  }
  return 0;
}

Value cast_to(const std::string& type, const Value& v) {
  if (type == "double") return floating(as_double(v));
  if (type == "float") return floating(static_cast<double>(static_cast<float>(as_double(v))));
  std::int64_t i = v.is_float ? static_cast<std::int64_t>(v.f) : v.i;
  bool is_unsigned = false;
  const int bits = type_bits(type, is_unsigned);
  if (bits > 0 && bits < 64) {
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::uint64_t u = static_cast<std::uint64_t>(i) & mask;
    if (!is_unsigned && (u >> (bits - 1)) != 0) u |= ~mask;  // sign-extend
    i = static_cast<std::int64_t>(u);
  }
  return integer(i);
}

class Evaluator {
 public:
  Evaluator(const std::vector<Tok>& t, std::size_t begin, std::size_t end, const Names& names)
      : t_(t), p_(begin), end_(end), names_(names) {}

  std::optional<Value> run() {
    const Value v = binary(1);
    if (!ok_ || p_ != end_) return std::nullopt;
    return v;
  }

 private:
  static int level_of(const std::string& op) {
    if (op == "|") return 1;
    if (op == "^") return 2;
    if (op == "&") return 3;
    if (op == "<<" || op == ">>") return 4;
    if (op == "+" || op == "-") return 5;
    if (op == "*" || op == "/" || op == "%") return 6;
    return 0;
  }

  bool at(const char* text) const { return p_ < end_ && t_[p_].text == text; }

  Value fail() {
    ok_ = false;
    return {};
  }

  Value binary(int level) {
    if (level > 6) return unary();
    Value v = binary(level + 1);
    while (ok_ && p_ < end_ && t_[p_].kind == TokKind::kPunct && level_of(t_[p_].text) == level) {
      const std::string op = t_[p_++].text;
      const Value r = binary(level + 1);
      if (ok_) v = apply(op, v, r);
    }
    return v;
  }

  Value unary() {
    if (at("-") || at("+") || at("~")) {
      const std::string op = t_[p_++].text;
      const Value v = unary();
      if (!ok_) return v;
      if (op == "+") return v;
      if (op == "-")
        return v.is_float
                   ? floating(-v.f)
                   : integer(static_cast<std::int64_t>(0U - static_cast<std::uint64_t>(v.i)));
      if (v.is_float) return fail();
      return integer(static_cast<std::int64_t>(~static_cast<std::uint64_t>(v.i)));
    }
    return primary();
  }

  // An inner range [b, e) evaluated on its own.
  Value inner(std::size_t b, std::size_t e) {
    const std::optional<Value> v = Evaluator(t_, b, e, names_).run();
    return v ? *v : fail();
  }

  Value primary() {
    if (p_ >= end_) return fail();
    const Tok& tok = t_[p_];
    if (tok.kind == TokKind::kNumber) {
      ++p_;
      const std::optional<Value> v = literal_value(tok.text);
      return v ? *v : fail();
    }
    if (tok.text == "(") {
      const std::size_t close = matching(t_, p_);
      if (close >= end_) return fail();
      const Value v = inner(p_ + 1, close);
      p_ = close + 1;
      return v;
    }
    if (tok.text == "static_cast") {
      ++p_;
      if (!at("<")) return fail();
      const std::size_t open = p_;
      int depth = 0;
      std::size_t close = open;
      for (; close < end_; ++close) {
        if (t_[close].text == "<") ++depth;
        if (t_[close].text == ">" && --depth == 0) break;
      }
      if (close >= end_ || close == open + 1) return fail();
      const std::string type = t_[close - 1].text;
      p_ = close + 1;
      if (!at("(")) return fail();
      const std::size_t pc = matching(t_, p_);
      if (pc >= end_) return fail();
      const Value v = inner(p_ + 1, pc);
      p_ = pc + 1;
      return ok_ ? cast_to(type, v) : v;
    }
    if (tok.kind == TokKind::kIdent || tok.text == "::") {
      std::string last;
      while (p_ < end_ && (t_[p_].kind == TokKind::kIdent || t_[p_].text == "::")) {
        if (t_[p_].kind == TokKind::kIdent) {
          if (!last.empty() && t_[p_ - 1].text != "::") break;
          last = t_[p_].text;
        }
        ++p_;
      }
      if (last.empty() || last == "true" || last == "false" || last == "sizeof") return fail();
      if (at("{")) {  // T{x}
        const std::size_t close = matching(t_, p_);
        if (close >= end_) return fail();
        const Value v = inner(p_ + 1, close);
        p_ = close + 1;
        return ok_ ? cast_to(last, v) : v;
      }
      if (at("(") || at("<") || at("[") || at(".") || at("->")) return fail();
      const auto it = names_.find(last);
      return it == names_.end() ? fail() : it->second;
    }
    return fail();
  }

  Value apply(const std::string& op, const Value& a, const Value& b) {
    if (a.is_float || b.is_float) {
      const double x = as_double(a);
      const double y = as_double(b);
      if (op == "+") return floating(x + y);
      if (op == "-") return floating(x - y);
      if (op == "*") return floating(x * y);
      if (op == "/") return y == 0 ? fail() : floating(x / y);
      return fail();
    }
    const auto x = static_cast<std::uint64_t>(a.i);
    const auto y = static_cast<std::uint64_t>(b.i);
    if (op == "+") return integer(static_cast<std::int64_t>(x + y));
    if (op == "-") return integer(static_cast<std::int64_t>(x - y));
    if (op == "*") return integer(static_cast<std::int64_t>(x * y));
    if (op == "/" || op == "%") {
      if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return fail();
      return integer(op == "/" ? a.i / b.i : a.i % b.i);
    }
    if (op == "<<" || op == ">>") {
      if (b.i < 0 || b.i > 63) return fail();
      if (op == "<<") return integer(static_cast<std::int64_t>(x << b.i));
      return integer(a.i >> b.i);
    }
    if (op == "&") return integer(static_cast<std::int64_t>(x & y));
    if (op == "|") return integer(static_cast<std::int64_t>(x | y));
    if (op == "^") return integer(static_cast<std::int64_t>(x ^ y));
    return fail();
  }

  const std::vector<Tok>& t_;
  std::size_t p_;
  std::size_t end_;
  const Names& names_;
  bool ok_ = true;
};

}  // namespace

Lexed lex_source(const std::string& text) {
  Lexed out;
  lex_into(text, 1, out);
  return out;
}

std::optional<Value> literal_value(const std::string& text) {
  std::string s;
  for (const char c : text) {
    if (c != '\'') s += c;
  }
  if (s.empty() || !(is_digit(s[0]) || s[0] == '.')) return std::nullopt;
  const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const bool is_float = hex ? s.find_first_of("pP") != std::string::npos
                            : s.find_first_of(".eE") != std::string::npos;
  if (is_float) {
    char* end = nullptr;
    const double f = std::strtod(s.c_str(), &end);
    const std::string rest(end);
    if (!(rest.empty() || rest == "f" || rest == "F" || rest == "l" || rest == "L")) {
      return std::nullopt;
    }
    return floating(f);
  }
  while (!s.empty() && std::string("uUlLzZ").find(s.back()) != std::string::npos) s.pop_back();
  std::optional<std::uint64_t> u;
  if (hex) {
    u = parse_unsigned(s.substr(2), 16);
  } else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    u = parse_unsigned(s.substr(2), 2);
  } else if (s.size() > 1 && s[0] == '0') {
    u = parse_unsigned(s.substr(1), 8);
  } else {
    u = parse_unsigned(s, 10);
  }
  if (!u) return std::nullopt;
  return integer(static_cast<std::int64_t>(*u));
}

bool same_value(const Value& a, const Value& b) {
  if (!a.is_float && !b.is_float) return a.i == b.i;
  return as_double(a) == as_double(b);
}

std::string to_text(const Value& v) {
  if (!v.is_float) return std::to_string(v.i);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.f);
  return buf;
}

std::optional<Value> evaluate(const std::vector<Tok>& t, std::size_t begin, std::size_t end,
                              const Names& names) {
  if (begin >= end || end > t.size()) return std::nullopt;
  return Evaluator(t, begin, end, names).run();
}

std::size_t matching(const std::vector<Tok>& t, std::size_t open) {
  if (open >= t.size()) return t.size();
  const std::string o = t[open].text;
  const std::string c = o == "(" ? ")" : o == "{" ? "}" : "]";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].text == o) ++depth;
    if (t[i].text == c && --depth == 0) return i;
  }
  return t.size();
}

}  // namespace vqx::contract::numbers

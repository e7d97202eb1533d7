// Tokens and constant values of C++ source text, for the numbers check
// (numbers_check.hpp): a tokenizer that keeps numeric literals whole
// (1.0e-10, 0x1p52, 1'000'000, 32768ULL) and a small evaluator of constant
// integer and floating-point expressions. Not a compiler: what it cannot
// read, it leaves alone (no value), so the check errs towards silence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vqx::contract::numbers {

enum class TokKind { kIdent, kNumber, kString, kPunct };

struct Tok {
  TokKind kind;
  std::string text;  // a string or character literal reads ""
  int line;
};

// The code of a file: comments and string contents removed, preprocessor
// lines dropped except that #define bodies are kept as code (their numbers
// count) and #include targets are listed.
struct Lexed {
  std::vector<Tok> tokens;
  std::vector<std::string> includes;
};
Lexed lex_source(const std::string& text);

// A number: an integer (two's complement in 64 bits) or a double.
struct Value {
  bool is_float = false;
  double f = 0;
  std::int64_t i = 0;
};

// The value of a numeric literal's spelling, suffixes and digit separators
// allowed; nothing if it is not one.
std::optional<Value> literal_value(const std::string& text);

// Equal as numbers (an integer equals a float of the same value).
bool same_value(const Value& a, const Value& b);

std::string to_text(const Value& v);

// Constants by name (the last component of a qualified name).
using Names = std::map<std::string, Value>;

// The value of tokens [begin, end), or nothing where they are not a
// constant expression of the form the check reads: literals, names in
// `names`, + - * / % << >> & | ^ and unary - + ~, parentheses, T{x} and
// static_cast<T>(x) (to float or double, or an integer type).
std::optional<Value> evaluate(const std::vector<Tok>& t, std::size_t begin, std::size_t end,
                              const Names& names);

// The index of the bracket that closes t[open] ("(", "{" or "["), or
// t.size() when there is none.
std::size_t matching(const std::vector<Tok>& t, std::size_t open);

}  // namespace vqx::contract::numbers

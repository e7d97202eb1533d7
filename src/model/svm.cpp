#include "model/svm.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "model/text.hpp"

namespace vqx {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Splits a text into whitespace-separated tokens, left to right.
class Tokens {
 public:
  explicit Tokens(std::string_view text) : text_(text) {}
  // The next token; empty at the end of the text.
  std::string_view next() {
    while (pos_ < text_.size() && is_space(text_[pos_])) {
      ++pos_;
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_])) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  // The text after the current token.
  [[nodiscard]] std::string_view rest() const { return text_.substr(pos_); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

bool parse_double(std::string_view tok, double& out) {
  if (tok.empty()) {
    return false;
  }
  const char* end = tok.data() + tok.size();
  auto [p, ec] = std::from_chars(tok.data(), end, out);
  return ec == std::errc() && p == end && std::isfinite(out);
}

bool parse_long(std::string_view tok, long& out) {
  if (tok.empty()) {
    return false;
  }
  const char* end = tok.data() + tok.size();
  auto [p, ec] = std::from_chars(tok.data(), end, out);
  return ec == std::errc() && p == end;
}

std::string quoted(std::string_view s) { return "'" + printable(s, 40) + "'"; }

// The most support vectors a model may declare (real models have a few
// hundred): a larger total_sv is refused before anything is allocated.
constexpr long kMaxSupportVectors = 10'000'000;

}  // namespace

Expected<SvmRegressor> SvmRegressor::parse(std::string_view text, std::size_t n_features,
                                           std::string_view where_text) {
  const std::string where = std::string(where_text) + ": ";
  auto fail = [&](const std::string& what) { return Error(Errc::kParse, where + what); };
  auto unsupported = [&](const std::string& what) {
    return Error(Errc::kUnsupported, where + what);
  };

  SvmRegressor svm;
  svm.n_features_ = n_features;

  // Header: "key value" pairs up to the line "SV".
  Tokens tok(text);
  bool have_type = false, have_kernel = false, have_gamma = false, have_nr_class = false,
       have_total = false, have_rho = false, have_degree = false, have_coef0 = false,
       have_prob_a = false;
  long total_sv = 0;
  auto once = [&](bool& seen, std::string_view key) -> Status {
    if (seen) {
      return fail(std::string(key) + " given twice");
    }
    seen = true;
    return Status::Ok();
  };
  for (;;) {
    const std::string_view key = tok.next();
    if (key.empty()) {
      return fail("no 'SV' line (truncated libsvm model?)");
    }
    if (key == "SV") {
      break;
    }
    const std::string_view val = tok.next();
    if (val.empty() || val == "SV") {
      return fail("no value for " + quoted(key));
    }
    if (key == "svm_type") {
      VQX_RETURN_IF_ERROR(once(have_type, key));
      if (val == "c_svc" || val == "nu_svc" || val == "one_class" || val == "epsilon_svr") {
        return unsupported("svm_type " + std::string(val) + " is not supported (only nu_svr)");
      }
      if (val != "nu_svr") {
        return fail("unknown svm_type " + quoted(val));
      }
    } else if (key == "kernel_type") {
      VQX_RETURN_IF_ERROR(once(have_kernel, key));
      if (val == "linear" || val == "polynomial" || val == "sigmoid" || val == "precomputed") {
        return unsupported("kernel_type " + std::string(val) + " is not supported (only rbf)");
      }
      if (val != "rbf") {
        return fail("unknown kernel_type " + quoted(val));
      }
    } else if (key == "gamma") {
      VQX_RETURN_IF_ERROR(once(have_gamma, key));
      if (!parse_double(val, svm.gamma_) || svm.gamma_ < 0) {
        return fail("gamma " + quoted(val) + " is not a finite number >= 0");
      }
    } else if (key == "degree" || key == "coef0") {
      // Not used by the RBF kernel; checked only for being a number.
      VQX_RETURN_IF_ERROR(once(key == "degree" ? have_degree : have_coef0, key));
      double ignored = 0;
      if (!parse_double(val, ignored)) {
        return fail(std::string(key) + " " + quoted(val) + " is not a number");
      }
    } else if (key == "probA") {
      // Written by libsvm for SVR trained with probability estimates; unused.
      VQX_RETURN_IF_ERROR(once(have_prob_a, key));
      double ignored = 0;
      if (!parse_double(val, ignored)) {
        return fail("probA " + quoted(val) + " is not a number");
      }
    } else if (key == "nr_class") {
      VQX_RETURN_IF_ERROR(once(have_nr_class, key));
      long n = 0;
      if (!parse_long(val, n)) {
        return fail("nr_class " + quoted(val) + " is not an integer");
      }
      if (n != 2) {
        return unsupported("nr_class " + std::string(val) + " (a regression model has 2)");
      }
    } else if (key == "total_sv") {
      VQX_RETURN_IF_ERROR(once(have_total, key));
      if (!parse_long(val, total_sv)) {
        const bool digits = val.find_first_not_of("0123456789") == std::string_view::npos;
        if (!digits) return fail("total_sv " + quoted(val) + " is not an integer");
        total_sv = kMaxSupportVectors + 1;  // digits beyond a long: beyond the limit too
      }
      if (total_sv < 1) {
        return fail("total_sv " + quoted(val) + " must be at least 1");
      }
      if (total_sv > kMaxSupportVectors) {
        return fail("total_sv " + quoted(val) + " exceeds the limit of " +
                    std::to_string(kMaxSupportVectors) + " support vectors");
      }
    } else if (key == "rho") {
      VQX_RETURN_IF_ERROR(once(have_rho, key));
      if (!parse_double(val, svm.rho_)) {
        return fail("rho " + quoted(val) + " is not a finite number");
      }
    } else if (key == "label" || key == "probB" || key == "nr_sv") {
      return unsupported(std::string(key) +
                         " belongs to a classification model; only nu_svr is supported");
    } else {
      return fail("unknown header field " + quoted(key));
    }
  }
  if (!have_type) {
    return fail("missing svm_type");
  }
  if (!have_kernel) {
    return fail("missing kernel_type");
  }
  if (!have_gamma) {
    return fail("missing gamma");
  }
  if (!have_nr_class) {
    return fail("missing nr_class");
  }
  if (!have_total) {
    return fail("missing total_sv");
  }
  if (!have_rho) {
    return fail("missing rho");
  }

  // Support vectors: one line each, "coef index:value index:value ...".
  const auto n_sv = static_cast<std::size_t>(total_sv);
  std::string_view rest = tok.rest();
  // Each support vector takes a line of 2 characters at least: a total_sv
  // beyond that is a lie, caught before allocating for it.
  if (n_sv > rest.size() / 2 + 1) {
    return fail("total_sv " + std::to_string(total_sv) + " but only " +
                std::to_string(rest.size()) + " characters of support vectors (truncated?)");
  }
  svm.coef_.reserve(n_sv);
  svm.sv_.reserve(n_sv * n_features);
  std::size_t row = 0;
  while (!rest.empty()) {
    const std::size_t eol = rest.find('\n');
    const std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    Tokens items(line);
    std::string_view item = items.next();
    if (item.empty()) {
      continue;  // blank line
    }
    const std::string sv_where = "support vector " + std::to_string(row + 1) + ": ";
    if (row == n_sv) {
      return fail("more support vectors than total_sv " + std::to_string(total_sv));
    }
    double coef = 0;
    if (!parse_double(item, coef)) {
      return fail(sv_where + "coefficient " + quoted(item) + " is not a finite number");
    }
    svm.coef_.push_back(coef);
    svm.sv_.resize(svm.sv_.size() + n_features, 0.0);
    double* dense = svm.sv_.data() + row * n_features;
    long last_index = 0;
    while (!(item = items.next()).empty()) {
      const std::size_t colon = item.find(':');
      long index = 0;
      double value = 0;
      if (colon == std::string_view::npos || !parse_long(item.substr(0, colon), index) ||
          !parse_double(item.substr(colon + 1), value)) {
        return fail(sv_where + "malformed entry " + quoted(item) + " (expected index:value)");
      }
      if (index <= last_index) {
        return fail(sv_where + "indices not strictly increasing at " + quoted(item));
      }
      if (static_cast<unsigned long>(index) > n_features) {
        return fail(sv_where + "index " + std::to_string(index) + " exceeds the model's " +
                    std::to_string(n_features) + " features");
      }
      last_index = index;
      dense[index - 1] = value;
    }
    ++row;
  }
  if (row != n_sv) {
    return fail("only " + std::to_string(row) + " of total_sv " + std::to_string(total_sv) +
                " support vectors (truncated?)");
  }
  return svm;
}

double SvmRegressor::predict(std::span<const double> x) const {
  const std::size_t n = n_features_;
  double sum = 0;
  for (std::size_t i = 0; i < coef_.size(); ++i) {
    const double* sv = sv_.data() + i * n;
    double dist2 = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double d = x[k] - sv[k];
      dist2 += d * d;
    }
    sum += coef_[i] * std::exp(-gamma_ * dist2);
  }
  return sum - rho_;
}

}  // namespace vqx

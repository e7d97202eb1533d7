// Loading a VMAF model: libvmaf's JSON model files (single nu-SVR models and
// bootstrap collections) parsed and checked field by field, built-in models
// by version, model files by path; every model feature is resolved to the
// family that provides it (metrics/registry.hpp).
#include "model/model.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "metrics/registry.hpp"
#include "model/builtin_models.hpp"
#include "model/text.hpp"

namespace vqx {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxFileBytes = 256u << 20;  // a model file is < 1 MB

// ---------------------------------------------------------------------------
// Error context: "<origin>: " or "<origin>: model "3": " for a collection.

class Ctx {
 public:
  Ctx(std::string_view origin, std::string member) : origin_(origin), member_(std::move(member)) {}
  [[nodiscard]] std::string where(std::string_view field) const {
    std::string w = origin_ + ": ";
    if (!member_.empty()) {
      w += "model \"" + member_ + "\": ";
    }
    w += field;
    return w;
  }
  [[nodiscard]] Status err(Errc code, std::string_view field, const std::string& what) const {
    if (field.empty()) {
      return Error(code,
                   origin_ + ": " + (member_.empty() ? "" : "model \"" + member_ + "\": ") + what);
    }
    return Error(code, where(field) + ": " + what);
  }
  [[nodiscard]] Status parse(std::string_view field, const std::string& what) const {
    return err(Errc::kParse, field, what);
  }

 private:
  std::string origin_;
  std::string member_;
};

std::string type_of(const Json& v) { return v.type_name(); }

// printf("%g", v) without the locale.
std::string format_g6(double v) {
  std::array<char, 64> buf{};
  auto [p, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general, 6);
  if (ec != std::errc()) {
    return "nan";
  }
  return {buf.data(), p};
}

Status get_number(const Ctx& ctx, std::string_view field, const Json& v, double& out) {
  if (!v.is_number()) {
    return ctx.parse(field, "expected a number, found " + type_of(v));
  }
  out = v.get<double>();
  if (!std::isfinite(out)) {
    return ctx.parse(field, "not a finite number");
  }
  return Status::Ok();
}

Status get_string(const Ctx& ctx, std::string_view field, const Json& v, std::string& out) {
  if (!v.is_string()) {
    return ctx.parse(field, "expected a string, found " + type_of(v));
  }
  out = v.get<std::string>();
  return Status::Ok();
}

Status get_number_array(const Ctx& ctx, std::string_view field, const Json& v,
                        std::vector<double>& out) {
  if (!v.is_array()) {
    return ctx.parse(field, "expected an array of numbers, found " + type_of(v));
  }
  out.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    double d = 0;
    VQX_RETURN_IF_ERROR(
        get_number(ctx, std::string(field) + "[" + std::to_string(i) + "]", v[i], d));
    out.push_back(d);
  }
  return Status::Ok();
}

// A feature_opts_dicts value as libvmaf's dictionary stores it: numbers
// normalised through float and "%g", booleans as "true"/"false".
Expected<std::string> option_text(const Ctx& ctx, const std::string& field, const Json& v) {
  if (v.is_boolean()) {
    return std::string(v.get<bool>() ? "true" : "false");
  }
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_number_unsigned()) {
    return format_g6(static_cast<double>(static_cast<float>(v.get<std::uint64_t>())));
  }
  if (v.is_number_integer()) {
    return format_g6(static_cast<double>(static_cast<float>(v.get<std::int64_t>())));
  }
  if (v.is_number_float()) {
    return format_g6(static_cast<double>(static_cast<float>(v.get<double>())));
  }
  return ctx.parse(field, "expected a number, boolean or string, found " + type_of(v));
}

// Parses JSON text; a duplicate key in any object is an error (libvmaf would
// read both, nlohmann keeps the last).
Expected<Json> parse_json(std::string_view text, std::string_view origin) {
  std::vector<std::set<std::string>> open_objects;
  std::string duplicate;
  auto callback = [&](int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        open_objects.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        if (!open_objects.empty()) {
          open_objects.pop_back();
        }
        break;
      case Json::parse_event_t::key:
        if (!open_objects.empty() && parsed.is_string() &&
            !open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      default:
        break;
    }
    return true;
  };
  Json root;
  try {
    root = Json::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/true,
                       /*ignore_comments=*/false);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, ..." -> drop the tag.
    if (!what.empty() && what.front() == '[') {
      const std::size_t close = what.find("] ");
      if (close != std::string::npos) {
        what.erase(0, close + 2);
      }
    }
    // "...; last read: '<up to the whole rest of the file>'" -> drop; keep one short line.
    if (const std::size_t last = what.find("; last read:"); last != std::string::npos) {
      what.erase(last);
    }
    if (what.size() > 200) {
      what = what.substr(0, 200) + "...";
    }
    for (char& c : what) {
      if (static_cast<unsigned char>(c) < 0x20) {
        c = ' ';
      }
    }
    return Error(Errc::kParse, std::string(origin) + ": invalid JSON: " + what);
  }
  if (!duplicate.empty()) {
    return Error(Errc::kParse,
                 std::string(origin) + ": duplicate key \"" + printable(duplicate) + "\"");
  }
  return root;
}

// ---------------------------------------------------------------------------
// model_dict

Status parse_transform(const Ctx& ctx, const Json& st, const ModelConfig& config,
                       detail::ScoreTransform& t) {
  const std::string field = "model_dict.score_transform";
  if (!st.is_object()) {
    return ctx.parse(field, "expected an object, found " + type_of(st));
  }
  t = {};
  for (const auto& [key, v] : st.items()) {
    const std::string f = field + "." + printable(key, 40);
    if (key == "enabled") {
      if (!v.is_boolean()) {
        return ctx.parse(f, "expected true or false, found " + type_of(v));
      }
      t.enabled = v.get<bool>();
    } else if (key == "p0" || key == "p1" || key == "p2") {
      bool& has = key == "p0" ? t.has_p0 : key == "p1" ? t.has_p1 : t.has_p2;
      double& p = key == "p0" ? t.p0 : key == "p1" ? t.p1 : t.p2;
      has = !v.is_null();
      if (has) {
        VQX_RETURN_IF_ERROR(get_number(ctx, f, v, p));
      }
    } else if (key == "knots") {
      t.knots.clear();
      if (v.is_null()) {
        continue;
      }
      if (!v.is_array()) {
        return ctx.parse(f, "expected an array of [x, y] pairs or null, found " + type_of(v));
      }
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string fi = f + "[" + std::to_string(i) + "]";
        if (!v[i].is_array() || v[i].size() != 2) {
          return ctx.parse(fi, "expected an [x, y] pair");
        }
        double x = 0, y = 0;
        VQX_RETURN_IF_ERROR(get_number(ctx, fi + "[0]", v[i][0], x));
        VQX_RETURN_IF_ERROR(get_number(ctx, fi + "[1]", v[i][1], y));
        if (!t.knots.empty() && !(t.knots.back().first < x && t.knots.back().second <= y)) {
          return ctx.parse(fi, "knots must have increasing x and non-decreasing y");
        }
        t.knots.emplace_back(x, y);
      }
      if (t.knots.size() == 1) {
        return ctx.parse(f, "a piecewise-linear mapping needs at least 2 knots");
      }
    } else if (key == "out_lte_in" || key == "out_gte_in") {
      bool on = false;
      if (v.is_boolean()) {
        on = v.get<bool>();
      } else if (v.is_string() &&
                 (v.get<std::string>() == "true" || v.get<std::string>() == "false")) {
        on = v.get<std::string>() == "true";
      } else {
        return ctx.parse(f, "expected \"true\" or \"false\"");
      }
      (key == "out_lte_in" ? t.out_lte_in : t.out_gte_in) = on;
    }
    // Other keys are ignored, as libvmaf does.
  }
  if (config.enable_transform) {
    t.enabled = true;
  }
  return Status::Ok();
}

Expected<detail::SvmModel> parse_member(const Ctx& ctx, const Json& top, const ModelConfig& config,
                                        std::string name) {
  if (!top.is_object()) {
    return ctx.parse("", "expected an object, found " + type_of(top));
  }
  const auto md_it = top.find("model_dict");
  if (md_it == top.end()) {
    return ctx.parse("model_dict", "missing");
  }
  const Json& md = *md_it;
  if (!md.is_object()) {
    return ctx.parse("model_dict", "expected an object, found " + type_of(md));
  }

  detail::SvmModel m;
  m.name = std::move(name);
  auto require = [&](const char* key) -> Expected<const Json*> {
    const auto it = md.find(key);
    if (it == md.end()) {
      return ctx.parse(std::string("model_dict.") + key, "missing");
    }
    return &*it;
  };

  // model_type
  {
    VQX_ASSIGN_OR_RETURN(const Json* v, require("model_type"));
    std::string type;
    VQX_RETURN_IF_ERROR(get_string(ctx, "model_dict.model_type", *v, type));
    if (type == "LIBSVMNUSVR") {
      m.type = detail::ModelType::kSvmNuSvr;
    } else if (type == "BOOTSTRAP_LIBSVMNUSVR") {
      m.type = detail::ModelType::kBootstrapSvmNuSvr;
    } else if (type == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") {
      m.type = detail::ModelType::kResidueBootstrapSvmNuSvr;
    } else {
      return ctx.err(Errc::kUnsupported, "model_dict.model_type",
                     "unknown model type \"" + printable(type) + "\"");
    }
  }

  // feature_names
  {
    VQX_ASSIGN_OR_RETURN(const Json* v, require("feature_names"));
    const std::string field = "model_dict.feature_names";
    if (!v->is_array()) {
      return ctx.parse(field, "expected an array of strings, found " + type_of(*v));
    }
    if (v->empty()) {
      return ctx.parse(field, "empty");
    }
    if (v->size() > detail::kMaxFeatures) {
      return ctx.err(Errc::kLimit, field,
                     std::to_string(v->size()) + " features (libvmaf allows at most " +
                         std::to_string(detail::kMaxFeatures) + ")");
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
      const std::string fi = field + "[" + std::to_string(i) + "]";
      ModelFeature f;
      VQX_RETURN_IF_ERROR(get_string(ctx, fi, (*v)[i], f.model_name));
      // The family whose definition provides the name (libvmaf's names).
      const ModelFeatureRef known = find_model_feature(f.model_name);
      if (known.family == nullptr) {
        return ctx.err(Errc::kUnsupported, fi,
                       "unknown feature \"" + printable(f.model_name) + "\"");
      }
      f.family = known.family;
      f.extractor = known.family->name;
      f.base = known.base;
      m.features.push_back(std::move(f));
    }
  }
  const std::size_t n = m.features.size();

  // norm_type, slopes, intercepts
  {
    VQX_ASSIGN_OR_RETURN(const Json* v, require("norm_type"));
    std::string norm;
    VQX_RETURN_IF_ERROR(get_string(ctx, "model_dict.norm_type", *v, norm));
    if (norm == "linear_rescale") {
      m.linear_rescale = true;
    } else if (norm == "none") {
      m.linear_rescale = false;
    } else {
      return ctx.err(Errc::kUnsupported, "model_dict.norm_type",
                     "unknown norm_type \"" + printable(norm) + "\"");
    }
    for (const char* key : {"slopes", "intercepts"}) {
      const std::string field = std::string("model_dict.") + key;
      const auto it = md.find(key);
      if (it == md.end()) {
        if (m.linear_rescale) {
          return ctx.parse(field, "missing (needed by norm_type linear_rescale)");
        }
        continue;
      }
      std::vector<double> values;
      VQX_RETURN_IF_ERROR(get_number_array(ctx, field, *it, values));
      if (values.size() != n + 1) {
        return ctx.parse(field, std::to_string(values.size()) + " values for " + std::to_string(n) +
                                    " features (expected " + std::to_string(n + 1) +
                                    ": the model's, then one per feature)");
      }
      if (std::string_view(key) == "slopes") {
        if (m.linear_rescale) {
          for (std::size_t i = 0; i < values.size(); ++i) {
            if (values[i] == 0) {
              return ctx.parse(field + "[" + std::to_string(i) + "]", "a slope of 0");
            }
          }
        }
        m.slope = values[0];
        m.feature_slope.assign(values.begin() + 1, values.end());
      } else {
        m.intercept = values[0];
        m.feature_intercept.assign(values.begin() + 1, values.end());
      }
    }
    if (!m.linear_rescale) {
      m.slope = 1;
      m.intercept = 0;
      m.feature_slope.assign(n, 1.0);
      m.feature_intercept.assign(n, 0.0);
    }
  }

  // feature_opts_dicts (optional)
  if (const auto it = md.find("feature_opts_dicts"); it != md.end()) {
    const std::string field = "model_dict.feature_opts_dicts";
    if (!it->is_array()) {
      return ctx.parse(field, "expected an array of objects, found " + type_of(*it));
    }
    if (it->size() != n) {
      return ctx.parse(
          field, std::to_string(it->size()) + " entries for " + std::to_string(n) + " features");
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Json& d = (*it)[i];
      const std::string fi = field + "[" + std::to_string(i) + "]";
      if (!d.is_object()) {
        return ctx.parse(fi, "expected an object, found " + type_of(d));
      }
      for (const auto& [key, v] : d.items()) {
        VQX_ASSIGN_OR_RETURN(std::string text, option_text(ctx, fi + "." + printable(key, 40), v));
        m.features[i].options[key] = std::move(text);
      }
    }
  }

  // model (the libsvm text)
  {
    VQX_ASSIGN_OR_RETURN(const Json* v, require("model"));
    std::string text;
    VQX_RETURN_IF_ERROR(get_string(ctx, "model_dict.model", *v, text));
    VQX_ASSIGN_OR_RETURN(m.svm, SvmRegressor::parse(text, n, ctx.where("model_dict.model")));
  }

  // score_clip (optional)
  if (const auto it = md.find("score_clip"); it != md.end()) {
    std::vector<double> clip;
    VQX_RETURN_IF_ERROR(get_number_array(ctx, "model_dict.score_clip", *it, clip));
    if (clip.size() != 2) {
      return ctx.parse("model_dict.score_clip", "expected [min, max]");
    }
    if (!(clip[0] <= clip[1])) {
      return ctx.parse("model_dict.score_clip", "min > max");
    }
    m.clip = !config.disable_clip;
    m.clip_min = clip[0];
    m.clip_max = clip[1];
  }

  // score_transform (optional)
  if (const auto it = md.find("score_transform"); it != md.end()) {
    VQX_RETURN_IF_ERROR(parse_transform(ctx, *it, config, m.transform));
  }

  // chroma_correction_parameter (optional): corrects a speed_chroma feature
  // of exactly 0 from the adm3 feature.
  if (const auto it = md.find("chroma_correction_parameter"); it != md.end()) {
    const std::string field = "model_dict.chroma_correction_parameter";
    VQX_RETURN_IF_ERROR(get_number(ctx, field, *it, m.chroma_parameter));
    if (m.chroma_parameter == 0) {
      // libvmaf returns from prediction without a score in this case.
      return ctx.err(Errc::kUnsupported, field,
                     "0 is not supported (libvmaf computes no score with it)");
    }
    m.chroma_correction = true;
    std::size_t n_guiding = 0, n_guided = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (m.features[i].model_name.find("adm3") != std::string::npos) {
        m.chroma_guiding = i;
        ++n_guiding;
      }
      if (m.features[i].model_name.find("speed_chroma") != std::string::npos) {
        m.chroma_guided = i;
        ++n_guided;
      }
    }
    if (n_guiding != 1 || n_guided != 1) {
      return ctx.parse(
          field, "needs exactly one \"adm3\" feature and one \"speed_chroma\" feature (found " +
                     std::to_string(n_guiding) + " and " + std::to_string(n_guided) + ")");
    }
  }
  return m;
}

// A name every writer can carry as is: an XML attribute name, a CSV column.
bool is_output_name(std::string_view name) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
  });
}

bool is_bootstrap_type(detail::ModelType t) {
  return t == detail::ModelType::kBootstrapSvmNuSvr ||
         t == detail::ModelType::kResidueBootstrapSvmNuSvr;
}

std::string member_name(const std::string& base, std::size_t index) {
  std::array<char, 32> num{};
  std::snprintf(num.data(), num.size(), "_%04zu", index);
  return base + num.data();
}

}  // namespace

Expected<Model> Model::from_json(std::string_view text, std::string_view origin,
                                 const ModelConfig& config) {
  const std::string org = printable(origin, 300);
  if (config.name.empty()) {
    return Error(Errc::kInvalidArgument, org + ": empty model name");
  }
  if (!is_output_name(config.name)) {
    // Every output format must be able to carry it: in XML the names are
    // attribute names, which cannot be escaped.
    return Error(Errc::kInvalidArgument,
                 org + ": model name \"" + printable(config.name) +
                     "\" cannot name an output: use letters, digits, '_', '.' and '-', "
                     "starting with a letter or '_'");
  }
  VQX_ASSIGN_OR_RETURN(Json root, parse_json(text, org));
  if (!root.is_object()) {
    return Error(Errc::kParse,
                 org + ": expected a JSON object at the top level, found " + type_of(root));
  }

  Model model;
  model.name_ = config.name;
  model.origin_ = org;
  if (root.contains("model_dict")) {
    VQX_ASSIGN_OR_RETURN(detail::SvmModel m, parse_member(Ctx(org, ""), root, config, config.name));
    model.members_.push_back(std::move(m));
  } else if (root.contains("0")) {
    // A bootstrap collection: "0" is the model itself, "1".."N" the bootstrap models.
    const std::size_t count = root.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (!root.contains(std::to_string(i))) {
        return Error(Errc::kParse, org + ": a model collection's keys must be \"0\"..\"" +
                                       std::to_string(count - 1) + "\"; \"" + std::to_string(i) +
                                       "\" is missing");
      }
    }
    if (count < 2) {
      return Error(Errc::kParse,
                   org + ": a model collection needs models \"0\" and \"1\" at least");
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::string key = std::to_string(i);
      const std::string name = i == 0 ? config.name : member_name(config.name, i);
      VQX_ASSIGN_OR_RETURN(detail::SvmModel m,
                           parse_member(Ctx(org, key), root[key], config, name));
      model.members_.push_back(std::move(m));
    }
    const detail::ModelType type = model.members_[1].type;
    if (!is_bootstrap_type(type)) {
      return Error(Errc::kUnsupported, org +
                                           ": model \"1\": a model collection must be of type "
                                           "BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR");
    }
    for (std::size_t i = 2; i < count; ++i) {
      if (model.members_[i].type != type) {
        return Error(Errc::kParse, org + ": model \"" + std::to_string(i) +
                                       "\": model_type differs from model \"1\"");
      }
    }
  } else {
    return Error(Errc::kParse, org +
                                   ": not a VMAF model: no \"model_dict\" (a model) and no \"0\" "
                                   "(a model collection) at the top level");
  }

  // Per-feature option overloads, applied to every model of a collection.
  for (const FeatureOverload& o : config.overloads) {
    bool matched = false;
    std::set<std::string> families;
    for (detail::SvmModel& m : model.members_) {
      for (ModelFeature& f : m.features) {
        families.insert(f.extractor);
        if (f.extractor != o.family) {
          continue;
        }
        f.options[o.option] = o.value;
        matched = true;
      }
    }
    if (!matched) {
      std::string list;
      for (const std::string& f : families) {
        list += (list.empty() ? "" : ", ") + f;
      }
      return Error(Errc::kInvalidArgument,
                   org + ": option " + printable(o.family + "." + o.option) +
                       ": the model has no feature from extractor \"" + printable(o.family) +
                       "\" (its extractors: " + list + ")");
    }
  }

  // The union of the members' features.
  for (detail::SvmModel& m : model.members_) {
    for (const ModelFeature& f : m.features) {
      std::size_t k = 0;
      while (k < model.features_.size() && !(model.features_[k].model_name == f.model_name &&
                                             model.features_[k].options == f.options)) {
        ++k;
      }
      if (k == model.features_.size()) {
        model.features_.push_back(f);
      }
      m.input.push_back(k);
    }
  }

  for (const detail::SvmModel& m : model.members_) {
    model.output_names_.push_back(m.name);
  }
  if (model.is_bootstrap()) {
    for (const char* suffix : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"}) {
      model.output_names_.push_back(config.name + suffix);
    }
  }
  return model;
}

Expected<Model> Model::from_file(const std::string& path, const ModelConfig& config) {
  const std::string where = printable(path, 300);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Error(Errc::kIo, where + ": is a directory, not a model file");
  }
  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"),
                                                           &std::fclose);
  if (!in) {
    return Error(Errc::kIo, where + ": cannot open model file: " + std::strerror(errno));
  }
  // Read at most one byte past the limit: a path such as /dev/zero or an
  // endless pipe must not grow memory without bound.
  std::string text;
  std::array<char, 1 << 16> chunk{};
  while (text.size() <= kMaxFileBytes) {
    // Past 1 MiB (larger than any real model) room for the limit, once: no
    // doubling copies on the way to it.
    if (text.size() > (1U << 20) && text.capacity() < kMaxFileBytes + chunk.size()) {
      text.reserve(kMaxFileBytes + chunk.size());
    }
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), in.get());
    text.append(chunk.data(), got);
    if (got < chunk.size()) break;
  }
  if (std::ferror(in.get()) != 0) {
    return Error(Errc::kIo, where + ": read error: " + std::strerror(errno));
  }
  if (text.size() > kMaxFileBytes) {
    return Error(Errc::kLimit, where + ": model file larger than 256 MiB");
  }
  return from_json(text, path, config);
}

Expected<Model> Model::builtin(std::string_view version, const ModelConfig& config) {
  for (const detail::BuiltinModelFile& f : detail::builtin_model_files()) {
    if (f.version != version) {
      continue;
    }
    const std::string_view text(reinterpret_cast<const char*>(f.data), f.size);
    return from_json(text, "built-in model " + std::string(f.version), config);
  }
  std::string list;
  for (const std::string& v : builtin_versions()) {
    list += (list.empty() ? "" : ", ") + v;
  }
  return Error(Errc::kInvalidArgument,
               "no built-in model \"" + printable(version) + "\" (built in: " + list + ")");
}

std::vector<std::string> Model::builtin_versions() {
  std::vector<std::string> out;
  for (const detail::BuiltinModelFile& f : detail::builtin_model_files()) {
    out.emplace_back(f.version);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Expected<Model> Model::load(const ModelSpec& spec) {
  if (!spec.version.empty() && !spec.path.empty()) {
    return Error(Errc::kInvalidArgument, "model: give version= or path=, not both");
  }
  if (!spec.version.empty()) {
    return builtin(spec.version, spec.config);
  }
  if (!spec.path.empty()) {
    return from_file(spec.path, spec.config);
  }
  return Error(Errc::kInvalidArgument, "model: needs version= or path=");
}

}  // namespace vqx

#include "output/html/run_file.hpp"

#include <cerrno>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace vqx::html {

namespace {

using Json = nlohmann::ordered_json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The library's own message for a parse error, on one short line.
std::string one_line(std::string what) {
  // "[json.exception.parse_error.101] parse error at ..." -> "parse error at ..."
  if (!what.empty() && what.front() == '[') {
    if (const std::size_t close = what.find("] "); close != std::string::npos) {
      what.erase(0, close + 2);
    }
  }
  if (const std::size_t last = what.find("; last read:"); last != std::string::npos) {
    what.erase(last);
  }
  if (what.size() > 200) what = what.substr(0, 200) + "...";
  for (char& c : what) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return what;
}

// A metric value: a number, or null. The writers write every non-finite
// value as null (NaN, +inf and -inf alike), so a null is an unknown value:
// read as NaN, never drawn or pooled, shown as "n/a".
bool read_value(const Json& v, double& out) {
  if (v.is_null()) {
    out = kNaN;
    return true;
  }
  if (!v.is_number()) return false;
  out = v.get<double>();
  return true;
}

std::string string_or_empty(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  Expected<RunFile> read() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
      return Error(Errc::kIo, path_ + ": cannot open: " +
                                  std::error_code(errno, std::generic_category()).message());
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return Error(Errc::kIo, path_ + ": cannot read the file");
    Json root;
    try {
      root = Json::parse(text);
    } catch (const Json::exception& e) {
      return Error(Errc::kParse, path_ + ": not JSON: " + one_line(e.what()));
    }
    if (!root.is_object() || !root.contains("frames") || !root["frames"].is_array()) {
      return fail("no \"frames\" array (not a JSON output of vqx or vmaf)");
    }
    if (root["frames"].empty()) return fail("no frames");
    RunFile run;
    run.path = path_;
    Report& r = run.report;
    r.version = string_or_empty(root, "version");
    r.fps = root.contains("fps") && root["fps"].is_number() ? root["fps"].get<double>() : kNaN;
    VQX_RETURN_IF_ERROR(read_frames(root["frames"], r));
    VQX_RETURN_IF_ERROR(read_pooled(root, r));
    read_backend(root, r);
    read_settings(root, r);
    return run;
  }

 private:
  Status fail(const std::string& what) const { return Error(Errc::kParse, path_ + ": " + what); }

  Status read_frames(const Json& frames, Report& r) {
    std::unordered_map<std::string, std::size_t> index;  // metric name -> r.metrics
    for (std::size_t f = 0; f < frames.size(); ++f) {
      const Json& frame = frames[f];
      const std::string where = "frames[" + std::to_string(f) + "]";
      if (!frame.is_object() || !frame.contains("frameNum") ||
          !frame["frameNum"].is_number_unsigned() || !frame.contains("metrics") ||
          !frame["metrics"].is_object()) {
        return fail(where + ": expected an object with \"frameNum\" and \"metrics\"");
      }
      const auto number = frame["frameNum"].get<unsigned long long>();
      if (number > std::numeric_limits<unsigned>::max() ||
          (!r.frame_numbers.empty() && number <= r.frame_numbers.back())) {
        return fail(where + ": frameNum " + std::to_string(number) +
                    " does not follow the previous frame's");
      }
      r.frame_numbers.push_back(static_cast<unsigned>(number));
      for (const auto& [name, v] : frame["metrics"].items()) {
        auto [it, added] = index.try_emplace(name, r.metrics.size());
        if (added) {
          // A metric first seen here was absent on the earlier frames.
          r.metrics.push_back({name, std::vector<double>(f, kNaN)});
        }
        double value = 0;
        if (!read_value(v, value)) {
          return fail(where + ": metric \"" + name + "\" is not a number");
        }
        r.metrics[it->second].values.push_back(value);
      }
      for (ReportMetric& m : r.metrics) {
        if (m.values.size() == f) m.values.push_back(kNaN);  // absent on this frame
      }
    }
    return Status::Ok();
  }

  Status read_pooled(const Json& root, Report& r) {
    if (root.contains("pooled_metrics") && root["pooled_metrics"].is_object()) {
      for (const auto& [name, p] : root["pooled_metrics"].items()) {
        if (!p.is_object() || p.empty()) {
          r.pooled.push_back({name, std::nullopt});
          continue;
        }
        ReportPooled stats;
        const std::pair<const char*, double*> fields[] = {{"min", &stats.min},
                                                          {"max", &stats.max},
                                                          {"mean", &stats.mean},
                                                          {"harmonic_mean", &stats.harmonic_mean}};
        for (const auto& [key, out] : fields) {
          if (!p.contains(key) || !read_value(p[key], *out)) {
            return fail("pooled_metrics: \"" + name + "\": \"" + key + "\" is not a number");
          }
        }
        r.pooled.push_back({name, stats});
      }
    }
    if (root.contains("aggregate_metrics") && root["aggregate_metrics"].is_object()) {
      for (const auto& [name, v] : root["aggregate_metrics"].items()) {
        double value = 0;
        if (read_value(v, value)) r.aggregate.emplace_back(name, value);
      }
    }
    return Status::Ok();
  }

  // VQX's record of what computed each metric (a GPU run's "backend").
  static void read_backend(const Json& root, Report& r) {
    const auto b = root.find("backend");
    if (b == root.end() || !b->is_object()) return;
    r.device = string_or_empty(*b, "device");
    if (b->contains("metrics") && (*b)["metrics"].is_object()) {
      for (const auto& [name, where] : (*b)["metrics"].items()) {
        if (where.is_string()) r.backends.emplace_back(name, where.get<std::string>());
      }
    }
  }

  // VQX's "settings"; a file without them (the reference's) leaves them
  // unset. Fields of the wrong type are left empty: they are shown, not used.
  static void read_settings(const Json& root, Report& r) {
    const auto s = root.find("settings");
    if (s == root.end() || !s->is_object()) return;
    ReportSettings settings;
    settings.program = string_or_empty(*s, "program");
    settings.version = string_or_empty(*s, "version");
    settings.backend = string_or_empty(*s, "backend");
    settings.device = string_or_empty(*s, "device");
    const auto count = [&s](const char* key, unsigned fallback) {
      const auto it = s->find(key);
      return it != s->end() && it->is_number_unsigned() ? it->get<unsigned>() : fallback;
    };
    settings.subsample = count("subsample", 1);
    if (s->contains("models") && (*s)["models"].is_array()) {
      for (const Json& m : (*s)["models"]) {
        if (m.is_object()) {
          settings.models.emplace_back(string_or_empty(m, "name"), string_or_empty(m, "origin"));
        }
      }
    }
    if (s->contains("features") && (*s)["features"].is_array()) {
      for (const Json& f : (*s)["features"]) {
        if (f.is_string()) settings.features.push_back(f.get<std::string>());
      }
    }
    r.settings = std::move(settings);
  }

  const std::string& path_;
};

}  // namespace

Expected<RunFile> read_run_file(const std::string& path) { return Reader(path).read(); }

}  // namespace vqx::html

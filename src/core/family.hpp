// A metric family as data. Each family (src/metrics/<family>/family.cpp)
// is one ExtractorFamily: its name, its options (with defaults and bounds),
// its outputs in slot order, the libvmaf names it provides to models,
// whether it is temporal, and its own code, which reads its typed
// parameters from the parsed options and returns the CPU extractor and GPU
// twin factories. make_spec() is the one builder that turns user options
// into an ExtractorSpec for every family.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>

#include "core/extractor.hpp"
#include "core/options.hpp"
#include "vqx/status.hpp"

namespace vqx {

// One output, in slot order.
struct OutputDef {
  const char* base;  // without the option suffix, e.g. "integer_adm2"
  // Bool options that must all be true for the output to exist; nullptr
  // entries are ignored, so {} means always.
  std::array<const char*, 2> when{};
  // Whether the option suffix is appended (libvmaf writes a few debug
  // outputs, e.g. float_adm's "adm" and cambi's "cambi_source", bare).
  bool suffixed = true;
  // Whether a model may name it by its base name (libvmaf's extractor lists
  // it among its provided features under that name). The names models use
  // that differ from the base are the family's `provides`.
  bool provided = false;
};

// A model refers to a feature by libvmaf's internal name, e.g.
// "VMAF_integer_feature_adm2_score"; this maps it to an output base name.
struct FeatureAlias {
  const char* model_name;
  const char* base;
};

// When the family's extractor is temporal (sees every frame, in order).
struct TemporalRule {
  enum Kind { kNever, kAlways, kWhenSet };
  Kind kind = kNever;
  // kWhenSet: the option that makes it temporal: a bool that is true, or a
  // string that is not empty.
  const char* option = nullptr;
};

// When the family's extractor reads the chroma planes. The context scores a
// 4:0:0 picture as 4:2:0 with neutral chroma when any registered extractor
// does (engine/neutral_chroma.hpp); families that read only the luma, or
// handle 4:0:0 themselves exactly as that picture, say kNever.
struct ChromaRule {
  enum Kind { kNever, kAlways, kWhenSet };
  Kind kind = kNever;
  // kWhenSet: the bool option that makes it read chroma, when true.
  const char* option = nullptr;
};

// What a family's code makes of its parsed options.
struct Factories {
  // A CPU instance, in the surroundings its context gives it.
  std::function<std::unique_ptr<Extractor>(const ExtractorEnv&)> cpu;
  // Empty where the family has no GPU twin or the build has no backend. The
  // twin is made in the same surroundings as a CPU instance (a twin that
  // writes files, such as CAMBI's heatmaps, creates them in its set).
  std::function<std::unique_ptr<gpu::Twin>(const ExtractorEnv&)> gpu;
};

struct ExtractorFamily {
  const char* name = nullptr;  // as given to --feature, e.g. "adm"
  std::span<const OptionDef> options = {};
  std::span<const OutputDef> outputs = {};
  // Whole-video values (libvmaf's aggregate metrics), written at flush().
  std::span<const OutputDef> aggregates = {};
  // Names models use for its outputs, where they are not (only) an output
  // flagged `provided`: libvmaf's aliases (src/feature/alias.c) and
  // provided features. Model feature resolution reads both, through the
  // registry (metrics/registry.hpp).
  std::span<const FeatureAlias> provides = {};
  TemporalRule temporal = {};
  // For a temporal family: the frames before and after a frame that its
  // values depend on, given the options (derived from its definition; the
  // segment tests in python/tests/test_dask.py hold it to it). Null for a
  // temporal family whose values depend on the whole video (aggregates,
  // files): such a run cannot be split into segments.
  TemporalReach (*reach)(const OptionSet& options) = nullptr;
  ChromaRule chroma = {};
  // True when every output, whatever the options, depends on the luma
  // planes alone: a context whose families all say so lets its readers
  // leave the chroma planes unread (Context::planes_read). The family
  // test holds each such family to it (other chroma, the same values).
  bool luma_only = false;
  // The family's own code: typed parameters from the parsed options (and
  // refusal of what the bounds cannot express), then the factories.
  Expected<Factories> (*bind)(const OptionSet& options) = nullptr;
  // True for libvmaf's extractors (their names are held against libvmaf's
  // table by the tests); false for VQX's own (ssimulacra2).
  bool from_libvmaf = true;

  // Parses `options` (an unknown key or a bad value is an error naming the
  // family and key) and builds the spec: key, temporal, outputs with their
  // option suffix, factories.
  [[nodiscard]] Expected<ExtractorSpec> make_spec(const OptionMap& options) const;
};

// A family without options reads this.
struct NoParams {};
inline Expected<NoParams> read_no_params(const OptionSet& /*options*/) { return NoParams{}; }

// The usual ExtractorFamily::bind: `Read` turns the options into the
// family's Params; the CPU extractor is a `Cpu` constructed from them and
// the context's ExtractorEnv when it takes one (a family that writes
// files), else from them alone (or default-constructed when Params is
// NoParams); `MakeTwin`, a function of the Params and the ExtractorEnv, of
// the Params alone, or of nothing, makes the GPU twin. Name it with
// VQX_TWIN() (core/twin_ref.hpp), which is nullptr in builds without a GPU
// backend (no twin).
template <typename Params, Expected<Params> (*Read)(const OptionSet&), typename Cpu,
          auto MakeTwin = nullptr>
Expected<Factories> bind_family(const OptionSet& options) {
  VQX_ASSIGN_OR_RETURN(Params p, Read(options));
  Factories f;
  f.cpu = [p]([[maybe_unused]] const ExtractorEnv& env) -> std::unique_ptr<Extractor> {
    if constexpr (std::is_constructible_v<Cpu, const Params&, const ExtractorEnv&>) {
      return std::make_unique<Cpu>(p, env);
    } else if constexpr (std::is_constructible_v<Cpu, const Params&>) {
      return std::make_unique<Cpu>(p);
    } else {
      return std::make_unique<Cpu>();
    }
  };
  if constexpr (!std::is_null_pointer_v<decltype(MakeTwin)>) {
    f.gpu = [p]([[maybe_unused]] const ExtractorEnv& env) -> std::unique_ptr<gpu::Twin> {
      if constexpr (std::is_invocable_v<decltype(MakeTwin), const Params&, const ExtractorEnv&>) {
        return MakeTwin(p, env);
      } else if constexpr (std::is_invocable_v<decltype(MakeTwin), const Params&>) {
        return MakeTwin(p);
      } else {
        return MakeTwin();
      }
    };
  }
  return f;
}

}  // namespace vqx

// The feature extractor interface. A family (core/family.hpp) turns user
// options into an ExtractorSpec; the context then makes instances from the
// spec, one per worker thread for plain extractors and exactly one for
// temporal extractors (which see every frame, in index order), giving each
// its ExtractorEnv. A temporal extractor may split its work into a stage
// that runs per frame in parallel and a cheap ordered one (TemporalStages).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "vqx/output_files.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/temporal_reach.hpp"

namespace vqx {

namespace gpu {
class Twin;  // gpu/twin.hpp
}

// Where an extractor instance writes its per-frame values. `slot` indexes
// the spec's outputs. Thread-safe: instances on different threads share it.
class FeatureWriter {
 public:
  virtual ~FeatureWriter() = default;
  virtual void write(std::size_t slot, unsigned frame, double value) = 0;
  // A whole-video value (libvmaf's "aggregate_metrics", e.g. apsnr_y);
  // `slot` indexes the spec's aggregates. Written at flush() by temporal
  // extractors. Writers that only gather per-frame values may ignore it.
  virtual void write_aggregate(std::size_t /*slot*/, double /*value*/) {}
};

// What the context that makes an instance gives it: the instance's
// surroundings, which belong to that context alone (no global state).
struct ExtractorEnv {
  // The set the instance creates its files in (CAMBI's heatmaps): the
  // context's (ContextSettings::output_files). Never null.
  std::shared_ptr<OutputFiles> output_files;
};

class TemporalStages;

class Extractor {
 public:
  virtual ~Extractor() = default;
  // Called once, before any frame, with the format of every later picture.
  // Allocate all buffers here: extract() must not allocate.
  virtual Status init(const PictureFormat& fmt) = 0;
  // Computes the features of one frame pair. For plain extractors frames may
  // arrive in any order; for temporal ones they arrive in index order.
  virtual Status extract(const Picture& ref, const Picture& dist, unsigned index,
                         FeatureWriter& out) = 0;
  // Temporal extractors write what they held back for the last frame.
  virtual Status flush(FeatureWriter& /*out*/) { return Status::Ok(); }
  // A temporal extractor whose work is split in two stages (below); null:
  // the scheduler runs its extract() whole, one frame at a time in order.
  virtual TemporalStages* stages() { return nullptr; }
};

// The pictures a temporal extractor's per-frame stage reads: those of frame
// `index` and of the frames just before it.
struct FrameWindow {
  static constexpr unsigned kMaxHistory = 2;
  unsigned index = 0;
  // [0]: frame `index`; [k]: frame index - k, for every k <= history()
  // with k <= index; null where k > index.
  std::array<const Picture*, kMaxHistory + 1> ref{};
  std::array<const Picture*, kMaxHistory + 1> dist{};
};

// A temporal extractor in two stages, so that its frames are not computed
// one at a time (docs/architecture.md, "Temporal families in two stages"):
//  * prepare(), the per-frame stage: the costly part, a function of the
//    pictures of the frame and of the history() frames before it (motion:
//    the SAD of two frames' luma). It runs for every frame (sampled or
//    not), in any order, several at once on different threads, each call
//    with a `lane` of scratch that no other running call has, and leaves
//    its result in the frame's ring entry.
//  * finish(), the ordered stage: cheap, strictly in index order 0, 1,
//    2, ... one call at a time, each after its frame's prepare() has
//    returned Ok: reads the frame's entry (and those of the kept_entries()
//    frames before it), keeps what the next frames need (motion2's
//    minimum of neighbours) and writes the values.
// The ring has `entries` entries (reserve()); frame i's is i % entries, and
// the scheduler prepares frame i only once finish(i - entries +
// kept_entries()) has returned, so entries are never in use twice. No
// frame is prepared or finished twice; after an error no frame is finished.
// prepare() may touch only its lane, the frame's entry and what init() and
// reserve() set; finish() only the entries and the ordered state.
// Extractors with stages still implement extract() (a frame computed
// whole, in order, on the caller's thread: core/sequential_stages.hpp) for
// use outside a context; once reserve() has been called, extract() is not.
class TemporalStages {
 public:
  virtual ~TemporalStages() = default;
  // How many earlier frames' pictures prepare() reads (at most
  // FrameWindow::kMaxHistory). Fixed from init() on.
  [[nodiscard]] virtual unsigned history() const = 0;
  // How many earlier frames' entries finish() reads besides its own.
  [[nodiscard]] virtual unsigned kept_entries() const { return 0; }
  // After init(), before the first prepare(): allocates the ring and the
  // lanes' scratch (prepare() and finish() allocate nothing), and drops
  // what extract() alone needed. entries > kept_entries(), lanes >= 1.
  virtual Status reserve(unsigned entries, unsigned lanes) = 0;
  virtual Status prepare(const FrameWindow& frames, unsigned lane) = 0;
  virtual Status finish(unsigned index, FeatureWriter& out) = 0;
};

// How closely the pictures given to extract() must match the format given
// to init(): in everything, or in the luma's size and bit depth (families
// that read only the luma take any chroma format).
enum class FormatMatch { kExact, kLuma };

// The checks at the top of every extract(): the instance was initialised
// (kInternal otherwise), and `ref` and `dist` are in the format init() was
// given (kMismatch otherwise). Messages name `family` and the frame.
Status check_extract_input(const char* family, bool initialised, const PictureFormat& fmt,
                           FormatMatch match, const Picture& ref, const Picture& dist,
                           unsigned index);

// Temporal extractors: frame `index` is the one expected next (kInternal
// otherwise).
Status check_frame_order(const char* family, unsigned index, unsigned expected);

struct ExtractorOutput {
  std::string base;  // the name without option suffix, e.g. "integer_adm2"
  std::string name;  // what is written to the output, e.g. "integer_adm2_egl_1"
};

struct ExtractorSpec {
  std::string family;  // registry name, e.g. "adm"
  std::string key;     // family + canonical options: equal keys compute the same thing
  // The request as a user writes it, for messages: the family and its
  // options that differ from the defaults ("psnr=reduced_hbd_peak=true").
  std::string request;
  OptionSet options;  // the parsed options the spec was built from
  bool temporal = false;
  // The frames before and after a frame that its values depend on (0, 0
  // when not temporal); nullopt: the whole video (ExtractorFamily::reach).
  std::optional<TemporalReach> reach;
  bool reads_chroma = false;                // see ChromaRule (core/family.hpp)
  bool luma_only = false;                   // see ExtractorFamily::luma_only
  std::vector<ExtractorOutput> outputs;     // slot order
  std::vector<ExtractorOutput> aggregates;  // whole-video values, slot order
  // A CPU instance, in the surroundings the context gives it.
  std::function<std::unique_ptr<Extractor>(const ExtractorEnv&)> make_cpu;
  // The GPU twin, in builds with a GPU backend, for families that have one,
  // in the surroundings the context gives it (as make_cpu's).
  std::function<std::unique_ptr<gpu::Twin>(const ExtractorEnv&)> make_twin;

  // A CPU instance outside any context (tests, tools): its files are
  // created in a set of its own, which renames each as soon as it is
  // complete.
  [[nodiscard]] std::unique_ptr<Extractor> make() const;
};

}  // namespace vqx

#include "metrics/cambi/heatmap.hpp"

#include <filesystem>

namespace vqx::cambi {

HeatmapWriter::~HeatmapWriter() { abandon_all(); }

void HeatmapWriter::abandon_all() {
  for (unsigned s = 0; s < kScaleCount; ++s) {
    files_[s].reset();  // closes the descriptor
    staged::abandon(staged_[s]);
    staged_[s] = {};
  }
}

Status HeatmapWriter::open(const std::string& dir, unsigned enc_width, unsigned enc_height,
                           unsigned window, int max_weight) {
  abandon_all();
  if (Status s = staged::create_folders(*output_files_, dir); !s.ok()) {
    return Error(Errc::kIo, "cambi: cannot create heatmaps_path " + dir + ": " + s.message());
  }
  unsigned w = enc_width;
  unsigned h = enc_height;
  for (unsigned s = 0; s < kScaleCount; ++s) {
    paths_[s] =
        (std::filesystem::path(dir) / ("cambi_heatmap_scale_" + std::to_string(s) + "_" +
                                       std::to_string(w) + "x" + std::to_string(h) + "_16b.gray"))
            .string();
    const auto fail = [&](const std::string& why) {
      abandon_all();
      return Error(Errc::kIo, "cambi: cannot open heatmap file " + paths_[s] + ": " + why);
    };
    auto target = staged::resolve_links(paths_[s]);
    if (!target.ok()) return fail(target.status().message());
    auto file = staged::create(*output_files_, *target);
    if (!file.ok()) return fail(file.status().message());
    staged_[s] = *file;
    files_[s].reset(::fdopen(staged_[s].fd, "wb"));
    if (!files_[s]) return fail("fdopen failed");
    staged_[s].fd = -1;  // the FILE owns it now
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
  const int max_c = max_weight * static_cast<int>(window * window) / 4;
  scaling_ = 65535.0 / max_c;
  samples_.assign(enc_width, 0);
  return Status::Ok();
}

Status HeatmapWriter::write_row(unsigned scale, unsigned frame, unsigned row, unsigned w,
                                unsigned h, const float* values) {
  for (unsigned j = 0; j < w; ++j) {
    samples_[j] = static_cast<std::uint16_t>(scaling_ * values[j]);
  }
  std::FILE* f = files_[scale].get();
  const auto offset = static_cast<long>(((std::uint64_t{frame} * h + row) * w) * 2);
  if (std::fseek(f, offset, SEEK_SET) != 0 || std::fwrite(samples_.data(), 2, w, f) != w) {
    return Error(Errc::kIo, "cambi: cannot write heatmap file " + paths_[scale]);
  }
  return Status::Ok();
}

Status HeatmapWriter::close() {
  Status status = Status::Ok();
  for (unsigned s = 0; s < kScaleCount; ++s) {
    if (files_[s] && std::fclose(files_[s].release()) != 0 && status.ok()) {
      status = Error(Errc::kIo, "cambi: cannot write heatmap file " + paths_[s]);
    }
  }
  if (!status.ok()) {
    abandon_all();
    return status;
  }
  for (unsigned s = 0; s < kScaleCount; ++s) {
    if (staged_[s].id == 0) continue;
    if (Status r = staged::finish(staged_[s]); !r.ok() && status.ok()) {
      status = Error(Errc::kIo, "cambi: heatmap file " + paths_[s] + ": " + r.message());
    }
    staged_[s] = {};
  }
  if (!status.ok()) abandon_all();
  return status;
}

}  // namespace vqx::cambi

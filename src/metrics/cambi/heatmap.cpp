#include "metrics/cambi/heatmap.hpp"

#include <filesystem>
#include <system_error>

namespace vqx::cambi {

Status HeatmapWriter::open(const std::string& dir, unsigned enc_width, unsigned enc_height,
                           unsigned window, int max_weight) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Error(Errc::kIo, "cambi: cannot create heatmaps_path " + dir + ": " + ec.message());
  }
  unsigned w = enc_width;
  unsigned h = enc_height;
  for (unsigned s = 0; s < kScaleCount; ++s) {
    paths_[s] =
        (std::filesystem::path(dir) / ("cambi_heatmap_scale_" + std::to_string(s) + "_" +
                                       std::to_string(w) + "x" + std::to_string(h) + "_16b.gray"))
            .string();
    files_[s].reset(std::fopen(paths_[s].c_str(), "wb"));
    if (!files_[s]) {
      return Error(Errc::kIo, "cambi: cannot open heatmap file " + paths_[s]);
    }
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
  return status;
}

}  // namespace vqx::cambi

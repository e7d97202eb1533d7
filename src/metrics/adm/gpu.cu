// Integer ADM on the GPU, bit for bit libvmaf's integer_adm.c (and so
// cpu.cpp). Per scale, three kernels, each over the whole band at once (the
// first two are gpu_kernels.cuh's, where their comments say how):
//   dwt      one thread per band sample: the 4x4 Daubechies-2 window of the
//            input (picture or previous approximation), boundary-mirrored;
//            writes the detail bands of ref and dist and the approximation
//            that the next scale reads; where libvmaf decouples (the summed
//            area plus the filter margin), the same thread decouples the
//            sample: the restored part, and the sums over the bands of the
//            restored and additive parts' |c|/30 (CSF-weighted) that the
//            masking thresholds' 3x3 sums are built from;
//   sums     over the summed area: the additive part (distorted less
//            restored), the 3x3 masking thresholds (their centre taps, the
//            sums of |c|/15, from the bands read here), the masked
//            cubes (numerators) and the reference cubes (denominator); each
//            block adds its part of a row to that row's sums with integer
//            atomics (exact);
//   rows     libvmaf rounds every row's sum before adding it to the total:
//            one block per (scale, sum, band) rounds each row's sum and adds
//            them up (exact integers, so in any order).
// The host then finishes in float and double exactly as the CPU does
// (AdmCpu::finish, shared).
#include <array>
#include <cstdint>
#include <optional>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/adm/gpu.hpp"
#include "metrics/adm/gpu_kernels.cuh"
#include "metrics/adm/scores.hpp"

namespace vqx::adm {

namespace {

constexpr int kRowThreads = 256;             // rows_kernel's blocks
constexpr int kTotals = kScales * kRowSums;  // what comes back per frame

// The border rule (-1 -> 1, n -> n - 1, n + 1 -> n - 2) is
// reflect101_repeat_end (core/index_math.hpp); the fixed-point steps and
// libvmaf's int32 wrap-around (wrap_abs, ...) are params.hpp's, as on the CPU.

// ---------------------------------------------------------------------------
// Sums: gpu_kernels.cuh's sums_kernel, each block's row sums added here.

struct DeviceSum {
  __device__ void add(unsigned long long* rows, std::size_t stride,
                      const unsigned long long (&v)[kRowSums]) const {
    // Without aim, sums 3..5 are 0 and add nothing.
    vqx::gpu::add_exact_block(rows, stride, v);
  }
};

// ---------------------------------------------------------------------------
// Per-row rounding and the totals.

struct RowScale {
  const unsigned long long* rows;  // kRowSums x h
  int h, y0, y1;
  int shift, den_shift;
  std::int64_t add;
  std::uint64_t den_add;
};
struct RowsArgs {
  RowScale s[kScales];
  unsigned long long* totals;  // kTotals
};

__global__ void __launch_bounds__(kRowThreads) rows_kernel(RowsArgs a) {
  const int t = static_cast<int>(blockIdx.x);  // scale * kRowSums + k
  const RowScale& s = a.s[t / kRowSums];
  const int k = t % kRowSums;
  const unsigned long long* rows = s.rows + k * s.h;
  unsigned long long v = 0;  // two's complement: the numerators are int64
  for (int i = s.y0 + static_cast<int>(threadIdx.x); i < s.y1; i += kRowThreads) {
    if (k < 6) {  // numerators: int64, arithmetic shift
      v += static_cast<unsigned long long>((static_cast<std::int64_t>(rows[i]) + s.add) >> s.shift);
    } else {
      v += (rows[i] + s.den_add) >> s.den_shift;
    }
  }
  vqx::gpu::add_exact_block(a.totals + t, v);
}

// ---------------------------------------------------------------------------

class AdmTwin final : public gpu::Twin {
 public:
  explicit AdmTwin(const AdmParams& p) : params_(p) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_ASSIGN_OR_RETURN(AdmCpu setup, AdmCpu::create(params_, fmt.width, fmt.height, fmt.bpc,
                                                      /*allocate=*/false));
    setup_.emplace(std::move(setup));
    fmt_ = fmt;
    std::size_t rows_total = 0;
    for (int s = 0; s < kScales; ++s) {
      const ScaleGeometry& g = setup_->geometry(s);
      const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
      const std::size_t elem = s == 0 ? 2 : 4;
      Scale& sc = scales_[s];
      VQX_ASSIGN_OR_RETURN(sc.bands,
                           gpu::DeviceBuffer<std::uint8_t>::allocate(3 * kBandGroups * n * elem));
      VQX_ASSIGN_OR_RETURN(sc.masks, gpu::DeviceBuffer<std::int32_t>::allocate(2 * n));
      if (s < kScales - 1) {
        VQX_ASSIGN_OR_RETURN(sc.approx, gpu::DeviceBuffer<std::int32_t>::allocate(2 * n));
      }
      sc.row_offset = rows_total;
      rows_total += static_cast<std::size_t>(kRowSums) * static_cast<std::size_t>(g.h);
    }
    VQX_ASSIGN_OR_RETURN(rows_, gpu::DeviceBuffer<unsigned long long>::allocate(rows_total));
    VQX_ASSIGN_OR_RETURN(totals_, gpu::DeviceBuffer<unsigned long long>::allocate(kTotals));
    VQX_ASSIGN_OR_RETURN(results_,
                         gpu::PinnedBuffer<unsigned long long>::allocate(slots * kTotals));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override {
    VQX_RETURN_IF_ERROR(gpu::clear_async(rows_, s));
    return gpu::clear_async(totals_, s);
  }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    for (int scale = 0; scale < kScales; ++scale) {
      VQX_RETURN_IF_ERROR(run_scale(scale, f, s));
    }
    RowsArgs ra{};
    for (int scale = 0; scale < kScales; ++scale) {
      const ScaleGeometry& g = setup_->geometry(scale);
      const SumConsts k = sum_consts(scale, g);
      ra.s[scale] = {rows_.get() + scales_[scale].row_offset,
                     g.h,
                     g.sum_y.begin,
                     g.sum_y.end,
                     k.row_shift,
                     k.den_row_shift,
                     k.row_add,
                     k.den_row_add};
    }
    ra.totals = totals_.get();
    rows_kernel<<<kTotals, kRowThreads, 0, s.handle()>>>(ra);
    VQX_RETURN_IF_ERROR(gpu::check_launch("adm rows_kernel"));
    return gpu::copy_to_host_async(&results_[std::size_t{slot} * kTotals], totals_.get(),
                                   totals_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const unsigned long long* r = &results_[std::size_t{slot} * kTotals];
    std::array<ScaleSums, kScales> sums{};
    for (int scale = 0; scale < kScales; ++scale) {
      const unsigned long long* q = r + scale * kRowSums;
      for (int b = 0; b < 3; ++b) {
        sums[scale].dlm[b] = static_cast<std::int64_t>(q[b]);
        sums[scale].aim[b] = static_cast<std::int64_t>(q[3 + b]);
        sums[scale].den[b] = q[6 + b];
      }
    }
    AdmScores scores;
    setup_->finish(sums, scores);
    write_scores(scores, params_.debug, index, out);
    return Status::Ok();
  }

 private:
  struct Scale {
    gpu::DeviceBuffer<std::uint8_t> bands;   // ref, dis, restored: 3 bands each
    gpu::DeviceBuffer<std::int32_t> masks;   // flt_a, flt_r
    gpu::DeviceBuffer<std::int32_t> approx;  // ref, dis approximation (next scale's input)
    std::size_t row_offset = 0;
  };

  // The three bands of group `group` (0 ref, 1 dis, 2 restored).
  static constexpr int kBandGroups = 3;
  Band3 bands(int scale, int group) const {
    const ScaleGeometry& g = setup_->geometry(scale);
    const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
    const std::size_t elem = scale == 0 ? 2 : 4;
    std::uint8_t* base =
        scales_[scale].bands.get() + static_cast<std::size_t>(group) * 3 * n * elem;
    return {{base, base + n * elem, base + 2 * n * elem}};
  }

  Status run_scale(int scale, const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const ScaleGeometry& geo = setup_->geometry(scale);
    const Geometry g = to_device(geo);
    const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
    Scale& sc = scales_[scale];
    std::int32_t* approx = sc.approx.get();

    // 1. The decoupling's arguments: it runs in the transform's threads.
    const CsfWeights& csf = setup_->csf();
    const bool aim = !params_.skip_aim;
    std::int32_t* masks = sc.masks.get();
    DecoupleArgs d{};
    d.restored = bands(scale, 2);
    d.flt_a = masks;
    d.flt_r = masks + n;
    d.gain = setup_->decouple().enhn_gain_limit;
    d.cos_sq = setup_->decouple().cos_1deg_sq;
    const std::array<std::uint32_t, 3> q = csf_weights_of(csf, scale);
    for (int b = 0; b < 3; ++b) d.q[b] = q[static_cast<std::size_t>(b)];
    d.aim = aim;
    const bool decouple = !(scale == 0 && params_.skip_scale0);

    // 2. The transform and the decoupling.
    if (scale == 0) {
      Dwt0Args a{{f.ref[0].data, f.dist[0].data},
                 {f.ref[0].pitch, f.dist[0].pitch},
                 static_cast<int>(fmt_.bpc),
                 g,
                 {bands(0, 0), bands(0, 1)},
                 {approx, approx + n},
                 d,
                 decouple};
      dwt0_kernel_for(fmt_.bpc)<<<pixel_grid(g.w, g.h), dim3(kBlockX, kBlockY), 0, s.handle()>>>(a);
    } else {
      const ScaleGeometry& prev = setup_->geometry(scale - 1);
      const std::size_t pn = static_cast<std::size_t>(prev.w) * static_cast<std::size_t>(prev.h);
      const std::int32_t* in = scales_[scale - 1].approx.get();
      // Roundings per scale (params.hpp, as dwt.cpp).
      const DwtRounding r = dwt_rounding(scale);
      DwtNArgs a{{in, in + pn},
                 g,
                 r.vert_add,
                 r.horz_add,
                 r.vert_shift,
                 r.horz_shift,
                 {bands(scale, 0), bands(scale, 1)},
                 {approx, approx == nullptr ? nullptr : approx + n},
                 d,
                 true};
      dwtn_kernel<<<pixel_grid(g.w, g.h), dim3(kBlockX, kBlockY), 0, s.handle()>>>(a);
    }
    VQX_RETURN_IF_ERROR(gpu::check_launch("adm dwt_kernel"));
    if (!decouple) return Status::Ok();

    // 3. Masked numerators and the denominator, per row.
    const SumConsts k = sum_consts(scale, geo);
    SumsArgs m{};
    m.ref = bands(scale, 0);
    m.dis = bands(scale, 1);
    m.restored = d.restored;
    m.flt_a = d.flt_a;
    m.flt_r = d.flt_r;
    m.g = g;
    for (int b = 0; b < 3; ++b) {
      m.q[b] = d.q[b];
      m.cube[b] = k.cubes[b];
    }
    m.den_sq_add = k.ref.sq_add;
    m.den_sq_shift = k.ref.sq_shift;
    m.den_cub_add = k.ref.cub_add;
    m.den_cub_shift = k.ref.cub_shift;
    m.rows = rows_.get() + sc.row_offset;
    sums_kernel_for<DeviceSum>(scale, aim)<<<sums_grid(g), kSumThreads, 0, s.handle()>>>(
        m, DeviceSum{});
    return gpu::check_launch("adm sums_kernel");
  }

  AdmParams params_;
  PictureFormat fmt_;
  std::optional<AdmCpu> setup_;  // checks, constants and the final arithmetic
  std::array<Scale, kScales> scales_;
  gpu::DeviceBuffer<unsigned long long> rows_;     // per scale: kRowSums x h row sums
  gpu::DeviceBuffer<unsigned long long> totals_;   // kTotals
  gpu::PinnedBuffer<unsigned long long> results_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const AdmParams& params) {
  return std::make_unique<AdmTwin>(params);
}

}  // namespace vqx::adm

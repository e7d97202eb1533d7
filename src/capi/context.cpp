// The context functions of include/libvmaf/libvmaf.h over vqx::Context.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <utility>

#include "capi/internals.hpp"

namespace vqx::capi {

int to_errno(const Status& s) {
  switch (s.code()) {
    case Errc::kOk:
      return 0;
    case Errc::kLimit:
      return -ENOMEM;
    case Errc::kDevice:
    case Errc::kInternal:
      return -EIO;
    case Errc::kCancelled:
      return -EINTR;
    default:  // what the caller gave: libvmaf's -EINVAL
      return -EINVAL;
  }
}

Expected<PictureFormat> picture_format(enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                                       unsigned h) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bpc = bpc;
  switch (pix_fmt) {
    case VMAF_PIX_FMT_YUV420P:
      f.chroma = ChromaFormat::k420;
      break;
    case VMAF_PIX_FMT_YUV422P:
      f.chroma = ChromaFormat::k422;
      break;
    case VMAF_PIX_FMT_YUV444P:
      f.chroma = ChromaFormat::k444;
      break;
    case VMAF_PIX_FMT_YUV400P:
      f.chroma = ChromaFormat::k400;
      break;
    default:
      return Error(Errc::kInvalidArgument, "picture of an unknown pixel format");
  }
  VQX_RETURN_IF_ERROR(validate(f));
  return f;
}

void libvmaf_plane_sizes(enum VmafPixelFormat pix_fmt, unsigned w, unsigned h, unsigned (&pw)[3],
                         unsigned (&ph)[3]) {
  const unsigned ss_hor = pix_fmt != VMAF_PIX_FMT_YUV444P ? 1 : 0;
  const unsigned ss_ver = pix_fmt == VMAF_PIX_FMT_YUV420P ? 1 : 0;
  const bool chroma = pix_fmt != VMAF_PIX_FMT_YUV400P;
  pw[0] = w;
  ph[0] = h;
  pw[1] = pw[2] = chroma ? w >> ss_hor : 0;
  ph[1] = ph[2] = chroma ? h >> ss_ver : 0;
}

enum VmafPixelFormat libvmaf_pixel_format(ChromaFormat chroma) {
  switch (chroma) {
    case ChromaFormat::k420:
      return VMAF_PIX_FMT_YUV420P;
    case ChromaFormat::k422:
      return VMAF_PIX_FMT_YUV422P;
    case ChromaFormat::k444:
      return VMAF_PIX_FMT_YUV444P;
    case ChromaFormat::k400:
      return VMAF_PIX_FMT_YUV400P;
  }
  return VMAF_PIX_FMT_UNKNOWN;
}

Expected<PictureFormat> format_of(const VmafPicture& p) {
  VQX_ASSIGN_OR_RETURN(PictureFormat f, picture_format(p.pix_fmt, p.bpc, p.w[0], p.h[0]));
  for (unsigned c = 0; c < f.plane_count(); ++c) {
    if (p.data[c] == nullptr) return Error(Errc::kInvalidArgument, "picture without planes");
    const std::size_t row = static_cast<std::size_t>(p.w[c]) * f.bytes_per_sample();
    if (p.stride[c] < 0 || static_cast<std::size_t>(p.stride[c]) < row) {
      return Error(Errc::kInvalidArgument, "picture with a stride shorter than its rows");
    }
    // VmafPicture's chroma planes have w >> 1 samples where VQX's have
    // (w + 1) >> 1: the sizes a plane may have.
    if (p.w[c] > f.plane_width(c) || p.w[c] + 1 < f.plane_width(c) || p.h[c] > f.plane_height(c) ||
        p.h[c] + 1 < f.plane_height(c) || p.w[c] == 0 || p.h[c] == 0) {
      return Error(Errc::kInvalidArgument, "picture planes of inconsistent sizes");
    }
  }
  return f;
}

ContextSettings context_settings(const VmafConfiguration& cfg,
                                 std::optional<unsigned> cuda_device) {
  ContextSettings settings;
  // More threads than VQX runs add nothing (the scores are the same for
  // any count); libvmaf takes any number.
  settings.threads = std::min(cfg.n_threads, vqx::kMaxThreads);
  settings.subsample = std::max(cfg.n_subsample, 1U);
  // libvmaf computes on the GPU once a CUDA state is imported, unless
  // gpumask is set ("if gpumask: disable CUDA").
  const bool gpu = cuda_device.has_value() && cfg.gpumask == 0;
  settings.backend = gpu ? Backend::kCuda : Backend::kCpu;
  settings.gpu = gpu ? *cuda_device : 0;
  return settings;
}

int fail(const VmafContext* vmaf, const Status& s) {
  if (vmaf == nullptr || vmaf->cfg.log_level >= VMAF_LOG_LEVEL_ERROR) {
    std::fprintf(stderr, "libvmaf ERROR %s\n", s.message().c_str());
  }
  return to_errno(s);
}

}  // namespace vqx::capi

namespace {

using vqx::Errc;
using vqx::Expected;
using vqx::PictureFormat;
using vqx::Status;
using vqx::capi::fail;
using vqx::capi::format_of;
using vqx::capi::guarded;

int use_spec(VmafContext* vmaf, const std::string& spec) {
  if (vmaf->model_specs.count(spec) != 0) return 0;
  if (Status s = vmaf->ctx->use_features_from_model(spec); !s.ok()) return fail(vmaf, s);
  vmaf->model_specs.insert(spec);
  return 0;
}

// The samples of `src` into a picture of the context's (for an odd size,
// VQX's extra chroma column and row repeat the last ones).
Status copy_into(const VmafPicture& src, vqx::Picture& dst) {
  const unsigned bytes = dst.format().bytes_per_sample();
  for (unsigned c = 0; c < dst.plane_count(); ++c) {
    vqx::Plane& plane = dst.plane(c);
    const auto* from = static_cast<const std::uint8_t*>(src.data[c]);
    const std::size_t row_bytes = static_cast<std::size_t>(src.w[c]) * bytes;
    for (unsigned y = 0; y < plane.height(); ++y) {
      const unsigned sy = std::min(y, src.h[c] - 1);
      std::uint8_t* to = plane.row<std::uint8_t>(y);
      std::memcpy(to, from + static_cast<std::size_t>(sy) * static_cast<std::size_t>(src.stride[c]),
                  row_bytes);
      if (plane.width() > src.w[c]) {
        std::memcpy(to + row_bytes, to + row_bytes - bytes, bytes);
      }
    }
  }
  return Status::Ok();
}

// A picture of a context's pool (vmaf_cuda_fetch_preallocated_picture())
// that only the caller references: the context takes that picture itself,
// without a copy (in a GPU context its planes are pinned: uploaded as they
// are).
bool hands_over(const VmafPicture& p, const PictureFormat& f) {
  return p.ref->held && p.ref->count.load(std::memory_order_acquire) == 1 &&
         p.ref->held->format() == f;
}

// For an odd size, the extra chroma column and row of VQX's planes, which
// libvmaf's sizes leave out, repeat the last ones (as copy_into() makes them).
void complete_edges(const VmafPicture& p, vqx::Picture& pic) {
  const unsigned bytes = pic.format().bytes_per_sample();
  for (unsigned c = 1; c < pic.plane_count(); ++c) {
    vqx::Plane& plane = pic.plane(c);
    if (plane.width() > p.w[c]) {
      const std::size_t last = static_cast<std::size_t>(p.w[c] - 1) * bytes;
      for (unsigned y = 0; y < p.h[c]; ++y) {
        std::uint8_t* row = plane.row<std::uint8_t>(y);
        std::memcpy(row + last + bytes, row + last, bytes);
      }
    }
    if (plane.height() > p.h[c]) {
      std::memcpy(plane.row<std::uint8_t>(p.h[c]), plane.row<std::uint8_t>(p.h[c] - 1),
                  static_cast<std::size_t>(plane.width()) * bytes);
    }
  }
}

// The context's picture of `src`: the one it holds (hands_over()) or a copy.
Expected<vqx::Picture> picture_for(VmafContext* vmaf, VmafPicture& src, const PictureFormat& f,
                                   bool own) {
  if (own) {
    complete_edges(src, *src.ref->held);
    return std::move(*src.ref->held);
  }
  VQX_ASSIGN_OR_RETURN(vqx::Picture p, vmaf->ctx->fetch_picture(f));
  VQX_RETURN_IF_ERROR(copy_into(src, p));
  return p;
}

// A picture handed over to a read that failed is gone with it: the caller's
// (still the caller's, as on any error) gets a new one of the pool, whose
// samples are zero; without memory for it, no planes.
void replace_held(VmafContext* vmaf, VmafPicture& p) {
  auto fresh = vmaf->ctx->fetch_picture(p.ref->held->format());
  for (unsigned c = 0; c < 3; ++c) {
    p.data[c] = nullptr;
    p.stride[c] = 0;
  }
  if (!fresh.ok()) return;
  *p.ref->held = std::move(*fresh);
  for (unsigned c = 0; c < p.ref->held->plane_count(); ++c) {
    vqx::Plane& plane = p.ref->held->plane(c);
    p.data[c] = plane.data();
    p.stride[c] = static_cast<ptrdiff_t>(plane.stride_bytes());
  }
}

int flush(VmafContext* vmaf) {
  vmaf->flushed = true;
  if (vmaf->pictures_read == 0) return 0;  // nothing to compute (libvmaf: 0)
  vmaf->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - vmaf->first_read).count();
  if (Status s = vmaf->ctx->flush(); !s.ok()) return fail(vmaf, s);
  return 0;
}

int read_pair(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index) {
  if (ref->ref == nullptr || dist->ref == nullptr) {
    return fail(vmaf, vqx::Error(Errc::kInvalidArgument,
                                 "a picture that vmaf_picture_alloc() did not allocate"));
  }
  auto rf = format_of(*ref);
  if (!rf.ok()) return fail(vmaf, rf.status());
  auto df = format_of(*dist);
  if (!df.ok()) return fail(vmaf, df.status());
  if (!(*rf == *df)) {
    return fail(vmaf, vqx::Error(Errc::kMismatch,
                                 "reference and distorted pictures differ in size, bit depth or "
                                 "pixel format"));
  }
  if (vmaf->have_format && !(*rf == vmaf->format)) {
    return fail(vmaf, vqx::Error(Errc::kMismatch,
                                 "picture " + std::to_string(index) +
                                     " differs in size, bit depth or pixel format from the first"));
  }
  const bool own_ref = hands_over(*ref, *rf);
  const bool own_dist = hands_over(*dist, *rf) && dist->ref != ref->ref;
  auto r = picture_for(vmaf, *ref, *rf, own_ref);
  if (!r.ok()) return fail(vmaf, r.status());
  auto d = picture_for(vmaf, *dist, *rf, own_dist);
  if (!d.ok()) {
    if (own_ref) replace_held(vmaf, *ref);
    return fail(vmaf, d.status());
  }
  if (vmaf->pictures_read == 0) vmaf->first_read = std::chrono::steady_clock::now();
  if (Status s = vmaf->ctx->read_pictures(std::move(*r), std::move(*d), index); !s.ok()) {
    if (own_ref) replace_held(vmaf, *ref);
    if (own_dist) replace_held(vmaf, *dist);
    return fail(vmaf, s);
  }
  vmaf->have_format = true;
  vmaf->format = *rf;
  ++vmaf->pictures_read;
  // The context has the samples: the pictures are released, as libvmaf
  // releases the ones it is given.
  vmaf_picture_unref(ref);
  vmaf_picture_unref(dist);
  return 0;
}

// libvmaf's pooling over index_low..index_high: the frames that
// n_subsample computes, in order; the first error ends it.
int pool(VmafContext* vmaf, const std::string& name, enum VmafPoolingMethod method,
         unsigned index_low, unsigned index_high, double* score) {
  if (index_low > index_high) return -EINVAL;
  if (method != VMAF_POOL_METHOD_MIN && method != VMAF_POOL_METHOD_MAX &&
      method != VMAF_POOL_METHOD_MEAN && method != VMAF_POOL_METHOD_HARMONIC_MEAN) {
    return -EINVAL;
  }
  const unsigned subsample = std::max(vmaf->cfg.n_subsample, 1U);
  unsigned n = 0;
  double min = 0., max = 0., sum = 0., inverse_sum = 0.;
  for (unsigned i = index_low;; ++i) {
    if (i % subsample == 0) {
      auto v = vmaf->ctx->score_at_index(name, i);
      if (!v.ok()) return fail(vmaf, v.status());
      const double s = *v;
      sum += s;
      inverse_sum += 1. / (s + 1.);
      if (n == 0 || s < min) min = s;
      if (n == 0 || s > max) max = s;
      ++n;
    }
    if (i == index_high) break;
  }
  if (n == 0) return -EINVAL;
  switch (method) {
    case VMAF_POOL_METHOD_MIN:
      *score = min;
      break;
    case VMAF_POOL_METHOD_MAX:
      *score = max;
      break;
    case VMAF_POOL_METHOD_MEAN:
      *score = sum / n;
      break;
    default:
      *score = n / inverse_sum - 1.0;
      break;
  }
  return 0;
}

int score_at(VmafContext* vmaf, const std::string& name, unsigned index, double* score) {
  auto v = vmaf->ctx->score_at_index(name, index);
  if (!v.ok()) return fail(vmaf, v.status());
  *score = *v;
  return 0;
}

// The four scores of a collection, each by `get` (at an index, or pooled).
template <typename Get>
int collection_scores(const std::string& name, VmafModelCollectionScore* score, Get&& get) {
  VmafModelCollectionScore out{};
  out.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
  if (int err = get(name + "_bagging", &out.bootstrap.bagging_score); err != 0) return err;
  if (int err = get(name + "_stddev", &out.bootstrap.stddev); err != 0) return err;
  if (int err = get(name + "_ci_p95_lo", &out.bootstrap.ci.p95.lo); err != 0) return err;
  if (int err = get(name + "_ci_p95_hi", &out.bootstrap.ci.p95.hi); err != 0) return err;
  *score = out;
  return 0;
}

}  // namespace

extern "C" int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
  if (vmaf == nullptr) return -EINVAL;
  *vmaf = nullptr;
  return guarded([&] {
    auto v = std::make_unique<VmafContext>();
    v->cfg = cfg;
    auto ctx = vqx::Context::create(vqx::capi::context_settings(cfg, std::nullopt));
    if (!ctx.ok()) return fail(v.get(), ctx.status());
    v->ctx = std::move(*ctx);
    *vmaf = v.release();
    return 0;
  });
}

extern "C" int vmaf_close(VmafContext* vmaf) {
  if (vmaf == nullptr) return -EINVAL;
  delete vmaf;
  return 0;
}

extern "C" int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
  if (vmaf == nullptr || model == nullptr) return -EINVAL;
  return guarded([&] { return use_spec(vmaf, model->spec); });
}

extern "C" int vmaf_use_features_from_model_collection(VmafContext* vmaf,
                                                       VmafModelCollection* model_collection) {
  if (vmaf == nullptr || model_collection == nullptr) return -EINVAL;
  return guarded([&] { return use_spec(vmaf, model_collection->spec); });
}

extern "C" int vmaf_use_feature(VmafContext* vmaf, const char* feature_name,
                                VmafFeatureDictionary* opts_dict) {
  if (vmaf == nullptr || feature_name == nullptr) return -EINVAL;
  return guarded([&] {
    std::map<std::string, std::string> options;
    if (opts_dict != nullptr) {
      for (const auto& [key, value] : opts_dict->entries) options[key] = value;
    }
    if (Status s = vmaf->ctx->use_feature(feature_name, options); !s.ok()) return fail(vmaf, s);
    // The context has what it needs: the dictionary is its to free.
    if (opts_dict != nullptr) vmaf_feature_dictionary_free(&opts_dict);
    return 0;
  });
}

extern "C" int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value,
                                         unsigned index) {
  if (vmaf == nullptr || feature_name == nullptr) return -EINVAL;
  return guarded([&] {
    if (Status s = vmaf->ctx->import_feature_score(feature_name, value, index); !s.ok())
      return fail(vmaf, s);
    return 0;
  });
}

extern "C" int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist,
                                  unsigned index) {
  if (vmaf == nullptr) return -EINVAL;
  if (vmaf->flushed) {
    return fail(vmaf, vqx::Error(Errc::kInvalidArgument, "vmaf_read_pictures after the flush"));
  }
  if ((ref == nullptr) != (dist == nullptr)) return -EINVAL;
  return guarded([&] {
    if (ref == nullptr) return flush(vmaf);
    return read_pair(vmaf, ref, dist, index);
  });
}

extern "C" int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name,
                                           double* score, unsigned index) {
  if (vmaf == nullptr || feature_name == nullptr || score == nullptr) return -EINVAL;
  return guarded([&] { return score_at(vmaf, feature_name, index, score); });
}

extern "C" int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score,
                                   unsigned index) {
  if (vmaf == nullptr || model == nullptr || score == nullptr) return -EINVAL;
  return guarded([&] { return score_at(vmaf, model->name, index, score); });
}

extern "C" int vmaf_score_at_index_model_collection(VmafContext* vmaf,
                                                    VmafModelCollection* model_collection,
                                                    VmafModelCollectionScore* score,
                                                    unsigned index) {
  if (vmaf == nullptr || model_collection == nullptr || score == nullptr) return -EINVAL;
  return guarded([&] {
    return collection_scores(model_collection->name, score, [&](const std::string& n, double* s) {
      return score_at(vmaf, n, index, s);
    });
  });
}

extern "C" int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                                         enum VmafPoolingMethod pool_method, double* score,
                                         unsigned index_low, unsigned index_high) {
  if (vmaf == nullptr || feature_name == nullptr || score == nullptr) return -EINVAL;
  return guarded(
      [&] { return pool(vmaf, feature_name, pool_method, index_low, index_high, score); });
}

extern "C" int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model,
                                 enum VmafPoolingMethod pool_method, double* score,
                                 unsigned index_low, unsigned index_high) {
  if (vmaf == nullptr || model == nullptr || score == nullptr) return -EINVAL;
  return guarded(
      [&] { return pool(vmaf, model->name, pool_method, index_low, index_high, score); });
}

extern "C" int vmaf_score_pooled_model_collection(VmafContext* vmaf,
                                                  VmafModelCollection* model_collection,
                                                  enum VmafPoolingMethod pool_method,
                                                  VmafModelCollectionScore* score,
                                                  unsigned index_low, unsigned index_high) {
  if (vmaf == nullptr || model_collection == nullptr || score == nullptr) return -EINVAL;
  return guarded([&] {
    return collection_scores(model_collection->name, score, [&](const std::string& n, double* s) {
      return pool(vmaf, n, pool_method, index_low, index_high, s);
    });
  });
}

extern "C" int vmaf_write_output(VmafContext* vmaf, const char* output_path,
                                 enum VmafOutputFormat fmt) {
  if (vmaf == nullptr || output_path == nullptr || *output_path == '\0') return -EINVAL;
  vqx::OutputFormat format{};
  switch (fmt) {
    case VMAF_OUTPUT_FORMAT_XML:
      format = vqx::OutputFormat::kXml;
      break;
    case VMAF_OUTPUT_FORMAT_JSON:
      format = vqx::OutputFormat::kJson;
      break;
    case VMAF_OUTPUT_FORMAT_CSV:
      format = vqx::OutputFormat::kCsv;
      break;
    case VMAF_OUTPUT_FORMAT_SUB:
      format = vqx::OutputFormat::kSub;
      break;
    default:
      return -EINVAL;
  }
  return guarded([&] {
    const double fps = vmaf->seconds > 0 ? vmaf->pictures_read / vmaf->seconds : 0;
    Status s = vmaf->ctx->write_output(output_path, format, vqx::kPrecisionDefault, fps);
    return s.ok() ? 0 : fail(vmaf, s);
  });
}

extern "C" const char* vmaf_version(void) { return "3.2.0"; }

/* The libvmaf-compatible C API (include/libvmaf, docs/capi.md), used as a
 * libvmaf 3.x program uses it: plain C11, only the public headers.
 *
 *   capi_test errors OUT_DIR            bad input: negative errno codes; imported scores
 *   capi_test golden DATA_DIR MODELS_DIR OUT_DIR
 *                                       the P9 pair of the bundled corpus
 *                                       subset against its golden JSON
 *
 * Tolerances as the golden tests' (tests/golden/golden_util.cpp): integer
 * features exactly, model scores within 1e-9. Exit 0: passed, 1: failed,
 * 77: the data is not there (ctest reports the test as skipped). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/version.h>

static int checks = 0;
static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(got, want) \
  CHECK((got) == (want), "got %d, expected %d", (int)(got), (int)(want))

static const VmafConfiguration kQuiet = {.log_level = VMAF_LOG_LEVEL_NONE};

/* ---- small helpers: files, the golden JSON, Y4M frames ---------------- */

static char* read_file(const char* path, long* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  char* buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    const long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
      buf = malloc((size_t)n + 1);
      if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
      }
      if (buf) {
        buf[n] = '\0';
        if (size) *size = n;
      }
    }
  }
  fclose(f);
  return buf;
}

/* The golden JSON (libvmaf's output schema) is read by searching for
 * "name": inside a frame's block or a pooled block; values are JSON
 * numbers, read with strtod (correctly rounded, as the golden tests'
 * parser reads them). */
typedef struct {
  const char* begin;
  const char* end;
} Span;

static Span frame_block(const char* json, unsigned index) {
  char key[64];
  snprintf(key, sizeof key, "\"frameNum\": %u,", index);
  Span s = {NULL, NULL};
  s.begin = strstr(json, key);
  if (!s.begin) return s;
  const char* next = strstr(s.begin + 1, "\"frameNum\"");
  if (!next) next = strstr(s.begin, "\"pooled_metrics\"");
  s.end = next ? next : s.begin + strlen(s.begin);
  return s;
}

static int value_in(Span s, const char* name, double* out) {
  if (!s.begin) return -1;
  char key[160];
  snprintf(key, sizeof key, "\"%s\": ", name);
  const char* p = strstr(s.begin, key);
  if (!p || p >= s.end) return -1;
  p += strlen(key);
  if (strncmp(p, "null", 4) == 0) return -1;
  char* end = NULL;
  *out = strtod(p, &end);
  return end == p ? -1 : 0;
}

static int golden_at(const char* json, unsigned index, const char* name, double* out) {
  return value_in(frame_block(json, index), name, out);
}

static int golden_pooled(const char* json, const char* name, const char* method, double* out) {
  const char* pooled = strstr(json, "\"pooled_metrics\"");
  if (!pooled) return -1;
  char key[160];
  snprintf(key, sizeof key, "\"%s\": {", name);
  const char* p = strstr(pooled, key);
  if (!p) return -1;
  Span s = {p, strchr(p, '}')};
  if (!s.end) return -1;
  return value_in(s, method, out);
}

typedef struct {
  FILE* f;
  unsigned w, h;
} Y4m;

/* An 8-bit 4:2:0 Y4M file (the header's W, H and C tags). */
static int y4m_open(Y4m* y, const char* path) {
  y->f = fopen(path, "rb");
  if (!y->f) return -1;
  char header[512];
  if (!fgets(header, sizeof header, y->f) || strncmp(header, "YUV4MPEG2 ", 10) != 0) return -1;
  y->w = y->h = 0;
  int chroma_ok = 1;
  for (char* t = strtok(header + 10, " \n"); t; t = strtok(NULL, " \n")) {
    if (t[0] == 'W') y->w = (unsigned)strtoul(t + 1, NULL, 10);
    if (t[0] == 'H') y->h = (unsigned)strtoul(t + 1, NULL, 10);
    if (t[0] == 'C') chroma_ok = strncmp(t, "C420", 4) == 0 && strstr(t, "p10") == NULL;
  }
  return y->w && y->h && chroma_ok ? 0 : -1;
}

/* The next frame into a picture of vmaf_picture_alloc(): 1 read, 0 at the
 * end, -1 on an error. */
static int y4m_read(Y4m* y, VmafPicture* pic) {
  char line[128];
  if (!fgets(line, sizeof line, y->f)) return 0;
  if (strncmp(line, "FRAME", 5) != 0) return -1;
  for (int p = 0; p < 3; ++p) {
    unsigned char* row = pic->data[p];
    for (unsigned r = 0; r < pic->h[p]; ++r, row += pic->stride[p]) {
      if (fread(row, 1, pic->w[p], y->f) != pic->w[p]) return -1;
    }
  }
  return 1;
}

/* ---- bad input: negative errno codes, never an abort ------------------ */

static void fill(VmafPicture* pic, unsigned value) {
  for (int p = 0; p < 3; ++p) {
    if (!pic->data[p]) continue;
    for (unsigned r = 0; r < pic->h[p]; ++r) {
      unsigned char* row = (unsigned char*)pic->data[p] + r * pic->stride[p];
      for (unsigned x = 0; x < pic->w[p]; ++x) {
        if (pic->bpc > 8) {
          ((unsigned short*)row)[x] = (unsigned short)value;
        } else {
          row[x] = (unsigned char)value;
        }
      }
    }
  }
}

static int pair(VmafPicture* ref, VmafPicture* dist, enum VmafPixelFormat fmt, unsigned bpc,
                unsigned w, unsigned h, unsigned ref_value, unsigned dist_value) {
  if (vmaf_picture_alloc(ref, fmt, bpc, w, h) != 0) return -1;
  if (vmaf_picture_alloc(dist, fmt, bpc, w, h) != 0) return -1;
  fill(ref, ref_value);
  fill(dist, dist_value);
  return 0;
}

static void test_version(void) {
  CHECK(strcmp(vmaf_version(), "3.2.0") == 0, "vmaf_version() = \"%s\"", vmaf_version());
  CHECK(VMAF_API_VERSION_MAJOR == 3 && VMAF_API_VERSION_MINOR == 2 && VMAF_API_VERSION_PATCH == 0,
        "version.h says %d.%d.%d", VMAF_API_VERSION_MAJOR, VMAF_API_VERSION_MINOR,
        VMAF_API_VERSION_PATCH);
  /* The enum values and layouts of libvmaf 3.2.0's headers. */
  CHECK(VMAF_POOL_METHOD_HARMONIC_MEAN == 4 && VMAF_OUTPUT_FORMAT_SUB == 4 &&
            VMAF_PIX_FMT_YUV400P == 4 && VMAF_LOG_LEVEL_DEBUG == 4 &&
            VMAF_MODEL_FLAG_DISABLE_TRANSFORM == 4 && VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP == 1,
        "enum values");
  CHECK(VMAF_POOL_METHOD_NB == 5 && VMAF_PIX_FMT_YUV420P == 1 && VMAF_OUTPUT_FORMAT_XML == 1,
        "enum values");
  /* Sizes and offsets on LP64 (x86-64, arm64), as libvmaf 3.2.0's headers
   * give them. */
  if (sizeof(void*) == 8 && sizeof(long) == 8) {
    CHECK(sizeof(VmafConfiguration) == 32 && offsetof(VmafConfiguration, cpumask) == 16 &&
              offsetof(VmafConfiguration, gpumask) == 24,
          "VmafConfiguration");
    CHECK(sizeof(VmafPicture) == 96 && offsetof(VmafPicture, w) == 8 &&
              offsetof(VmafPicture, stride) == 32 && offsetof(VmafPicture, data) == 56 &&
              offsetof(VmafPicture, ref) == 80 && offsetof(VmafPicture, priv) == 88,
          "VmafPicture");
    CHECK(sizeof(VmafModelConfig) == 16 && offsetof(VmafModelConfig, flags) == 8,
          "VmafModelConfig");
    CHECK(sizeof(VmafModelCollectionScore) == 40 &&
              offsetof(VmafModelCollectionScore, bootstrap.ci.p95.hi) == 32,
          "VmafModelCollectionScore");
    CHECK(sizeof(VmafPictureConfiguration) == 20 &&
              offsetof(VmafPictureConfiguration, pic_params.pix_fmt) == 12 &&
              offsetof(VmafPictureConfiguration, pic_cnt) == 16,
          "VmafPictureConfiguration");
  }
}

static void test_pictures(void) {
  VmafPicture pic;
  CHECK_EQ_INT(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, 16, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, (enum VmafPixelFormat)99, 8, 16, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 7, 16, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 17, 16, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 0, 16), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 16, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_unref(NULL), -EINVAL);
  memset(&pic, 0, sizeof pic);
  CHECK_EQ_INT(vmaf_picture_unref(&pic), -EINVAL);

  /* libvmaf's layout: chroma w >> 1, h >> 1 for 4:2:0; rows 32-byte aligned. */
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 33, 17), 0);
  CHECK(pic.w[0] == 33 && pic.h[0] == 17 && pic.w[1] == 16 && pic.h[1] == 8 && pic.w[2] == 16 &&
            pic.h[2] == 8,
        "plane sizes %ux%u %ux%u", pic.w[0], pic.h[0], pic.w[1], pic.h[1]);
  CHECK(pic.stride[0] == 128 && pic.stride[1] == 64 && pic.stride[2] == 64, "strides %td %td",
        pic.stride[0], pic.stride[1]);
  CHECK(pic.bpc == 10 && pic.pix_fmt == VMAF_PIX_FMT_YUV420P && pic.ref != NULL, "fields");
  CHECK(pic.data[0] && pic.data[1] && pic.data[2] && ((unsigned char*)pic.data[0])[0] == 0 &&
            ((size_t)pic.data[0] % 32) == 0,
        "planes");
  CHECK_EQ_INT(vmaf_picture_unref(&pic), 0);
  CHECK(pic.ref == NULL && pic.data[0] == NULL, "unref zeroes the struct");
  CHECK_EQ_INT(vmaf_picture_unref(&pic), -EINVAL);

  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV400P, 8, 20, 10), 0);
  CHECK(pic.data[1] == NULL && pic.data[2] == NULL && pic.w[1] == 0 && pic.stride[0] == 32,
        "4:0:0 has no chroma planes");
  CHECK_EQ_INT(vmaf_picture_unref(&pic), 0);
  CHECK_EQ_INT(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV422P, 8, 20, 10), 0);
  CHECK(pic.w[1] == 10 && pic.h[1] == 10, "4:2:2 chroma %ux%u", pic.w[1], pic.h[1]);
  CHECK_EQ_INT(vmaf_picture_unref(&pic), 0);
}

static void test_dictionaries_and_models(void) {
  VmafFeatureDictionary* d = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(NULL, "k", "v"), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&d, NULL, "v"), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&d, "k", NULL), -EINVAL);
  CHECK(d == NULL, "no dictionary made on an error");
  CHECK_EQ_INT(vmaf_feature_dictionary_free(NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_dictionary_free(&d), 0);
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&d, "k", "1.0"), 0);
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&d, "k", "2"), 0);
  CHECK(d != NULL, "dictionary made");
  CHECK_EQ_INT(vmaf_feature_dictionary_free(&d), 0);
  CHECK(d == NULL, "free sets NULL");

  VmafModel* m = NULL;
  VmafModelConfig cfg = {.name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT};
  CHECK_EQ_INT(vmaf_model_load(NULL, &cfg, "vmaf_v0.6.1"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_load(&m, NULL, "vmaf_v0.6.1"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_load(&m, &cfg, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_model_load(&m, &cfg, "no_such_model"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_load_from_path(&m, &cfg, "/no/such/dir/model.json"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_load_from_path(&m, &cfg, NULL), -EINVAL);
  VmafModelConfig bad_name = {.name = "a:b"};
  CHECK_EQ_INT(vmaf_model_load(&m, &bad_name, "vmaf_v0.6.1"), -EINVAL);
  CHECK(m == NULL, "no model on an error");
  vmaf_model_destroy(NULL);
  vmaf_model_collection_destroy(NULL);

  VmafModelConfig flags = {
      .name = NULL, .flags = VMAF_MODEL_FLAG_DISABLE_CLIP | VMAF_MODEL_FLAG_ENABLE_TRANSFORM};
  CHECK_EQ_INT(vmaf_model_load(&m, &flags, "vmaf_v0.6.1"), 0);
  /* An overload of an extractor the model does not use is refused (and
   * the dictionary freed, on failure as on success). */
  VmafFeatureDictionary* o = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&o, "enable_chroma", "true"), 0);
  CHECK_EQ_INT(vmaf_model_feature_overload(m, "psnr", o), -EINVAL);
  o = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&o, "no_such_option", "1"), 0);
  CHECK_EQ_INT(vmaf_model_feature_overload(m, "vif", o), -EINVAL);
  CHECK_EQ_INT(vmaf_model_feature_overload(m, "vif", NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_model_feature_overload(NULL, "vif", NULL), -EINVAL);
  vmaf_model_destroy(m);

  VmafModelCollection* mc = NULL;
  m = NULL;
  CHECK_EQ_INT(vmaf_model_collection_load(&m, NULL, &cfg, "vmaf_b_v0.6.3"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_collection_load(&m, &mc, &cfg, "no_such_model"), -EINVAL);
  CHECK_EQ_INT(vmaf_model_collection_load_from_path(&m, &mc, &cfg, "/no/such.json"), -EINVAL);
  CHECK(m == NULL && mc == NULL, "no collection on an error");
  CHECK_EQ_INT(vmaf_model_collection_feature_overload(NULL, &mc, "vif", NULL), -EINVAL);
}

static void test_context_errors(void) {
  VmafContext* vmaf = NULL;
  CHECK_EQ_INT(vmaf_init(NULL, kQuiet), -EINVAL);
  CHECK_EQ_INT(vmaf_close(NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_init(&vmaf, kQuiet), 0);
  if (!vmaf) return;

  CHECK_EQ_INT(vmaf_use_feature(NULL, "psnr", NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, NULL, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "no_such_feature", NULL), -EINVAL);
  VmafFeatureDictionary* d = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&d, "no_such_option", "1"), 0);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", d), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_dictionary_free(&d), 0); /* still the caller's */
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_use_features_from_model_collection(vmaf, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", NULL), 0);

  VmafModel* model = NULL;
  VmafModelConfig cfg = {.name = "vmaf"};
  CHECK_EQ_INT(vmaf_model_load(&model, &cfg, "vmaf_v0.6.1"), 0);

  VmafPicture ref, dist;
  CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 8, 64, 48, 100, 110), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, NULL, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_read_pictures(NULL, &ref, &dist, 0), -EINVAL);
  /* Scores before the flush: none yet. */
  double s = -1;
  CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0) < 0, "score before any frame");
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 0), 0);
  CHECK(ref.ref == NULL && dist.ref == NULL, "the context took both pictures");

  /* Wrong size (the first picture set it): refused, still the caller's. */
  CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 8, 32, 48, 100, 110), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL);
  CHECK(ref.ref != NULL && dist.ref != NULL, "refused pictures stay the caller's");
  CHECK_EQ_INT(vmaf_picture_unref(&ref), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&dist), 0);
  /* Reference and distorted of different sizes, formats, bit depths. */
  CHECK_EQ_INT(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 48), 0);
  CHECK_EQ_INT(vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV444P, 8, 64, 48), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_unref(&dist), 0);
  CHECK_EQ_INT(vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 10, 64, 48), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 1), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_unref(&dist), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&ref), 0);
  /* A picture vmaf_picture_alloc() did not make. */
  VmafPicture fake;
  memset(&fake, 0, sizeof fake);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &fake, &fake, 1), -EINVAL);
  /* An index out of order. */
  CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 8, 64, 48, 100, 110), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 5), -EINVAL);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 1), 0);

  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0); /* flush */
  CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 8, 64, 48, 100, 110), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 2), -EINVAL); /* after the flush */
  CHECK_EQ_INT(vmaf_picture_unref(&ref), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&dist), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), -EINVAL); /* a second flush */

  /* Values 100 and 110 everywhere: MSE 100, PSNR 10 log10(255^2 / 100). */
  const double psnr = 10. * log10(255. * 255. / 100.);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 1), 0);
  CHECK(fabs(s - psnr) < 1e-9, "psnr_y %.17g, expected %.17g", s, psnr);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_cb", VMAF_POOL_METHOD_MEAN, &s, 0, 1), 0);
  CHECK(fabs(s - psnr) < 1e-9, "pooled psnr_cb %.17g", s);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 2), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "no_such_feature", &s, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_y", NULL, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, NULL, &s, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 1, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 1),
               -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_NB, &s, 0, 1), -EINVAL);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 9), -EINVAL);
  /* A model the context was not given. */
  CHECK_EQ_INT(vmaf_score_at_index(vmaf, model, &s, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, 1), -EINVAL);
  CHECK_EQ_INT(vmaf_score_at_index(vmaf, NULL, &s, 0), -EINVAL);
  VmafModelCollectionScore cs;
  CHECK_EQ_INT(vmaf_score_at_index_model_collection(vmaf, NULL, &cs, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_write_output(vmaf, NULL, VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
  CHECK_EQ_INT(vmaf_write_output(vmaf, "/tmp/x.json", VMAF_OUTPUT_FORMAT_NONE), -EINVAL);
  CHECK(vmaf_write_output(vmaf, "/no/such/dir/out.json", VMAF_OUTPUT_FORMAT_JSON) < 0,
        "a folder that does not exist");
  vmaf_model_destroy(model);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);

  /* Odd sizes, 10 bits: libvmaf's chroma planes (w >> 1) fill VQX's
   * ((w + 1) >> 1, the last column and row repeated). Values 400 and 440
   * everywhere: PSNR 10 log10(1023^2 / 1600), peak (1 << bpc) - 1. */
  CHECK_EQ_INT(vmaf_init(&vmaf, kQuiet), 0);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", NULL), 0);
  for (unsigned i = 0; i < 2; ++i) {
    CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 10, 33, 17, 400, 440), 0);
    CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
  }
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
  const double psnr10 = 10. * log10(1023. * 1023. / 1600.);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_cr", &s, 1), 0);
  CHECK(fabs(s - psnr10) < 1e-9, "10-bit psnr_cr %.17g, expected %.17g", s, psnr10);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MAX, &s, 0, 1), 0);
  CHECK(fabs(s - psnr10) < 1e-9, "10-bit psnr_y %.17g, expected %.17g", s, psnr10);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);

  /* Samples above the bit depth; a flush with no frames. */
  CHECK_EQ_INT(vmaf_init(&vmaf, kQuiet), 0);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", NULL), 0);
  CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 10, 64, 48, 1023, 2000), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_picture_unref(&ref), 0);
  CHECK_EQ_INT(vmaf_picture_unref(&dist), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0), -EINVAL);
  CHECK(vmaf_write_output(vmaf, "/tmp/vqx_capi_never.json", VMAF_OUTPUT_FORMAT_JSON) < 0,
        "no output without frames");
  CHECK_EQ_INT(vmaf_close(vmaf), 0);
}

static void test_preallocated_pictures(void) {
  VmafContext* vmaf = NULL;
  CHECK_EQ_INT(vmaf_init(&vmaf, kQuiet), 0);
  if (!vmaf) return;
  VmafPicture a, b, c;
  VmafPictureConfiguration cfg = {
      .pic_params = {.w = 64, .h = 48, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P}, .pic_cnt = 2};
  VmafPictureConfiguration none = cfg;
  none.pic_cnt = 0;
  VmafPictureConfiguration bad = cfg;
  bad.pic_params.w = 0;
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &a), -EINVAL); /* no pool yet */
  CHECK_EQ_INT(vmaf_preallocate_pictures(NULL, cfg), -EINVAL);
  CHECK_EQ_INT(vmaf_preallocate_pictures(vmaf, none), -EINVAL);
  CHECK_EQ_INT(vmaf_preallocate_pictures(vmaf, bad), -EINVAL);
  CHECK_EQ_INT(vmaf_preallocate_pictures(vmaf, cfg), 0);
  CHECK_EQ_INT(vmaf_preallocate_pictures(vmaf, cfg), -EINVAL); /* once */
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, NULL), -EINVAL);
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(NULL, &a), -EINVAL);

  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", NULL), 0);
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &a), 0);
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &b), 0);
  CHECK(a.data[0] != b.data[0] && a.w[0] == 64 && a.h[1] == 24 && a.stride[0] == 64 &&
            b.ref != NULL && b.pix_fmt == VMAF_PIX_FMT_YUV420P,
        "two pictures of the pool");
  void* const first = a.data[0];
  fill(&a, 50);
  fill(&b, 60);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &a, &b, 0), 0); /* both back in the pool */
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &a), 0);
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &b), 0);
  CHECK(a.data[0] == first || b.data[0] == first, "the pool's pictures come back");
  fill(&a, 50);
  fill(&b, 60);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, &a, &b, 1), 0);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
  const double psnr = 10. * log10(255. * 255. / 100.);
  double s = 0;
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 1), 0);
  CHECK(fabs(s - psnr) < 1e-9, "psnr_y %.17g, expected %.17g", s, psnr);
  /* A picture may outlive its context. */
  CHECK_EQ_INT(vmaf_fetch_preallocated_picture(vmaf, &c), 0);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);
  CHECK(((unsigned char*)c.data[0])[0] == 50 || ((unsigned char*)c.data[0])[0] == 60,
        "a used picture keeps its samples");
  CHECK_EQ_INT(vmaf_picture_unref(&c), 0);
}

/* Scores computed elsewhere, imported: reported, pooled and written as the
 * context's own; a name the context computes, a second value for a frame, a
 * value that is not a number and an import after the flush are refused. */
static int file_holds(const char* path, const char* text);

static void test_imported_scores(const char* out_dir) {
  VmafContext* vmaf = NULL;
  CHECK_EQ_INT(vmaf_init(&vmaf, kQuiet), 0);
  if (!vmaf) return;
  VmafModel* model = NULL;
  VmafModelConfig mcfg = {.name = "vmaf"};
  CHECK_EQ_INT(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "psnr", NULL), 0);
  CHECK_EQ_INT(vmaf_import_feature_score(NULL, "external", 1.0, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, NULL, 1.0, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "", 1.0, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "psnr_y", 1.0, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "external", NAN, 0), -EINVAL);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "external", 1.5, 0), 0);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "external", 9.0, 0), -EINVAL); /* twice */
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "vmaf", 1.0, 0), 0);
  /* A model would now write a name whose values are imported. */
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, model), -EINVAL);
  VmafPicture ref, dist;
  for (unsigned i = 0; i < 2; ++i) {
    CHECK_EQ_INT(pair(&ref, &dist, VMAF_PIX_FMT_YUV420P, 8, 64, 48, 100, 110), 0);
    CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
  }
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "external", 2.5, 1), 0); /* after its frame */
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
  CHECK_EQ_INT(vmaf_import_feature_score(vmaf, "external", 3.0, 2), -EINVAL); /* after flush */
  double s = 0;
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "external", &s, 1), 0);
  CHECK(s == 2.5, "imported value at frame 1: %.17g", s);
  CHECK_EQ_INT(vmaf_feature_score_pooled(vmaf, "external", VMAF_POOL_METHOD_MEAN, &s, 0, 1), 0);
  CHECK(s == 2.0, "imported values pooled: %.17g", s);
  CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "vmaf", &s, 1), -EINVAL); /* frame 0 only */
  char path[1024];
  snprintf(path, sizeof path, "%s/imported.json", out_dir);
  CHECK_EQ_INT(vmaf_write_output(vmaf, path, VMAF_OUTPUT_FORMAT_JSON), 0);
  CHECK(file_holds(path, "\"external\": 2.500000"), "%s holds the imported values", path);
  vmaf_model_destroy(model);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);
}

/* ---- the P9 pair against its golden JSON ------------------------------ */

static const char* const kIntegerFeatures[] = {
    "integer_adm2",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_vif_scale0",
    "integer_vif_scale1",
    "integer_vif_scale2",
    "integer_vif_scale3",
    "integer_motion2",
    "integer_adm2_egl_1",
    "integer_vif_scale0_egl_1",
    "integer_vif_scale1_egl_1",
    "integer_vif_scale2_egl_1",
    "integer_vif_scale3_egl_1",
    "integer_aim",
    "integer_adm3",
};
static const char* const kModels[] = {"vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg",
                                      "vmaf_b_v0.6.3"};
static const char* const kCollection[] = {"vmaf_b_v0.6.3_bagging", "vmaf_b_v0.6.3_stddev",
                                          "vmaf_b_v0.6.3_ci_p95_lo", "vmaf_b_v0.6.3_ci_p95_hi"};
static const struct {
  const char* key;
  enum VmafPoolingMethod method;
} kMethods[] = {{"min", VMAF_POOL_METHOD_MIN},
                {"max", VMAF_POOL_METHOD_MAX},
                {"mean", VMAF_POOL_METHOD_MEAN},
                {"harmonic_mean", VMAF_POOL_METHOD_HARMONIC_MEAN}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned read_pair(VmafContext* vmaf, const char* data_dir, int preallocated) {
  char path[1024];
  Y4m r, d;
  snprintf(path, sizeof path, "%s/P9_tiny_176x144_420p8.y4m", data_dir);
  const int ro = y4m_open(&r, path);
  snprintf(path, sizeof path, "%s/P9_tiny_176x144_420p8__x264-crf45.y4m", data_dir);
  const int dopen = y4m_open(&d, path);
  CHECK(ro == 0 && dopen == 0, "the P9 Y4M pair");
  unsigned n = 0;
  while (ro == 0 && dopen == 0) {
    VmafPicture ref, dist;
    if (preallocated) {
      if (vmaf_fetch_preallocated_picture(vmaf, &ref) != 0) break;
      if (vmaf_fetch_preallocated_picture(vmaf, &dist) != 0) break;
    } else {
      if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, r.w, r.h) != 0) break;
      if (vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, d.w, d.h) != 0) break;
    }
    const int a = y4m_read(&r, &ref), b = y4m_read(&d, &dist);
    if (a != 1 || b != 1) {
      CHECK(a == 0 && b == 0, "frame %u: read %d %d", n, a, b);
      vmaf_picture_unref(&ref);
      vmaf_picture_unref(&dist);
      break;
    }
    CHECK_EQ_INT(vmaf_read_pictures(vmaf, &ref, &dist, n), 0);
    ++n;
  }
  if (r.f) fclose(r.f);
  if (d.f) fclose(d.f);
  CHECK_EQ_INT(vmaf_read_pictures(vmaf, NULL, NULL, 0), 0);
  return n;
}

static int compare(const char* what, unsigned index, const char* name, double ours, double golden,
                   double tolerance) {
  const int ok = tolerance == 0 ? ours == golden : fabs(ours - golden) <= tolerance;
  CHECK(ok, "%s %u %s: %.17g, golden %.17g", what, index, name, ours, golden);
  return 1;
}

static int file_holds(const char* path, const char* text) {
  long size = 0;
  char* s = read_file(path, &size);
  const int found = s && size > 0 && strstr(s, text) != NULL;
  free(s);
  return found;
}

static void test_contexts_in_threads(const char* data_dir, const char* golden);

static void test_golden(const char* data_dir, const char* models_dir, const char* out_dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/P9.models.json", data_dir);
  char* golden = read_file(path, NULL);
  CHECK(golden != NULL, "%s", path);
  if (!golden) return;

  VmafContext* vmaf = NULL;
  VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR,
                           .n_threads = 2,
                           .n_subsample = 1,
                           .cpumask = 0,
                           .gpumask = 0};
  CHECK_EQ_INT(vmaf_init(&vmaf, cfg), 0);

  VmafModel *v061 = NULL, *v4k = NULL, *neg = NULL, *b_main = NULL;
  VmafModelCollection* b = NULL;
  VmafModelConfig c061 = {.name = "vmaf_v0.6.1"};
  CHECK_EQ_INT(vmaf_model_load(&v061, &c061, "vmaf_v0.6.1"), 0);
  VmafModelConfig c4k = {.name = "vmaf_4k_v0.6.1"};
  snprintf(path, sizeof path, "%s/vmaf_4k_v0.6.1.json", models_dir);
  CHECK_EQ_INT(vmaf_model_load_from_path(&v4k, &c4k, path), 0);
  /* vmaf_v0.6.1neg is vmaf_v0.6.1 with both enhancement gain limits at 1. */
  VmafModelConfig cneg = {.name = "vmaf_v0.6.1neg"};
  CHECK_EQ_INT(vmaf_model_load(&neg, &cneg, "vmaf_v0.6.1"), 0);
  VmafFeatureDictionary* o = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&o, "vif_enhn_gain_limit", "1.0"), 0);
  CHECK_EQ_INT(vmaf_model_feature_overload(neg, "vif", o), 0);
  o = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&o, "adm_enhn_gain_limit", "1.00"), 0);
  CHECK_EQ_INT(vmaf_model_feature_overload(neg, "adm", o), 0);
  VmafModelConfig cb = {.name = "vmaf_b_v0.6.3"};
  CHECK_EQ_INT(vmaf_model_collection_load(&b_main, &b, &cb, "vmaf_b_v0.6.3"), 0);
  if (!v061 || !v4k || !neg || !b_main || !b || !vmaf) {
    free(golden);
    return;
  }

  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, v061), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, v061), 0); /* once is enough; twice is fine */
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, v4k), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, neg), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, b_main), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model_collection(vmaf, b), 0);
  VmafFeatureDictionary* adm = NULL;
  CHECK_EQ_INT(vmaf_feature_dictionary_set(&adm, "debug", "true"), 0);
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "adm", adm), 0); /* the context frees it */
  CHECK_EQ_INT(vmaf_use_feature(vmaf, "float_ssim", NULL), 0);

  const unsigned n = read_pair(vmaf, data_dir, 0);
  CHECK(n == 10, "P9 has 10 frames, read %u", n);

  unsigned compared = 0;
  for (unsigned i = 0; i < n; ++i) {
    double ours = 0, want = 0;
    for (size_t f = 0; f < COUNT(kIntegerFeatures); ++f) {
      CHECK(golden_at(golden, i, kIntegerFeatures[f], &want) == 0, "golden %s",
            kIntegerFeatures[f]);
      CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, kIntegerFeatures[f], &ours, i), 0);
      compared += compare("frame", i, kIntegerFeatures[f], ours, want, 0);
    }
    VmafModel* models[] = {v061, v4k, neg, b_main};
    for (size_t m = 0; m < COUNT(kModels); ++m) {
      CHECK(golden_at(golden, i, kModels[m], &want) == 0, "golden %s", kModels[m]);
      CHECK_EQ_INT(vmaf_score_at_index(vmaf, models[m], &ours, i), 0);
      compared += compare("frame", i, kModels[m], ours, want, 1e-9);
    }
    VmafModelCollectionScore cs;
    memset(&cs, 0, sizeof cs);
    CHECK_EQ_INT(vmaf_score_at_index_model_collection(vmaf, b, &cs, i), 0);
    CHECK(cs.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP, "collection score type");
    const double got[] = {cs.bootstrap.bagging_score, cs.bootstrap.stddev, cs.bootstrap.ci.p95.lo,
                          cs.bootstrap.ci.p95.hi};
    for (size_t k = 0; k < COUNT(kCollection); ++k) {
      CHECK(golden_at(golden, i, kCollection[k], &want) == 0, "golden %s", kCollection[k]);
      compared += compare("frame", i, kCollection[k], got[k], want, 1e-9);
    }
    /* float_ssim: no golden in this file; a value in (0, 1]. */
    CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "float_ssim", &ours, i), 0);
    CHECK(ours > 0.5 && ours <= 1.0, "float_ssim %g", ours);
  }

  for (size_t k = 0; k < COUNT(kMethods); ++k) {
    double ours = 0, want = 0;
    VmafModel* models[] = {v061, v4k, neg, b_main};
    for (size_t m = 0; m < COUNT(kModels); ++m) {
      CHECK(golden_pooled(golden, kModels[m], kMethods[k].key, &want) == 0, "golden pooled");
      CHECK_EQ_INT(vmaf_score_pooled(vmaf, models[m], kMethods[k].method, &ours, 0, n - 1), 0);
      compared += compare(kMethods[k].key, n, kModels[m], ours, want, 1e-9);
    }
    /* Pooled exact features are sums in the reference's order: exact. */
    for (size_t f = 0; f < COUNT(kIntegerFeatures); ++f) {
      CHECK(golden_pooled(golden, kIntegerFeatures[f], kMethods[k].key, &want) == 0, "golden");
      CHECK_EQ_INT(
          vmaf_feature_score_pooled(vmaf, kIntegerFeatures[f], kMethods[k].method, &ours, 0, n - 1),
          0);
      compared += compare(kMethods[k].key, n, kIntegerFeatures[f], ours, want, 0);
    }
    VmafModelCollectionScore cs;
    CHECK_EQ_INT(vmaf_score_pooled_model_collection(vmaf, b, kMethods[k].method, &cs, 0, n - 1), 0);
    const double got[] = {cs.bootstrap.bagging_score, cs.bootstrap.stddev, cs.bootstrap.ci.p95.lo,
                          cs.bootstrap.ci.p95.hi};
    for (size_t c = 0; c < COUNT(kCollection); ++c) {
      CHECK(golden_pooled(golden, kCollection[c], kMethods[k].key, &want) == 0, "golden");
      compared += compare(kMethods[k].key, n, kCollection[c], got[c], want, 1e-9);
    }
  }
  /* A range: frames 2..5 of vmaf_v0.6.1, mean and min from the golden frames. */
  double sum = 0, min = 1e300, ours = 0;
  for (unsigned i = 2; i <= 5; ++i) {
    double v = 0;
    CHECK(golden_at(golden, i, "vmaf_v0.6.1", &v) == 0, "golden");
    sum += v;
    min = v < min ? v : min;
  }
  CHECK_EQ_INT(vmaf_score_pooled(vmaf, v061, VMAF_POOL_METHOD_MEAN, &ours, 2, 5), 0);
  compared += compare("mean 2..5", 0, "vmaf_v0.6.1", ours, sum / 4, 1e-9);
  CHECK_EQ_INT(vmaf_score_pooled(vmaf, v061, VMAF_POOL_METHOD_MIN, &ours, 2, 5), 0);
  compared += compare("min 2..5", 0, "vmaf_v0.6.1", ours, min, 1e-9);
  CHECK_EQ_INT(vmaf_score_pooled(vmaf, v061, VMAF_POOL_METHOD_MEAN, &ours, 0, n), -EINVAL);

  /* Every output format; each file names the models' scores. */
  static const struct {
    const char* file;
    enum VmafOutputFormat fmt;
    const char* text;
  } kOutputs[] = {{"out.xml", VMAF_OUTPUT_FORMAT_XML, "vmaf_v0.6.1neg=\""},
                  {"out.json", VMAF_OUTPUT_FORMAT_JSON, "\"vmaf_v0.6.1neg\": "},
                  {"out.csv", VMAF_OUTPUT_FORMAT_CSV, "vmaf_v0.6.1neg,"},
                  {"out.sub", VMAF_OUTPUT_FORMAT_SUB, "vmaf_v0.6.1neg: "}};
  for (size_t k = 0; k < COUNT(kOutputs); ++k) {
    snprintf(path, sizeof path, "%s/%s", out_dir, kOutputs[k].file);
    remove(path);
    CHECK_EQ_INT(vmaf_write_output(vmaf, path, kOutputs[k].fmt), 0);
    CHECK(file_holds(path, kOutputs[k].text), "%s holds '%s'", path, kOutputs[k].text);
  }
  snprintf(path, sizeof path, "%s/out.json", out_dir);
  CHECK(file_holds(path, "\"vmaf_b_v0.6.3_ci_p95_hi\": ") && file_holds(path, "\"float_ssim\": "),
        "the JSON has every score");

  vmaf_model_destroy(v061);
  vmaf_model_destroy(v4k);
  vmaf_model_destroy(neg);
  vmaf_model_destroy(b_main);
  vmaf_model_collection_destroy(b);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);
  printf("golden: %u values compared with P9.models.json\n", compared);

  /* n_subsample 2, no threads, preallocated pictures: frames 0, 2, 4, ...
   * are scored (the temporal motion still sees every frame); the others
   * have no score. */
  VmafConfiguration sub = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 0, .n_subsample = 2};
  CHECK_EQ_INT(vmaf_init(&vmaf, sub), 0);
  /* The default name, "vmaf"; DISABLE_TRANSFORM has no effect at loading
   * (libvmaf 3.2.0), and clipping to [0, 100] none on P9's scores. */
  VmafModelConfig plain = {
      .name = NULL, .flags = VMAF_MODEL_FLAG_DISABLE_TRANSFORM | VMAF_MODEL_FLAG_DISABLE_CLIP};
  VmafModel *m = NULL, *t = NULL;
  CHECK_EQ_INT(vmaf_model_load(&m, &plain, "vmaf_v0.6.1"), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, m), 0);
  /* ENABLE_TRANSFORM applies vmaf_v0.6.1's score_transform, "enabled":
   * false in its file: 1.70674692 + 1.72643844 x - 0.00705305 x^2, at
   * least x (out_gte_in), clipped to [0, 100]. */
  VmafModelConfig transformed = {.name = "vmaf_t", .flags = VMAF_MODEL_FLAG_ENABLE_TRANSFORM};
  CHECK_EQ_INT(vmaf_model_load(&t, &transformed, "vmaf_v0.6.1"), 0);
  CHECK_EQ_INT(vmaf_use_features_from_model(vmaf, t), 0);
  VmafPictureConfiguration pool = {
      .pic_params = {.w = 176, .h = 144, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P}, .pic_cnt = 2};
  CHECK_EQ_INT(vmaf_preallocate_pictures(vmaf, pool), 0);
  CHECK(read_pair(vmaf, data_dir, 1) == 10, "10 frames");
  sum = 0;
  for (unsigned i = 0; i < 10; i += 2) {
    double want = 0;
    CHECK(golden_at(golden, i, "vmaf_v0.6.1", &want) == 0, "golden");
    CHECK_EQ_INT(vmaf_score_at_index(vmaf, m, &ours, i), 0);
    compare("subsampled frame", i, "vmaf", ours, want, 1e-9);
    CHECK_EQ_INT(vmaf_feature_score_at_index(vmaf, "vmaf", &ours, i), 0);
    compare("subsampled frame", i, "vmaf (by name)", ours, want, 1e-9);
    double y = 0.;
    y += 1.70674692;
    y += 1.72643844 * want;
    y += -0.00705305 * want * want;
    y = y < want ? want : y;
    y = y > 100. ? 100. : y;
    CHECK_EQ_INT(vmaf_score_at_index(vmaf, t, &ours, i), 0);
    compare("subsampled frame", i, "vmaf_t", ours, y, 1e-8);
    CHECK(ours > want + 1., "the transform raises %g to %g", want, ours);
    sum += want;
  }
  CHECK(vmaf_score_at_index(vmaf, m, &ours, 1) < 0, "frame 1 is not scored");
  CHECK_EQ_INT(vmaf_score_pooled(vmaf, m, VMAF_POOL_METHOD_MEAN, &ours, 0, 9), 0);
  compare("subsampled mean", 0, "vmaf", ours, sum / 5, 1e-9);
  vmaf_model_destroy(m);
  vmaf_model_destroy(t);
  CHECK_EQ_INT(vmaf_close(vmaf), 0);

  test_contexts_in_threads(data_dir, golden);
  free(golden);
}

/* Contexts are independent: two threads, each with a context of its own
 * (one with worker threads, one without), at once; each gives the golden
 * scores. The threads only record; the main thread checks. */
typedef struct {
  const char* data_dir;
  unsigned n_threads;
  int err;
  unsigned frames;
  double vmaf[16];
} ThreadRun;

static int run_in_thread(void* arg) {
  ThreadRun* run = arg;
  VmafContext* vmaf = NULL;
  VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = run->n_threads};
  run->err = vmaf_init(&vmaf, cfg);
  if (run->err) return 0;
  VmafModel* m = NULL;
  VmafModelConfig mcfg = {.name = "vmaf"};
  run->err = vmaf_model_load(&m, &mcfg, "vmaf_v0.6.1");
  if (!run->err) run->err = vmaf_use_features_from_model(vmaf, m);
  char path[1024];
  Y4m r = {0}, d = {0};
  snprintf(path, sizeof path, "%s/P9_tiny_176x144_420p8.y4m", run->data_dir);
  if (!run->err && y4m_open(&r, path) != 0) run->err = -ENOENT;
  snprintf(path, sizeof path, "%s/P9_tiny_176x144_420p8__x264-crf45.y4m", run->data_dir);
  if (!run->err && y4m_open(&d, path) != 0) run->err = -ENOENT;
  while (!run->err && run->frames < 16) {
    VmafPicture ref, dist;
    if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, r.w, r.h) ||
        vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, d.w, d.h)) {
      run->err = -ENOMEM;
      break;
    }
    const int a = y4m_read(&r, &ref), b = y4m_read(&d, &dist);
    if (a != 1 || b != 1) {
      vmaf_picture_unref(&ref);
      vmaf_picture_unref(&dist);
      break;
    }
    run->err = vmaf_read_pictures(vmaf, &ref, &dist, run->frames++);
  }
  if (r.f) fclose(r.f);
  if (d.f) fclose(d.f);
  if (!run->err) run->err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
  for (unsigned i = 0; !run->err && i < run->frames; ++i) {
    run->err = vmaf_score_at_index(vmaf, m, &run->vmaf[i], i);
  }
  vmaf_model_destroy(m);
  vmaf_close(vmaf);
  return 0;
}

static void test_contexts_in_threads(const char* data_dir, const char* golden) {
  ThreadRun runs[2] = {{.data_dir = data_dir, .n_threads = 2},
                       {.data_dir = data_dir, .n_threads = 0}};
  thrd_t threads[2];
  int started[2] = {0, 0};
  for (int t = 0; t < 2; ++t) {
    started[t] = thrd_create(&threads[t], run_in_thread, &runs[t]) == thrd_success;
    CHECK(started[t], "thread %d started", t);
  }
  for (int t = 0; t < 2; ++t) {
    if (started[t]) thrd_join(threads[t], NULL);
    CHECK_EQ_INT(runs[t].err, 0);
    CHECK(runs[t].frames == 10, "thread %d read %u frames", t, runs[t].frames);
    for (unsigned i = 0; i < runs[t].frames; ++i) {
      double want = 0;
      CHECK(golden_at(golden, i, "vmaf_v0.6.1", &want) == 0, "golden");
      compare("thread frame", i, "vmaf", runs[t].vmaf[i], want, 1e-9);
    }
  }
}

int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "errors") == 0) {
    test_version();
    test_pictures();
    test_dictionaries_and_models();
    test_context_errors();
    test_preallocated_pictures();
    test_imported_scores(argv[2]);
  } else if (argc >= 5 && strcmp(argv[1], "golden") == 0) {
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/P9.models.json", argv[2]);
    FILE* f = fopen(probe, "rb");
    if (!f) {
      printf("SKIP: %s is not there (the bundled corpus subset)\n", probe);
      return 77;
    }
    fclose(f);
    test_golden(argv[2], argv[3], argv[4]);
  } else {
    fprintf(stderr, "usage: %s errors OUT_DIR | golden DATA_DIR MODELS_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}

// The frame-protocol contract (ARCHITECTURE.md invariant 3, docs/gpu.md),
// checked on source text, without a device:
//   vendor               only src/gpu/vendor/ names CUDA or HIP functions,
//                        types and headers;
//   clear-before-upload  no function queues a clear (a memset on a stream,
//                        or a helper or macro that queues one) and then
//                        uploads (directly or through a helper or macro);
//   twin-uploads         a twin (a class deriving from Twin, or any code in
//                        src/metrics/) never uploads;
//   allocation-clear     no clear is queued where memory is allocated
//                        (init, allocate*, create*, make*, reserve*, setup*,
//                        constructors): a clear at allocation is no
//                        substitute for the per-frame clear in Twin::clear;
//   atomic               atomics appear only in src/gpu/reduce.cuh (whose
//                        add takes integers only: no float sums by atomics);
//   device-code-placement  device code (__global__, __device__, __shared__,
//                        __constant__, a kernel launch) only in the GPU
//                        sources, so that the rules above see all of it: a
//                        kernel in a plain header would escape them. Code
//                        both twins share (a family's params.hpp, the SSIM
//                        per-position formulas) is plain constexpr C++.
// Calls are found through line breaks, comments and macros. They are
// matched by name, not type: two functions of one name count as one (an
// edge that would make a function reach itself is ignored, see check()), so
// give helpers that clear or upload names of their own.
#pragma once

#include <string>
#include <vector>

namespace vqx::contract {

struct SourceFile {
  std::string path;  // as reported, relative to the repository root
  std::string text;
};

struct Violation {
  std::string rule;
  std::string path;
  int line = 0;
  std::string message;
};

std::vector<Violation> check(const std::vector<SourceFile>& files);

// The GPU sources of a checkout: src/gpu/** and every .cu/.cuh and
// metrics gpu.hpp under src/.
std::vector<SourceFile> gpu_sources(const std::string& repo_root);
// Every other file under src/.
std::vector<SourceFile> other_sources(const std::string& repo_root);

// The device-code-placement rule over files that are not GPU sources.
std::vector<Violation> check_device_code_placement(const std::vector<SourceFile>& others);

std::string format(const Violation& v);

}  // namespace vqx::contract

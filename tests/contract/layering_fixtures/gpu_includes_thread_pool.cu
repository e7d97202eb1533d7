// expect: layering
// as: src/gpu/pipeline.cu
// Planted violation: the pipeline schedules its staging copy on the thread
// pool itself; the engine's scheduler owns the parallelism (the pipeline
// takes a core/fork_join.hpp).
#include "core/thread_pool.hpp"
#include "gpu/pipeline.hpp"

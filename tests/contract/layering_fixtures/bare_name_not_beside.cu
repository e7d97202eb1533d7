// expect: layering-bare-name
// as: src/gpu/pipeline.cu
// Planted violation: a bare name that is no file of src/gpu/: the compiler
// would look for it on the include path, past the rule.
#include "thread_pool.hpp"

// expect: layering
// as: src/core/feature_spec.cpp
// Planted violation: a directive spelled with spaces and a continuation.
  #  include \
     "output/report.hpp"

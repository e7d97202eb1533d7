// expect: layering
// as: src/io/y4m_reader.cpp
// Planted violation: a reader writes reports.
#include "output/writers.hpp"
#include "vqx/video_reader.hpp"

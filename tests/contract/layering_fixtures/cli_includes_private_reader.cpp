// expect: layering
// as: tools/vqx/main.cpp
// Planted violation: the CLI includes the readers' private header (it
// included src/io/video_reader.hpp before vqx/video_reader.hpp existed).
#include "io/reader_detail.hpp"
#include "vqx/vqx.hpp"

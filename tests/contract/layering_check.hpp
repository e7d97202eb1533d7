// The layering rule (docs/architecture.md "Layers"), checked on the
// #include directives of every source under include/, src/, tools/ and python/,
// without a compiler. Each folder may include the units its row of the
// table in layering_check.cpp names; a unit is a folder or, carved out of
// one, a single header. Rules:
//   layering            an include that the includer's row does not allow
//                       (src/core including gpu/pipeline.hpp, the CLI
//                       including a private src/ header, ...);
//   layering-bare-name  a bare name ("progress.hpp") that is no file beside
//                       the includer (the compiler would find it elsewhere
//                       on the include path, past the rule);
//   layering-unknown    what the table cannot place: an include naming no
//                       unit ("src/io/x.hpp", "../gpu/x.hpp", a computed
//                       #include), or an includer in a folder with no row.
// Our headers are named from their root ("core/options.hpp" under src/,
// "vqx/status.hpp" under include/), or by bare name beside the includer;
// <...> names third-party and system headers (and ours, if someone writes
// <core/...>: those are checked too). Commented-out includes and raw
// strings are ignored; includes under #if count.
#pragma once

#include <string>
#include <vector>

#include "contract_check.hpp"  // SourceFile, Violation

namespace vqx::contract {

std::vector<Violation> check_layering(const std::vector<SourceFile>& files);

// Every C/C++/CUDA source and header under include/, src/, tools/ and python/ of a
// checkout, sorted by path.
std::vector<SourceFile> layered_sources(const std::string& repo_root);

}  // namespace vqx::contract

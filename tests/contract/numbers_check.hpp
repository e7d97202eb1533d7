// "Every number once" (issue 9), checked on source text, without a device:
// a number that a family's CPU and GPU twins both use is written once, in
// the family's params.hpp, and the GPU sources use that definition.
//
//   numbers-float      a floating-point literal in a GPU source whose value a
//                      params.hpp it sees defines;
//   numbers-integer    an integer literal in a GPU source whose value a
//                      params.hpp it sees defines, unless the value is
//                      trivial (below);
//   numbers-constexpr  a const or constexpr variable of a GPU source whose
//                      initializer, written with a literal, evaluates to a
//                      value a params.hpp it sees defines (a re-definition
//                      under another name, e.g. kNsq = 4 * 32768 for
//                      kSigmaNsq = 2 * 65536).
//
// What a params.hpp defines: the value of every constexpr variable the
// check can evaluate (literals, the names defined before it, + - * / % << >>
// & | ^ ~, parentheses, T{x} and static_cast<T>(x)); every literal written in
// a constexpr variable's initializer or in a constexpr function's body (the
// 1.0e-10 of `kGainEps = 65536 * 1.0e-10`, a table's entries); and the value
// of every parenthesised constant expression there (the 32768 of
// `(T{1} << (kTapBits - 1))` in a rounding helper). static_asserts are
// tests, not definitions, and are skipped.
//
// Which params.hpp a GPU source sees: its family's
// (src/metrics/<family>/params.hpp) and every params.hpp it includes.
//
// Trivial values, never reported: the integers -16 to 16 and the powers of
// two up to 1024 (counts, indices, loop bounds, small shifts, block sizes,
// tiles and alignments: numbers whose meaning is local to the kernel), and
// the floats 0, 0.5, 1 and 2 and their negatives. Larger integers
// (rounding constants such as 32768 or 2048, shifts such as 17, taps) and
// every other float are checked.
#pragma once

#include <string>
#include <vector>

#include "contract_check.hpp"

namespace vqx::contract {

// Every src/metrics/<family>/params.hpp of a checkout.
std::vector<SourceFile> params_sources(const std::string& repo_root);

// The numbers rules over `gpu` (as gpu_sources() returns them), against the
// params headers in `params`.
std::vector<Violation> check_numbers(const std::vector<SourceFile>& gpu,
                                     const std::vector<SourceFile>& params);

}  // namespace vqx::contract

// What went wrong with one program of a batch, in one line: what `gpusynth eval` prints beside
// each candidate and the Python API's evaluate() returns.
#pragma once
#include <string>
#include <string_view>

#include "pipeline/batch_results.h"

namespace gs::pipeline {

// Program i's first compile error as "LINE:COL: message" within its source (with "(+N more)"
// when it had more), else its most frequent trap over the cases as "out_of_fuel x6"; empty when
// it compiled and nothing trapped (or the results keep no pairs).
std::string first_error(const BatchResults& r, u32 i, std::string_view source);

}  // namespace gs::pipeline

// The machine a benchmark ran on, for the JSON beside its table: CPU model, hardware threads,
// load at start, compiler, build type, git commit and date.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gs::bench {

std::string cpu_model();
nlohmann::json machine_info();

}  // namespace gs::bench

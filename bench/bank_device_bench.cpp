// bank_device: the value bank's enumeration (search/bank_enumerator.h) over ints and bools —
// where nearly every production is a heap-free instruction over banked words — with its chunks
// evaluated on the CPU (the direct path, one thread), on the host device (search/bank_device.h's
// reference: the same core, the device's bookkeeping) and on the CUDA device where there is one.
// Expressions evaluated per second, medians of the repeats, each device's ratio to the CPU's in
// the same repeat, and whether each banked the same expressions. A table on stdout, JSON beside
// it (bench/README.md).
//
//   bank_device_bench [--cases 50,200] [--budget 2000000] [--devices cpu,host,cuda] [--repeats 3]
//                     [--out FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "pipeline/pipeline.h"
#include "search/bank_device.h"
#include "search/bank_enumerator.h"
#include "search/bank_grammar.h"

namespace gs::bench {
namespace {

using search::bank::BankDevice;
using search::bank::BankEnumerator;
using search::bank::Cases;

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  return parts;
}

struct Run {
  double seconds = 0;
  u64 evaluated = 0, banked = 0, fingerprint = 0;  // fingerprint: the banked texts, hashed
};

// One enumeration of `budget` expressions over a, b (ints) on `cases`, with `device` or without.
Run enumerate(Cases& cases, std::unique_ptr<BankDevice> device, u64 budget) {
  const std::set<Type> types = {Type::Int, Type::Bool};
  std::vector<search::bank::Leaf> leaves = {{"a", cases.parameter(0)}, {"b", cases.parameter(1)}};
  for (const vm::Value& c : search::bank::small_constants(types))
    leaves.push_back({"c" + std::to_string(leaves.size()), search::bank::constant(c, cases)});
  BankEnumerator e(cases, std::move(leaves), search::bank::grammar(types, false, true), "a: int, b: int");
  if (device) e.evaluate_on(std::move(device));
  search::bank::EnumerationStats stats;
  const std::vector<u64> unmet(cases.count(), 12345);  // nothing meets it: the whole budget is spent
  const auto start = std::chrono::steady_clock::now();
  e.search(Type::Int, unmet, 16, budget, &stats);
  Run r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.evaluated = stats.evaluated;
  r.banked = e.count();
  u64 h = 14695981039346656037ull;
  for (u32 id = 0; id < e.count(); ++id)
    for (char ch : e.text(id)) h = (h ^ u8(ch)) * 1099511628211ull;
  r.fingerprint = h;
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int run(int argc, char** argv) {
  std::string cases_list = "50,200", devices_list = "cpu,host,cuda";
  u64 budget = 2'000'000;
  u32 repeats = 3;
  std::string out_path = std::string(GPUSYNTH_SOURCE_DIR) + "/bench/results/bank_device.json";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases"))
      cases_list = argv[i + 1];
    else if (!std::strcmp(argv[i], "--budget"))
      budget = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--devices"))
      devices_list = argv[i + 1];
    else if (!std::strcmp(argv[i], "--repeats"))
      repeats = u32(std::max(1ul, std::stoul(argv[i + 1])));
    else if (!std::strcmp(argv[i], "--out"))
      out_path = argv[i + 1];
    else {
      std::fprintf(stderr, "bank_device_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  std::vector<std::string> devices;
  for (const std::string& d : split(devices_list)) {
    std::string why;
    if (d == "cuda" && !pipeline::cuda_available(&why)) {
      std::printf("cuda: skipped (%s)\n", why.c_str());
      continue;
    }
    if (d != "cpu" && d != "host" && d != "cuda") {
      std::fprintf(stderr, "bank_device_bench: --devices takes cpu, host and cuda, not '%s'\n", d.c_str());
      return 2;
    }
    devices.push_back(d);
  }
  nlohmann::json rows = nlohmann::json::array();
  std::printf("%6s %6s %16s %10s %10s %6s\n", "cases", "device", "expressions/s", "vs cpu", "banked", "same");
  for (const std::string& text : split(cases_list)) {
    const u32 n = u32(std::stoul(text));
    std::mt19937_64 rng(n);
    std::vector<std::vector<vm::Value>> inputs;
    for (u32 k = 0; k < n; ++k)
      inputs.push_back(
          {vm::Value::of_int(i64(rng() % 2001) - 1000), vm::Value::of_int(i64(rng() % 41) - 20)});
    const std::vector<Type> params = {Type::Int, Type::Int};
    std::vector<std::vector<double>> rates(devices.size()), ratios(devices.size());
    std::vector<Run> last(devices.size());
    for (u32 rep = 0; rep < repeats; ++rep) {
      double cpu_rate = 0;
      for (size_t d = 0; d < devices.size(); ++d) {
        Cases cases(params, inputs, vm::Limits{});
        std::unique_ptr<BankDevice> device;
        if (devices[d] == "host") device = search::bank::make_host_bank_device(n);
        if (devices[d] == "cuda") device = search::bank::make_cuda_bank_device(n, 0);
        last[d] = enumerate(cases, std::move(device), budget);
        const double rate = double(last[d].evaluated) / last[d].seconds;
        rates[d].push_back(rate);
        if (devices[d] == "cpu") cpu_rate = rate;
        if (cpu_rate > 0) ratios[d].push_back(rate / cpu_rate);
      }
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      const bool same = last[d].fingerprint == last[0].fingerprint && last[d].banked == last[0].banked;
      const double ratio = ratios[d].empty() ? 0 : median(ratios[d]);
      std::printf("%6u %6s %16.0f %9.2fx %10llu %6s\n", n, devices[d].c_str(), median(rates[d]), ratio,
                  (unsigned long long)last[d].banked, same ? "yes" : "NO");
      rows.push_back({{"cases", n},
                      {"device", devices[d]},
                      {"expressions", last[d].evaluated},
                      {"expressions_per_second_median", median(rates[d])},
                      {"ratio_to_cpu_median", ratio},
                      {"banked", last[d].banked},
                      {"same_bank_as_first_device", same}});
    }
  }
  nlohmann::json doc = {{"benchmark", "bank_device"},
                        {"machine", machine_info()},
                        {"budget", budget},
                        {"repeats", repeats},
                        {"rows", rows}};
  std::ofstream(out_path) << doc.dump(2) << "\n";
  std::printf("one CPU thread; %llu expressions an enumeration; medians of %u repeats. JSON: %s\n",
              (unsigned long long)budget, repeats, out_path.c_str());
  return 0;
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) { return gs::bench::run(argc, argv); }

// gpusynth policy-data -o DATA.jsonl [--examples N] [--seed S] [--cases N] [--budget N]
//                      [--per-bank N] [--max-size N] [--lambda-budget N] [--list-forms 0|1]
// gpusynth policy-data -o DATA.jsonl --from-run RUN --suite DIR
//
// Data for the search policy, one JSON line a problem labelled with the productions its answer
// uses: self-play (search/policy_data.h: problems the value bank makes over random signatures and
// inputs), or the problems a campaign solved, labelled from its ledger (RUN/campaign.jsonl's
// "uses"). Written to DATA.jsonl.partial and renamed into place when whole.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "base/durable_file.h"
#include "cluster/ledger.h"
#include "jobs/command.h"
#include "jobs/options.h"
#include "search/policy_data.h"
#include "suites/suite.h"

namespace gs::jobs {
namespace {

// The ledger of the campaign in `run`, checked against the suite it searched; nullopt, saying why
// on stderr, when the run has none or it is another suite's.
std::optional<std::map<std::string, cluster::ProblemSummary>> run_ledger(
    const std::string& run, const std::vector<suites::Problem>& problems, const std::string& suite) {
  const std::string path = run + "/campaign.jsonl";
  if (!std::filesystem::is_regular_file(path)) {
    std::cerr << "gpusynth policy-data: " << path
              << ": no such file (--from-run names a campaign's RUN directory)\n";
    return std::nullopt;
  }
  std::map<std::string, cluster::ProblemSummary> ledger = cluster::read_ledger(path);
  if (!cluster::same_suite(ledger, problems, path, suite, std::cerr, " (give --suite the suite it searched)"))
    return std::nullopt;
  return ledger;
}

}  // namespace

int policy_data_command(const std::vector<std::string>& args) {
  search::PolicyDataConfig config;
  std::string out_path, run, suite;
  bool quiet = false;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("output,o", po::value(&out_path)->required(),
                                                    "the data file to write (JSON Lines)")(
      "examples,n", bounded(&config.examples, 1, 100'000'000), "problems to make")(
      "seed,s", at_least(&config.seed, 0), "random seed: the same seed makes the same file")(
      "cases", bounded(&config.cases, 1, 1000), "cases of each problem")(
      "budget", bounded(&config.budget, 1, 100'000'000), "expressions each bank enumerates")(
      "per-bank", bounded(&config.per_bank, 1, 100'000), "problems drawn from each bank at most")(
      "max-size", bounded(&config.max_size, 2, 64), "nodes of an answer at most")(
      "lambda-budget", bounded(&config.lambda_budget, 0, 100'000'000),
      "lambda bodies each bank enumerates over its sequence parameters (0: no lambda leaves)")(
      "list-forms", defaulted(&config.list_forms),
      "DeepCoder's one-node list forms in every other bank over an [int] (1), or in none (0)")(
      "from-run", po::value(&run),
      "instead: the problems this campaign's RUN directory solved, labelled by its ledger")(
      "suite", po::value(&suite), "with --from-run: the suite the campaign searched")(
      "quiet,q", po::bool_switch(&quiet), "no progress lines");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth policy-data -o DATA.jsonl [--examples N] [--seed S] [--cases N] [--budget N]\n"
      "                            [--per-bank N] [--max-size N] [--lambda-budget N] [--list-forms 0|1]\n"
      "       gpusynth policy-data -o DATA.jsonl --from-run RUN --suite DIR\n"
      "Makes problems for training the search policy: the value bank enumerates its grammar over random\n"
      "signatures and inputs, and each problem drawn from it is an expression's outputs, labelled with\n"
      "the productions and constants the expression uses (docs/search.md \"Policy data\"). With --from-run,\n"
      "the problems a campaign solved instead, labelled with what their solutions use.";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  if (run.empty() != suite.empty()) {
    std::cerr << "gpusynth policy-data: --from-run RUN and --suite DIR go together\n";
    return kExitUsage;
  }
  for (const char* self_play :
       {"examples", "seed", "cases", "budget", "per-bank", "max-size", "lambda-budget", "list-forms"})
    if (!run.empty() && vm.count(self_play) && !vm[self_play].defaulted()) {
      std::cerr << "gpusynth policy-data: --" << self_play
                << " makes self-play problems; it goes without --from-run, which takes the campaign's\n";
      return kExitUsage;
    }
  std::vector<suites::Problem> problems;
  std::optional<std::map<std::string, cluster::ProblemSummary>> ledger;
  if (!suite.empty()) {
    if (!suites::load_suite(suite, &problems, std::cerr)) return kExitUsage;
    if (!(ledger = run_ledger(run, problems, suite))) return kExitUsage;
  }

  std::error_code ec;
  if (std::filesystem::is_directory(out_path, ec)) {
    std::cerr << out_path << ": is a directory, not a file to write\n";
    return kExitUsage;
  }
  const std::string partial = out_path + ".partial";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << partial << ": cannot create file\n";
    return kExitUsage;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  Clock::time_point last_line = start;
  std::map<std::string, u64> uses;
  u64 banks = 0;
  try {
    if (ledger) {  // the problems it solved with a solution whose parts it named
      config.examples = 0;
      for (const suites::Problem& p : problems)
        if (auto it = ledger->find(p.name);
            it != ledger->end() && it->second.solved && !it->second.uses.empty()) {
          out << search::policy_example_json({p, "", 0, it->second.uses}) << '\n';
          for (const std::string& key : it->second.uses) ++uses[key];
          ++config.examples;
        }
    } else {
      search::make_policy_data(
          config,
          [&](const search::PolicyExample& e) {
            out << search::policy_example_json(e) << '\n';
            for (const std::string& key : e.uses) ++uses[key];
          },
          [&](u64 made, u64 banks_so_far) {
            banks = banks_so_far;
            if (!out) throw std::runtime_error(partial + ": cannot write");
            if (quiet || Clock::now() - last_line < std::chrono::seconds(5)) return;
            last_line = Clock::now();
            std::fprintf(stderr, "policy-data: %llu of %llu problems from %llu banks, %.0f s\n",
                         (unsigned long long)made, (unsigned long long)config.examples,
                         (unsigned long long)banks_so_far,
                         std::chrono::duration<double>(last_line - start).count());
          });
    }
    out.close();
    if (!out) throw std::runtime_error(partial + ": cannot write");
    commit_file(partial, out_path);
  } catch (const std::exception& e) {
    std::cerr << "gpusynth policy-data: " << e.what() << "\n";
    std::remove(partial.c_str());
    return kExitFailed;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (run.empty())
    std::printf("%llu problems from %llu banks in %.1f s -> %s\n", (unsigned long long)config.examples,
                (unsigned long long)banks, seconds, out_path.c_str());
  else
    std::printf("%llu problems that %s solved -> %s\n", (unsigned long long)config.examples, run.c_str(),
                out_path.c_str());
  std::printf("%zu productions, constants and lambda forms used; the most used:\n", uses.size());
  std::vector<std::pair<u64, std::string>> ranked;
  for (const auto& [key, count] : uses) ranked.push_back({count, key});
  std::sort(ranked.rbegin(), ranked.rend());
  for (size_t k = 0; k < std::min<size_t>(ranked.size(), 10); ++k)
    std::printf("  %8llu  %s\n", (unsigned long long)ranked[k].first, ranked[k].second.c_str());
  return kExitOk;
}

}  // namespace gs::jobs

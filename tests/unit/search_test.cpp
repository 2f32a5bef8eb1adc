// The search loop (search/search_loop.h) and `gpusynth search`: budgets, the first solution's id and
// iteration, shrinking, generalisation, determinism for a seed, and bad options.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cluster/ledger.h"
#include "cluster/run_files.h"
#include "cluster/run_lock.h"
#include "jobs/command.h"
#include "jobs/search_options.h"
#include "records/records.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "suites/cases.h"
#include "tests/unit/command_outcome.h"

namespace gs {
namespace {

const std::string kProblem = std::string(GPUSYNTH_SOURCE_DIR) + "/docs/examples/eval/count-odds.json";

suites::Problem count_odds() {
  std::string error;
  auto p = suites::load_problem(kProblem, &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

const char* const kCorrect =
    "fn solve(xs: [int]) -> int { let n = 0; for x in xs { if x % 2 != 0 { n = n + 1; } } return n; }";
const char* const kWrong = "fn solve(xs: [int]) -> int { return len(xs); }";

std::unique_ptr<pipeline::Pipeline> cpu() { return pipeline::make_pipeline(pipeline::Device::Cpu, {}); }

// Records what the loop reports.
struct Recorder final : search::SearchObserver {
  std::vector<search::IterationReport> reports;
  u64 proposals = 0;
  int solutions = 0;
  void on_batch(const search::IterationReport& r, const std::vector<search::Proposal>& p,
                const pipeline::BatchResults&) override {
    reports.push_back(r);
    proposals += p.size();
  }
  void on_solution(const search::SearchOutcome&) override { ++solutions; }
};

TEST(Search, ExternalCandidatesSolveAtTheRightCandidate) {
  suites::Problem p = count_odds();
  std::vector<std::string> sources(23, kWrong);
  sources.push_back(kCorrect);  // id 23: iteration 2 of batches of 10
  sources.push_back(kWrong);
  auto generator = search::make_external_generator(sources);
  search::SearchConfig config;
  config.batch = 10;
  Recorder seen;
  search::SearchOutcome r = search::run_search(p, *generator, *cpu(), config, &seen);
  ASSERT_TRUE(r.solved);
  EXPECT_EQ(r.solution_id, 23);
  EXPECT_EQ(r.solution_iteration, 2u);
  EXPECT_EQ(r.candidates, 25u);  // the solving iteration is evaluated whole
  EXPECT_EQ(r.solution, kCorrect);
  EXPECT_EQ(r.simplified, kCorrect);  // no syntax tree: nothing to shrink
  EXPECT_EQ(r.test_cases, p.test.size());
  EXPECT_TRUE(r.generalises);
  ASSERT_EQ(seen.reports.size(), 3u);
  EXPECT_EQ(seen.reports[2].first_id, 20);
  EXPECT_TRUE(seen.reports[2].solved);
  EXPECT_EQ(seen.solutions, 1);
}

// Asks the loop to stop after a number of batches (a campaign's SIGTERM).
struct StopAfter final : search::SearchObserver {
  u64 batches_left;
  u64 seen = 0;
  int solutions = 0;
  explicit StopAfter(u64 n) : batches_left(n) {}
  void on_batch(const search::IterationReport&, const std::vector<search::Proposal>&,
                const pipeline::BatchResults&) override {
    ++seen;
  }
  void on_solution(const search::SearchOutcome&) override { ++solutions; }
  bool stop_requested() override { return seen >= batches_left; }
};

TEST(Search, AStopRequestEndsTheSearchUnfinishedEvenInTheSolvingBatch) {
  suites::Problem p = count_odds();
  std::vector<std::string> sources(23, kWrong);
  sources.push_back(kCorrect);  // in the third batch of 10
  for (u64 stop_after : {1u, 3u}) {
    auto generator = search::make_external_generator(sources);
    search::SearchConfig config;
    config.batch = 10;
    StopAfter observer(stop_after);
    search::SearchOutcome r = search::run_search(p, *generator, *cpu(), config, &observer);
    EXPECT_TRUE(r.stopped) << stop_after;
    EXPECT_FALSE(r.solved)
        << stop_after;  // a solution in the last batch is not taken: the re-run finds it again
    EXPECT_EQ(r.iterations, stop_after);
    EXPECT_EQ(observer.seen, stop_after);
    EXPECT_EQ(observer.solutions, 0);
  }
  auto generator = search::make_external_generator(sources);
  search::SearchConfig config;
  config.batch = 10;
  StopAfter never(100);
  search::SearchOutcome r = search::run_search(p, *generator, *cpu(), config, &never);
  EXPECT_FALSE(r.stopped);
  EXPECT_TRUE(r.solved);
}

TEST(Search, StopsWhenTheGeneratorRunsOut) {
  suites::Problem p = count_odds();
  auto generator = search::make_external_generator(std::vector<std::string>(7, kWrong));
  search::SearchConfig config;
  config.batch = 5;
  search::SearchOutcome r = search::run_search(p, *generator, *cpu(), config);
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.candidates, 7u);
  EXPECT_EQ(r.iterations, 2u);
  EXPECT_EQ(r.best_source, kWrong);
}

TEST(Search, BudgetsBoundTheSearch) {
  suites::Problem p = count_odds();
  search::GeneratorSettings settings;
  settings.seed = 7;
  search::SearchConfig config;
  config.batch = 40;
  config.budget.candidates = 100;
  auto generator = search::make_random_generator(p.signature, settings);
  search::SearchOutcome r = search::run_search(p, *generator, *cpu(), config);
  if (!r.solved) {
    EXPECT_EQ(r.candidates, 100u);  // 40 + 40 + 20
    EXPECT_EQ(r.iterations, 3u);
  }
  config.budget = {0, 2, 0};
  generator = search::make_random_generator(p.signature, settings);
  r = search::run_search(p, *generator, *cpu(), config);
  if (!r.solved) {
    EXPECT_EQ(r.candidates, 80u);
  }
  config.budget = {};
  config.budget.candidates = 0;
  EXPECT_THROW(search::run_search(p, *generator, *cpu(), config), std::invalid_argument);
}

TEST(Search, RandomProgramsHaveTheProblemsSignatureAndAreDeterministic) {
  suites::Problem p = count_odds();
  search::GeneratorSettings settings;
  settings.seed = 99;
  auto a = search::make_random_generator(p.signature, settings);
  auto b = search::make_random_generator(p.signature, settings);
  std::vector<search::Proposal> x = a->propose(50, 3), y = b->propose(50, 3);
  pipeline::Sources sources;
  for (size_t k = 0; k < x.size(); ++k) {
    EXPECT_EQ(x[k].source, y[k].source);
    sources.add(x[k].source);
  }
  EXPECT_NE(a->propose(1, 4)[0].source, x[0].source);
  pipeline::BatchResults r;
  cpu()->run(sources, suites::problem_cases(p, suites::Split::Train), &r);
  for (u32 i = 0; i < r.programs; ++i)
    EXPECT_EQ(pipeline::status_name(r.program_status(i)), pipeline::status_name(pipeline::ProgramStatus::OK))
        << x[i].source;
}

using Outcome = testing::CommandOutcome;

Outcome search_cli(const std::vector<std::string>& args) {
  return testing::run_command(jobs::search_command, args);
}

std::string temp(const std::string& name, const std::optional<std::string>& content = std::nullopt) {
  return testing::temp_file(name, content);
}

TEST(SearchCommand, SolvesFromACandidateFileAndReadsAConfigFile) {
  std::string candidates = temp("search_candidates.txt", std::string(kWrong) + "\n---\n" + kCorrect + "\n");
  std::string ini = temp("search.ini", "generator = external\nbatch = 1\n# a comment\n");
  Outcome o = search_cli({"-p", kProblem, "--config", ini, "-c", candidates, "--device", "cpu"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("count-odds: solved after 2 candidates in 2 iterations"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(generalises)"), std::string::npos) << o.out;
  // The command line overrides the file: one batch of both.
  o = search_cli({"-p", kProblem, "--config", ini, "-c", candidates, "--batch", "2", "-q"});
  EXPECT_NE(o.out.find("after 2 candidates in 1 iterations"), std::string::npos) << o.out;
}

// A config file may hold any option, required ones too, and sections: lines before any section
// are for every command, [search] for this one, other sections (another command's) are skipped.
TEST(SearchCommand, AConfigFileHoldsRequiredOptionsAndSections) {
  std::string candidates =
      temp("search_candidates_sections.txt", std::string(kWrong) + "\n---\n" + kCorrect + "\n");
  std::string ini = temp("sections.ini", std::string("problem = ") + kProblem +
                                             "\nbatch = 1\n[campaign]\nsuite = nowhere\nbatch = 7\n"
                                             "[search]\ngenerator = external\ncandidates = " +
                                             candidates + "\n[trace]\nformat = csv\n");
  Outcome o = search_cli({"--config", ini, "--device", "cpu", "-q"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("count-odds: solved after 2 candidates in 2 iterations"), std::string::npos) << o.out;
  // A key this command does not know, in its own section, names the file.
  o = search_cli({"--config", temp("sections_bad.ini",
                                   std::string("problem = ") + kProblem + "\n[search]\ncolour = blue\n")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("sections_bad.ini"), std::string::npos) << o.err;
}

// --json writes the outcome for scripts: the same numbers as the summary lines.
TEST(SearchCommand, WritesTheOutcomeAsJson) {
  std::string candidates =
      temp("search_candidates_json.txt", std::string(kWrong) + "\n---\n" + kCorrect + "\n");
  std::string json = temp("search_outcome.json");
  Outcome o = search_cli({"-p", kProblem, "-g", "external", "-c", candidates, "--batch", "1", "--json", json,
                          "-q", "--device", "cpu"});
  ASSERT_EQ(o.code, 0) << o.err;
  std::ifstream in(json);
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["problem"], "count-odds");
  EXPECT_EQ(j["solved"], true);
  EXPECT_EQ(j["candidates"], 2);
  EXPECT_EQ(j["iterations"], 2);
  EXPECT_EQ(j["solution"]["id"], 1);
  EXPECT_EQ(j["solution"]["generalises"], true);
  EXPECT_EQ(j["solution"]["test_passed"], j["solution"]["test_cases"]);
  // '-': the JSON alone on stdout.
  o = search_cli(
      {"-p", kProblem, "-g", "external", "-c", candidates, "--json", "-", "-q", "--device", "cpu"});
  EXPECT_EQ(nlohmann::json::parse(o.out)["solved"], true) << o.out;
  o = search_cli(
      {"-p", kProblem, "-g", "external", "-c", candidates, "--json", "/nonexistent-dir/o.json", "-q"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("/nonexistent-dir/o.json: cannot write"), std::string::npos) << o.err;
}

// A usage error is one line that says what is wrong and where the options are listed.
TEST(SearchCommand, AUsageErrorIsOneLineWithAHelpHint) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--no-such-option"}, {}, {"-p", kProblem, "--budget", "many"}}) {
    Outcome o = search_cli(args);
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find("gpusynth search: "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("(gpusynth search --help lists the options)"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
}

TEST(SearchCommand, BadOptionsAreUsageErrors) {
  std::string candidates = temp("search_candidates2.txt", kWrong);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"-p", kProblem, "-g", "magic"}, "--generator must be"},
           {{"-p", kProblem, "-g", "external"}, "--candidates FILE goes with"},
           {{"-p", kProblem, "-c", candidates}, "--candidates FILE goes with"},
           {{"-p", kProblem, "--budget", "0"}, "give a budget"},
           {{"-p", kProblem, "--batch", "0"}, "the option '--batch' takes a number in [1, 1048576], not '0'"},
           {{"-p", kProblem, "--device", "tpu"}, "--device must be"},
           {{"-p", kProblem, "--case-scores", "close"}, "--case-scores must be error or pass"},
           {{"-p", kProblem, "--body-goal-budget", "-1"}, "--body-goal-budget takes auto or a number"},
           {{"-p", kProblem, "--body-goal-budget", "1e5"}, "not '1e5'"},
           {{"-p", kProblem, "--body-goal-budget", "1000000001"}, "in [0, 1000000000]"},
           {{"-p", kProblem, "--body-goal-budget", ""}, "--body-goal-budget takes auto or a number"},
           {{"-p", "/nonexistent/p.json"}, "/nonexistent/p.json"},
           {{"-p", kProblem, "--config", "/nonexistent/c.ini"}, "/nonexistent/c.ini"},
           {{"-p", kProblem, "--config", temp("bad.ini", "colour = blue\n")}, "bad.ini"},
           {{"-p", kProblem, "-g", "external", "-c", "/nonexistent/c.txt"}, "/nonexistent/c.txt"},
       }) {
    Outcome o = search_cli(args);
    EXPECT_EQ(o.code, 2) << message;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
  }
}

// --body-goal-budget auto is a third of the candidate budget, at least the enumeration's default,
// and no bound without one (a search bounded by --seconds or --iterations); a number is taken as it is.
TEST(SearchCommand, TheBodyGoalBudgetFollowsTheCandidateBudget) {
  auto goals = [](const std::string& text, u64 candidates) {
    jobs::SearchOptions o;
    o.generator = "enumerate";
    o.body_goal_budget = text;
    o.search.budget.candidates = candidates;
    o.search.budget.seconds = 60;
    std::string error;
    EXPECT_TRUE(jobs::check_search_options(o, &error)) << error;
    std::optional<search::GeneratorChoice> choice = jobs::generator_choice(o, &error);
    EXPECT_TRUE(choice) << error;
    return choice ? choice->settings.enumerate.body_goal_budget : 0;
  };
  EXPECT_EQ(goals("auto", 300000), search::EnumerateSettings{}.body_goal_budget);
  EXPECT_EQ(goals("auto", 1000), search::EnumerateSettings{}.body_goal_budget);
  EXPECT_EQ(goals("auto", 3000000), 1000000u);
  EXPECT_EQ(goals("auto", 0), search::kUnboundedBodyGoals);
  EXPECT_EQ(goals("0", 0), 0u);
  EXPECT_EQ(goals("7", 0), 7u);
  EXPECT_EQ(goals("1000000000", 300000), 1000000000u);
}

// GP lexicase on errors gets its graded errors from the pipeline the command makes, generation
// after generation (without them GP refuses: the error names PipelineConfig::grade).
TEST(SearchCommand, LexicaseOnErrorsRunsGenerations) {
  Outcome o = search_cli({"-p", kProblem, "-g", "gp", "--case-scores", "error", "--budget", "1500", "--batch",
                          "300", "--device", "cpu", "-q"});
  EXPECT_TRUE(o.code == 0 || o.code == 1) << o.err;
  EXPECT_EQ(o.err.find("PipelineConfig::grade"), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.find("solved after") != std::string::npos ||
              o.out.find("in 5 iterations") != std::string::npos)
      << o.out;
}

TEST(SearchCommand, UnsolvedSearchExitsOneAndShowsTheBest) {
  std::string candidates = temp("search_candidates3.txt", kWrong);
  Outcome o = search_cli({"-p", kProblem, "-g", "external", "-c", candidates, "-q"});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.out.find("not solved after 1 candidates"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(kWrong), std::string::npos);
}

Outcome campaign_cli(const std::vector<std::string>& args) {
  return testing::run_command(jobs::campaign_command, args);
}

// A suite of two problems in a fresh folder.
std::string small_suite(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/smallest.json", dir / "smallest.json");
  fs::copy_file(kProblem, dir / "count-odds.json");
  return dir.string();
}

u64 lines_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  u64 n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}

TEST(CampaignCommand, EndToEndResumeAndSameSeedSameRecords) {
  namespace fs = std::filesystem;
  const std::string suite = small_suite("campaign_suite");
  const std::string a = ::testing::TempDir() + "campaign_a", b = ::testing::TempDir() + "campaign_b";
  fs::remove_all(a);
  fs::remove_all(b);
  // GP: its records hold every candidate (the enumeration records only what it proposes).
  const std::vector<std::string> common = {"-g",      "gp",  "--suite", suite, "--budget", "3000",
                                           "--batch", "500", "-d",      "cpu", "-q"};
  auto with_out = [&](const std::string& out) {
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--out", out});
    return args;
  };
  Outcome o = campaign_cli(with_out(a));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("smallest"), std::string::npos) << o.out;
  EXPECT_EQ(lines_of(a + "/campaign.jsonl"), 2u);
  {
    records::Reader r = records::Reader::open(a + "/records.h5");
    ASSERT_EQ(r.problems().size(), 2u);
    EXPECT_TRUE(r.warnings().empty());
    EXPECT_GT(r.candidate_count("smallest"), 0u);
    EXPECT_FALSE(r.iterations("count-odds").empty());
  }
  // Resumed: nothing is searched again, nothing is recorded twice.
  o = campaign_cli(with_out(a));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("2 already done"), std::string::npos) << o.err;
  EXPECT_EQ(lines_of(a + "/campaign.jsonl"), 2u);
  // The same seed in another run directory: the same candidates, rewards and solutions.
  o = campaign_cli(with_out(b));
  ASSERT_EQ(o.code, 0) << o.err;
  records::Reader ra = records::Reader::open(a + "/records.h5");
  records::Reader rb = records::Reader::open(b + "/records.h5");
  for (const char* problem : {"smallest", "count-odds"}) {
    auto x = ra.candidates(problem), y = rb.candidates(problem);
    ASSERT_EQ(x.size(), y.size()) << problem;
    for (size_t k = 0; k < x.size(); ++k) {
      EXPECT_EQ(x[k].source, y[k].source);
      EXPECT_EQ(x[k].reward, y[k].reward);
      EXPECT_EQ(x[k].bytecode_hash, y[k].bytecode_hash);
      EXPECT_EQ(x[k].parents[0], y[k].parents[0]);
    }
    auto sx = ra.solutions(problem), sy = rb.solutions(problem);
    ASSERT_EQ(sx.size(), sy.size());
    for (size_t k = 0; k < sx.size(); ++k) EXPECT_EQ(sx[k].simplified_source, sy[k].simplified_source);
  }
}

TEST(CampaignCommand, ATupleProblemIsSearchedByTheEnumeration) {
  namespace fs = std::filesystem;
  const std::string suite = ::testing::TempDir() + "campaign_tuple_suite";
  fs::remove_all(suite);
  fs::create_directories(suite);
  // Two results: the enumeration assembles (join(split(s, " "), "\n"), len(…)) from two goals.
  fs::copy_file(std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/replace-space-with-newline.json",
                fs::path(suite) / "replace-space-with-newline.json");
  const std::string out = ::testing::TempDir() + "campaign_tuple";
  fs::remove_all(out);
  Outcome o = campaign_cli(
      {"--suite", suite, "--out", out, "-g", "enumerate", "--budget", "60000", "-d", "cpu", "-q"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("solved 1/1 problems, 1 of them generalise"), std::string::npos) << o.out;
  // An unreadable candidates file is a usage error before anything is searched.
  fs::remove_all(out);
  o = campaign_cli(
      {"--suite", suite, "--out", out, "-g", "external", "--candidates", "/nonexistent/c.txt", "-d", "cpu"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("/nonexistent/c.txt: cannot read file"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(fs::path(out) / "campaign.jsonl"));
}

// The ledger names what each enumerated solution is made of (ProblemSummary::uses): a * b - 1.
TEST(CampaignCommand, TheLedgerNamesWhatASolutionIsMadeOf) {
  namespace fs = std::filesystem;
  const std::string suite = ::testing::TempDir() + "campaign_uses_suite";
  fs::remove_all(suite);
  fs::create_directories(suite);
  nlohmann::json j{
      {"name", "product-less-one"}, {"signature", "fn solve(a: int, b: int) -> int"}, {"train", {}}};
  for (int a = -3; a <= 3; ++a)
    for (int b : {-5, 2, 7}) j["train"].push_back({{"inputs", {a, b}}, {"outputs", {a * b - 1}}});
  std::ofstream(fs::path(suite) / "product-less-one.json") << j.dump();
  const std::string out = ::testing::TempDir() + "campaign_uses";
  fs::remove_all(out);
  Outcome o = campaign_cli(
      {"--suite", suite, "--out", out, "-g", "enumerate", "--budget", "60000", "-d", "cpu", "-q"});
  ASSERT_EQ(o.code, 0) << o.err;
  const std::map<std::string, cluster::ProblemSummary> ledger = cluster::read_ledger(out + "/campaign.jsonl");
  ASSERT_EQ(ledger.count("product-less-one"), 1u);
  const cluster::ProblemSummary& s = ledger.at("product-less-one");
  ASSERT_TRUE(s.solved);
  EXPECT_EQ(s.uses, (std::vector<std::string>{"$0 * $1 (int, int) -> int", "$0 - $1 (int, int) -> int",
                                              "1 () -> int"}));
  // … and a line without them (an earlier version's, or GP's) reads as none.
  const auto old = cluster::parse_summary("{\"problem\": \"x\", \"solved\": true}");
  ASSERT_TRUE(old);
  EXPECT_TRUE(old->uses.empty());
  EXPECT_EQ(cluster::parse_summary(cluster::summary_line(s))->uses, s.uses);
}

TEST(CampaignCommand, BadSuitesAreUsageErrors) {
  const std::string out = ::testing::TempDir() + "campaign_bad";
  Outcome o = campaign_cli({"--suite", "/nonexistent/suite", "--out", out});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("/nonexistent/suite"), std::string::npos) << o.err;
  const std::string suite = small_suite("campaign_bad_suite");
  std::ofstream(suite + "/broken.json") << "{\"name\": \"broken\",\n \"signature\": }\n";
  o = campaign_cli({"--suite", suite, "--out", out});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("broken.json:2"), std::string::npos) << o.err;
}

// One campaign at a time per run directory, whatever HDF5's own locking: a second one is refused
// with the holder's host and pid, and the lock goes with its holder.
TEST(CampaignCommand, ASecondCampaignOnARunDirectoryIsRefused) {
  const std::string out = ::testing::TempDir() + "campaign_locked";
  const std::string suite = small_suite("campaign_locked_suite");
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  std::string error, warning;
  {
    std::optional<cluster::RunLock> held = cluster::RunLock::acquire(out, &error, &warning);
    ASSERT_TRUE(held) << error;
    const Outcome o = campaign_cli({"--suite", suite, "--out", out, "--budget", "200", "-q"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find(out + ": another campaign holds this run directory (host "), std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("pid " + std::to_string(getpid())), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(out + "/campaign.jsonl"));
  }
  const Outcome o = campaign_cli({"--suite", suite, "--out", out, "--budget", "200", "-q"});
  EXPECT_TRUE(o.code == 0) << o.err;
  // A symlink planted as the lock is refused, not followed.
  const std::string planted = ::testing::TempDir() + "campaign_planted";
  std::filesystem::remove_all(planted);
  std::filesystem::create_directories(planted);
  std::filesystem::create_symlink(::testing::TempDir() + "elsewhere.lock", planted + "/.lock");
  EXPECT_FALSE(cluster::RunLock::acquire(planted, &error, &warning));
  EXPECT_NE(error.find("it is a symlink"), std::string::npos) << error;
}

// Every file a campaign writes in its run directory must be a regular file: a symlink planted
// under one of their names is refused before anything is opened, and nothing outside is touched.
TEST(CampaignCommand, SymlinksInTheRunDirectoryAreRefused) {
  const std::string suite = small_suite("campaign_links_suite");
  const std::string root = ::testing::TempDir() + "campaign_links";
  for (const std::string name : {"campaign.jsonl", "records.h5", "records.h5.joining", "records.rank-1.h5"}) {
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root + "/run");
    std::filesystem::create_symlink(root + "/outside", root + "/run/" + name);
    const Outcome o = campaign_cli({"--suite", suite, "--out", root + "/run", "--budget", "200", "-q"});
    EXPECT_EQ(o.code, 2) << name;
    EXPECT_NE(
        o.err.find(root + "/run/" + name + ": is a symbolic link; a campaign writes only regular files"),
        std::string::npos)
        << o.err;
    EXPECT_FALSE(std::filesystem::exists(root + "/outside")) << name;
  }
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/run/records.h5");  // a directory is refused too
  const Outcome o = campaign_cli({"--suite", suite, "--out", root + "/run", "--budget", "200", "-q"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("records.h5: is a directory"), std::string::npos) << o.err;
  EXPECT_TRUE(cluster::is_run_file("records.rank-12.h5"));
  EXPECT_FALSE(cluster::is_run_file("records.rank-.h5"));
  EXPECT_FALSE(cluster::is_run_file("notes.txt"));
  // The shards directory may not be a link out of the run directory.
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/elsewhere");
  std::filesystem::create_directories(root + "/run");
  std::filesystem::create_directory_symlink(root + "/elsewhere", root + "/run/shards");
  const Outcome linked = campaign_cli({"--suite", suite, "--out", root + "/run", "--budget", "200", "-q"});
  EXPECT_EQ(linked.code, 2);
  EXPECT_NE(linked.err.find(root + "/run/shards: is a symbolic link"), std::string::npos) << linked.err;
  EXPECT_TRUE(std::filesystem::is_empty(root + "/elsewhere"));
}

// The ledger is the commit log of the records: a problem it lists whose records are gone (removed
// by hand) is named when the records are joined, not silently missing.
TEST(CampaignCommand, ALedgerProblemWithoutRecordsIsNamed) {
  const std::string suite = small_suite("campaign_lost_suite");
  const std::string run = ::testing::TempDir() + "campaign_lost";
  std::filesystem::remove_all(run);
  const std::vector<std::string> args{"--suite", suite, "--out", run, "--budget", "200", "-q"};
  ASSERT_EQ(campaign_cli(args).code, 0);
  std::filesystem::remove(run + "/records.h5");
  const Outcome again = campaign_cli(args);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("lists count-odds, but no records of it were found"), std::string::npos)
      << again.err;
}

// The distributed options are checked on one process too: a bad value is a usage error naming it.
TEST(CampaignCommand, BadQueueOptionsAreUsageErrors) {
  const std::string out = ::testing::TempDir() + "campaign_bad_queue";
  const std::string suite = small_suite("campaign_bad_queue_suite");
  for (const auto& [option, value] :
       std::vector<std::pair<std::string, std::string>>{{"--stop-grace", "0"},
                                                        {"--serve-interval", "-1"},
                                                        {"--serve-interval", "nan"},
                                                        {"--prefetch", "65"},
                                                        {"--prefetch", "-1"},
                                                        {"--prefetch", "x"}}) {
    const Outcome o = campaign_cli({"--suite", suite, "--out", out, option, value});
    EXPECT_EQ(o.code, 2) << option << " " << value;
    EXPECT_NE(o.err.find(option.substr(2)), std::string::npos) << option << " " << value << ": " << o.err;
  }
}

}  // namespace
}  // namespace gs

#include "cluster/campaign.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "base/hash.h"
#include "base/host.h"
#include "base/rng.h"
#include "cluster/rank_output.h"
#include "cluster/run_files.h"
#include "cluster/run_lock.h"
#include "records/join.h"
#include "records/search_records.h"
#include "records/shards.h"
#include "suites/suite.h"

namespace gs::cluster {

namespace {

namespace fs = std::filesystem;

const char* const kCommand = "gpusynth campaign";

// The search's records, and a look at the work queue after every batch: rank 0 answers the
// other ranks there, and every rank learns there that it must stop.
class CampaignObserver final : public search::SearchObserver {
 public:
  CampaignObserver(records::Writer& writer, const suites::Problem& problem, search::GeneratorKind generator,
                   const std::string& policy, WorkQueue& queue)
      : records_(writer, problem, generator, policy), queue_(queue) {}

  void on_batch(const search::IterationReport& report, const std::vector<search::Proposal>& proposals,
                const pipeline::BatchResults& results) override {
    records_.on_batch(report, proposals, results);
  }
  bool stop_requested() override { return queue_.poll(); }
  void on_solution(const search::SearchOutcome& outcome) override { records_.on_solution(outcome); }

 private:
  records::SearchRecords records_;
  WorkQueue& queue_;
};

// What a rank holds once it is ready to search.
struct Prepared {
  std::optional<RunLock> lock;  // rank 0: the run directory's, for the whole campaign
  std::vector<suites::Problem> problems;
  std::map<std::string, ProblemSummary> finished;  // rank 0: the ledger read
  std::unique_ptr<pipeline::Pipeline> pipeline;
  records::RunInfo info;                           // of every records shard this rank writes
  std::unique_ptr<search::PolicyLearner> learner;  // a campaign that learns
  std::shared_ptr<const search::Policy> policy;    // … the policy of this round
};

std::string ledger_path(const CampaignConfig& c) { return (fs::path(c.run_dir) / "campaign.jsonl").string(); }

// The policy a learning campaign starts from: the one an earlier run of it left, else --policy.
std::string start_policy_path(const CampaignConfig& c) {
  const std::string learnt = learnt_policy_path(c.run_dir);
  return fs::exists(learnt) ? learnt : c.learning.policy;
}

// The suite, the run directory, the pipeline and this rank's records file; false with the
// reasons in `messages`.
bool prepare(const CampaignConfig& c, WorkQueue& queue, Prepared* p, std::ostream& messages) {
  if (!suites::load_suite(c.suite, &p->problems, messages)) return false;
  std::error_code ec;
  fs::create_directories(c.run_dir, ec);
  if (ec) {
    messages << c.run_dir << ": cannot create the run directory: " << ec.message() << "\n";
    return false;
  }
  if (std::string error; !run_files_are_regular(c.run_dir, &error)) {
    messages << kCommand << ": " << error << "\n";
    return false;
  }
  if (queue.coordinates()) {
    std::string error, warning;
    p->lock = RunLock::acquire(c.run_dir, &error, &warning);
    if (!p->lock) {
      messages << error << "\n";
      return false;
    }
    if (!warning.empty()) say(std::string(kCommand) + ": warning: " + warning + "\n");
    p->finished = read_ledger(ledger_path(c));
    if (!same_suite(p->finished, p->problems, ledger_path(c), c.suite, messages, " (choose another --out)"))
      return false;
    try {
      records::RunInfo run = c.run;
      run.seed = c.generator.settings.seed;
      records::require_same_run(c.run_dir, run, c.session_options);
    } catch (const std::exception& e) {
      messages << kCommand << ": " << e.what() << "\n";
      return false;
    }
  }
  try {
    pipeline::PipelineConfig config = c.pipeline;
    config.gpu = queue.node_rank();  // the ranks of a node spread over its GPUs
    p->pipeline = pipeline::make_pipeline(c.device, config);
    p->info = c.run;
    p->info.seed = c.generator.settings.seed;
    p->info.hosts = host_name();
    p->info.devices = p->pipeline->name();
    if (c.learning.every > 0) {
      p->learner = search::load_policy_learner(start_policy_path(c), c.learning.settings);
      // A resumed campaign: what it solved before teaches the policy too (rank 0 holds it).
      for (const suites::Problem& problem : p->problems)
        if (auto it = p->finished.find(problem.name); it != p->finished.end() && it->second.solved)
          p->learner->add_example(problem, it->second.uses);
    }
  } catch (const std::exception& e) {
    messages << kCommand << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

// Searches the problems the queue hands this rank until it runs dry or a stop is asked for. Each
// problem records into its own shard, committed before the ledger hears of the problem; a
// problem stopped or failed midway leaves no shard, and a re-run searches it from the start.
void search_problems(const CampaignConfig& c, WorkQueue& queue, Prepared& p) {
  while (std::optional<u32> index = queue.next()) {
    const suites::Problem& problem = p.problems[*index];
    search::GeneratorChoice choice = c.generator;
    choice.settings.seed = problem_seed(c.generator.settings.seed, problem.name);
    if (p.policy) choice.settings.enumerate.policy = p.policy;
    search::place_bank_beside(&choice, c.device, queue.node_rank());
    const auto& policy = choice.settings.enumerate.policy;
    const std::string described = policy ? policy->describe() : std::string();
    std::unique_ptr<search::Generator> generator = search::make_generator(choice, problem);
    records::Shard shard = records::Shard::begin(c.run_dir, problem.name, p.info, c.sampling);
    CampaignObserver observer(shard.writer(), problem, generator->kind(), described, queue);
    const search::SearchOutcome r = search::run_search(problem, *generator, *p.pipeline, c.search, &observer);
    if (r.stopped) break;  // unfinished: the shard is discarded
    shard.commit();
    const ProblemSummary s{problem.name,  r.solved,     r.generalises, r.candidates, r.seconds,
                           r.test_passed, r.test_cases, queue.rank(),  r.uses,       described};
    queue.finished({*index, queue.rank(), summary_line(s)});
    if (p.learner && r.solved) p.learner->add_example(problem, r.uses);
  }
}

// Between two rounds of a learning campaign, on every rank: the gradient steps, the policy file,
// the policy of the next round.
void learn(const CampaignConfig& c, WorkQueue& queue, Prepared& p, const search::PolicyLearner::Sum& sum) {
  const auto began = std::chrono::steady_clock::now();
  const u64 before = p.learner->step();
  const search::PolicyLearner::Learnt l = p.learner->learn(sum);
  p.policy = p.learner->policy();
  if (!queue.coordinates() || l.examples == 0) return;
  p.learner->save(learnt_policy_path(c.run_dir));
  if (c.quiet) return;
  std::ostringstream line;
  line << kCommand << ": learnt from " << l.examples << " solved problems: loss " << std::setprecision(4)
       << l.loss << " before " << p.learner->step() - before << " steps, now step " << p.learner->step()
       << ", " << std::setprecision(2) << std::fixed
       << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << " s -> "
       << learnt_policy_path(c.run_dir) << "\n";
  say(line.str());
}

// The campaign's rounds (one, unless it learns); true when it was stopped.
bool search_rounds(const CampaignConfig& c, WorkQueue& queue, Prepared& p, Ledger* ledger) {
  const search::PolicyLearner::Sum sum = [&](float* data, size_t count) {
    if (c.collective) c.collective->all_reduce_sum(data, count);
  };
  if (p.learner) {
    p.learner->align(sum, queue.coordinates());  // every rank starts from rank 0's weights
    p.policy = p.learner->policy();
  }
  const std::vector<u32> todo = ledger ? ledger->unfinished() : std::vector<u32>();
  const size_t every = p.learner ? c.learning.every : todo.size();
  for (size_t at = 0;;) {
    const size_t end = std::min(todo.size(), at + every);  // rank 0's
    if (ledger)
      queue.start({todo.begin() + i64(at), todo.begin() + i64(end)},
                  [&](const ProblemResult& r) { ledger->record(r); });
    const bool round = end > at;
    at = end;
    search_problems(c, queue, p);
    const Ending ending = queue.finish();
    if (!p.learner) return ending.stopped;
    // The ranks meet: whether any was stopped, whether this round had problems, whether more remain.
    float flags[3] = {ending.stopped ? 1.f : 0.f, round ? 1.f : 0.f, at < todo.size() ? 1.f : 0.f};
    if (!queue.coordinates()) flags[1] = flags[2] = 0;
    sum(flags, 3);
    if (flags[0] > 0) return true;
    if (flags[1] > 0) learn(c, queue, p, sum);
    if (flags[2] == 0) return false;
    queue.new_round();
  }
}

}  // namespace

std::string learnt_policy_path(const std::string& run_dir) {
  return (fs::path(run_dir) / "policy.pt").string();
}

u64 problem_seed(u64 campaign_seed, const std::string& problem_name) {
  const u64 h = fnv1a64(reinterpret_cast<const u8*>(problem_name.data()), problem_name.size());
  return Rng(campaign_seed).derive(h).next_u64();
}

CampaignResult run_campaign(WorkQueue& queue, const CampaignConfig& c) {
  const bool distributed = queue.ranks() > 1;
  CampaignResult result;
  result.coordinator = queue.coordinates();

  // Every rank prepares, and the ranks agree before any searches: a rank that cannot start stops
  // them all, with its reason.
  std::ostringstream messages;
  Prepared p;
  const bool ready = prepare(c, queue, &p, messages);
  const Agreement agreement = queue.agree(ready, ready ? suites::suite_fingerprint(p.problems) : 0);
  if (!agreement.ok()) {
    // Rank 0 speaks for a failure every rank shares; a rank that fails alone says why itself.
    if (!ready && (result.coordinator || agreement.coordinator_ready))
      say_as_rank(messages.str(), kCommand, queue);
    if (result.coordinator && distributed && ready)
      say(std::string(kCommand) + ": " + agreement.why + "; nothing was run\n");
    return result;
  }

  try {
    std::optional<Ledger> ledger;
    if (result.coordinator) {
      ledger.emplace(p.problems, p.finished, ledger_path(c), c.quiet);
      std::ostringstream header;
      header << kCommand << ": " << p.problems.size() << " problems from " << c.suite << " ("
             << ledger->done() << " already done), generator " << search::generator_name(c.generator.kind)
             << ", budget " << c.search.budget.candidates << " candidates each, on the "
             << p.pipeline->name();
      if (distributed) header << ", " << queue.ranks() << " ranks";
      if (p.learner)
        header << ", learning every " << c.learning.every << " problems from " << start_policy_path(c) << " ("
               << p.learner->examples() << " solved problems of the ledger to learn from)";
      header << " -> " << c.run_dir << "\n";
      say(header.str());
    }
    const bool stopped = search_rounds(c, queue, p, ledger ? &*ledger : nullptr);
    if (!result.coordinator) {
      result.status = stopped ? CampaignResult::Status::Interrupted : CampaignResult::Status::Finished;
      return result;
    }
    result.rows = ledger->rows();
    result.seconds = ledger->elapsed();
    result.queue = queue.stats();
    if (!ledger->complete()) {
      say(std::string(kCommand) + ": stopped by SIGTERM with " + std::to_string(ledger->done()) + "/" +
          std::to_string(p.problems.size()) + " problems finished (" + ledger_path(c) +
          "); run the same command again to resume\n");
      result.status = CampaignResult::Status::Interrupted;
      return result;
    }
    // The shards become one RUN/records.h5 (and are removed once it is committed).
    records::JoinReport join = records::join_records(c.run_dir, p.info);
    for (const std::string& w : join.warnings) say(std::string(kCommand) + ": warning: " + w + "\n");
    // A problem the ledger lists has a committed shard, unless someone removed it by hand.
    for (const ProblemSummary& row : ledger->rows())
      if (!std::binary_search(join.names.begin(), join.names.end(), row.name))
        say(std::string(kCommand) + ": warning: " + ledger_path(c) + " lists " + row.name +
            ", but no records of it were found (its shard " + records::shards_directory(c.run_dir) + "/" +
            records::shard_file_name(row.name) + " is missing)\n");
    result.joined_files = join.sources;
    result.status = CampaignResult::Status::Finished;
  } catch (const std::exception& e) {
    if (distributed) {
      // The other ranks may be waiting for this one: end the job (every finished problem's
      // shard is committed, so the run directory resumes).
      say(std::string(kCommand) + " (" + queue.where() + "): " + e.what() + "\n");
      queue.abort(c.failed_exit_code);
    }
    say(std::string(kCommand) + ": " + e.what() + "\n");
    result.status = CampaignResult::Status::Failed;
  }
  return result;
}

}  // namespace gs::cluster

// gpusynth campaign --suite DIR --out RUN/ [search options] [--policy FILE --learn-every N]
//
// The command line of a campaign (cluster/campaign.h): its options, then the final table. The
// campaign itself — the ranks, the ledger, the records, resuming — is cluster::run_campaign.

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cluster/campaign.h"
#include "cluster/collective.h"
#include "cluster/rank_output.h"
#include "cluster/work_queue.h"
#include "jobs/command.h"
#include "jobs/options.h"
#include "jobs/search_options.h"
#include "records/records.h"

namespace gs::jobs {

namespace {

void print_table(const std::vector<cluster::ProblemSummary>& rows) {
  std::printf("\n%-32s %-8s %12s %10s %14s\n", "problem", "solved", "candidates", "seconds", "test cases");
  u32 solved = 0, generalised = 0;
  for (const cluster::ProblemSummary& f : rows) {
    std::string test = f.solved && f.test_cases > 0
                           ? std::to_string(f.test_passed) + "/" + std::to_string(f.test_cases)
                           : "-";
    std::printf("%-32s %-8s %12llu %10.2f %14s\n", f.name.c_str(), f.solved ? "yes" : "no",
                (unsigned long long)f.candidates, f.seconds, test.c_str());
    solved += f.solved;
    generalised += f.generalises;
  }
  std::printf("\nsolved %u/%zu problems, %u of them generalise\n", solved, rows.size(), generalised);
}

int exit_code(cluster::CampaignResult::Status status) {
  switch (status) {
    case cluster::CampaignResult::Status::Finished: return kExitOk;
    case cluster::CampaignResult::Status::Interrupted: return kExitInterrupted;
    case cluster::CampaignResult::Status::NotStarted:
    case cluster::CampaignResult::Status::Failed: return kExitUsage;
  }
  return kExitUsage;
}

}  // namespace

int campaign_command(const std::vector<std::string>& args) {
  cluster::QueueOptions queue_options;
  queue_options.interrupted_exit_code = kExitInterrupted;
  std::unique_ptr<cluster::WorkQueue> queue;
  try {
    queue = cluster::make_work_queue(queue_options);  // MPI_Init when started by mpirun or srun
  } catch (const std::exception& e) {
    std::cerr << "gpusynth campaign: " << e.what() << "\n";
    return kExitUsage;
  }
  const bool coordinator = queue->coordinates();

  SearchOptions o;
  std::string suite, run_dir;
  records::SamplingPolicy sampling;
  // Sampled by default: every candidate of a default PSB1 campaign would be ~5 GB of records;
  // one in 100, plus every improvement and solution, is ~1 %.
  sampling.every = 100;
  cluster::CampaignLearning learning;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("suite", po::value(&suite)->required(),
                                                    "folder of problem files (*.json)")(
      "out,o", po::value(&run_dir)->required(),
      "run directory: records.h5, campaign.jsonl (created, or resumed)")(
      "record-every", at_least(&sampling.every, 0),
      "record every Nth candidate (0: none), besides improvements and solutions")(
      "record-budget", at_least(&sampling.byte_budget, 0),
      "bytes of records after which only improvements are recorded (0: no bound)")(
      "stop-grace", bounded(&queue_options.grace_seconds, 0.01, 3600),
      "distributed: seconds rank 0 waits for the other ranks after SIGTERM before aborting the job")(
      "prefetch", bounded(&queue_options.prefetch, 0, 64),
      "distributed: problems a rank holds beyond the one it searches, so it never waits for rank 0 (0: ask "
      "when done)")(
      "serve-interval", bounded(&queue_options.serve_interval_seconds, 0, 60),
      "distributed: seconds rank 0 lets pass between answering the other ranks while it searches")(
      "learn-every", bounded(&learning.every, 0, 1000000),
      "--policy: the policy learns from the problems solved, every so many problems (0: never); the ranks "
      "average their gradients, RUN/policy.pt keeps it")(
      "learn-steps", bounded(&learning.settings.steps, 1, 100000), "--learn-every: gradient steps a time")(
      "learn-rate", bounded(&learning.settings.learning_rate, 1e-7, 1.0),
      "--learn-every: Adam's learning rate")(
      "learn-weight", bounded(&learning.settings.label_weight, 0.0, 1.0),
      "--learn-every: a key's target is this for a key the answer uses plus (1 - this) times what the policy "
      "said before learning");
  visible.add(search_options(&o));
  po::variables_map vm;
  bool help = false;
  const std::string usage =
      "usage: gpusynth campaign --suite DIR --out RUN/ [search options]\n"
      "Searches every problem of a suite; records go to RUN/records.h5 (gpusynth trace summary RUN/),\n"
      "per-problem summaries to RUN/campaign.jsonl. Re-running with the same RUN/ skips finished problems.\n"
      "Under mpirun or srun the problems are shared among the ranks (docs/cluster.md).";
  std::optional<search::GeneratorChoice> choice;
  std::string error;
  {
    cluster::Mute mute(!coordinator);  // every rank parses the same arguments; rank 0 speaks for all
    if (!parse_command_line_and_config(args, visible, &vm, usage, &help)) return kExitUsage;
    if (help) return kExitOk;
    if (!check_search_options(o, &error)) {
      std::cerr << "gpusynth campaign: " << error << "\n";
      return kExitUsage;
    }
    if (learning.every > 0 && o.policy_path.empty()) {
      std::cerr
          << "gpusynth campaign: --learn-every teaches a search policy: give --policy FILE to start from\n";
      return kExitUsage;
    }
    choice = generator_choice(o, &error);
    if (!choice) {
      std::cerr << "gpusynth campaign: " << error << "\n";
      return kExitUsage;
    }
  }
  queue->set_options(queue_options);

  cluster::CampaignConfig config;
  config.suite = suite;
  config.run_dir = run_dir;
  config.generator = *choice;
  config.search = o.search;
  config.device = *pipeline::parse_device(o.device);
  config.pipeline = pipeline_config(o);
  config.pipeline.grade = true;  // the records hold each candidate's per-case errors
  config.sampling = sampling;
  config.run.config_text = effective_config(vm);
  // What a resumed session may change: where and how it runs, not what it searches (docs/cli.md).
  config.session_options = {"out",      "suite",          "quiet",      "threads",      "device",
                            "prefetch", "serve-interval", "stop-grace", "record-every", "record-budget"};
  config.run.command_line = "gpusynth campaign";
  for (const std::string& a : args) config.run.command_line += " " + a;
  config.quiet = o.quiet;
  config.failed_exit_code = kExitUsage;
  learning.policy = o.policy_path;
  config.learning = learning;
  std::unique_ptr<cluster::Collective> collective;
  if (learning.every > 0 && queue->ranks() > 1) {
    try {
      // The policy learns on the CPU: its gradients are host buffers, summed over MPI.
      collective = cluster::make_collective(cluster::CollectiveBackend::mpi);
    } catch (const std::exception& e) {
      std::cerr << "gpusynth campaign: " << e.what() << "\n";
      return kExitUsage;
    }
    config.collective = collective.get();
  }
  const cluster::CampaignResult r = cluster::run_campaign(*queue, config);
  if (r.coordinator && r.status == cluster::CampaignResult::Status::Finished) {
    print_table(r.rows);
    std::cout << "records: " << run_dir << "/" << records::records_file_name();
    if (r.joined_files > 0) std::cout << ", joined from " << r.joined_files << " files";
    std::cout << " (gpusynth trace summary " << run_dir << ")\n";
    if (queue->ranks() > 1) {
      // What coordinating cost rank 0 (docs/cluster.md "Coordinator cost"; bench/cluster_scaling.py reads
      // this line).
      const cluster::QueueStats& q = r.queue;
      std::printf(
          "coordinator: %llu messages in, %llu out, %llu polls, %.4f s serving = %.3f %% of %.2f s wall\n",
          (unsigned long long)q.received, (unsigned long long)q.sent, (unsigned long long)q.serves,
          q.serving_seconds, r.seconds > 0 ? 100.0 * q.serving_seconds / r.seconds : 0.0, r.seconds);
    }
  }
  return exit_code(r.status);
}

}  // namespace gs::jobs

// A campaign: a search on every problem of a suite (docs/cluster.md), with records in
// RUN/records.h5 (docs/trace-format.md) and one line per finished problem in the ledger
// RUN/campaign.jsonl (cluster/ledger.h). Re-running with the same RUN/ skips the problems the
// ledger lists.
//
// Each problem records into its own shard, RUN/shards/NAME.h5, committed (synced, renamed into
// place) before the ledger lists the problem (records/shards.h); when every problem is done,
// rank 0 joins the shards into RUN/records.h5. Started by mpirun or srun with several processes,
// the problems are shared among the ranks through a WorkQueue: rank 0 hands them out on request,
// searches too, and alone keeps the ledger and the progress lines. One process runs the problems
// in order itself.
//
// SIGTERM stops every rank at its next batch boundary: finished problems are in the ledger and
// their shards committed, the problems in progress are dropped, and the campaign ends
// Interrupted; the same command resumes, searching those again from their start.
//
// A campaign that learns (CampaignLearning; issue 22, docs/cluster.md "Learning during a
// campaign") runs in rounds of `every` problems. Between two rounds the ranks meet: each adds
// the problems it solved to its search policy's examples, they take the same gradient steps on
// the gradients summed over them (the collective), rank 0 writes the policy to RUN/policy.pt,
// and the next round searches with it. A resumed campaign starts from RUN/policy.pt, its
// examples the solved problems of the ledger.
#pragma once

#include <string>
#include <vector>

#include "cluster/collective.h"
#include "cluster/ledger.h"
#include "cluster/work_queue.h"
#include "pipeline/pipeline.h"
#include "records/records.h"
#include "search/generator.h"
#include "search/policy.h"
#include "search/search_loop.h"

namespace gs::cluster {

// Learning during the campaign; off while `every` is 0.
struct CampaignLearning {
  std::string policy;  // the policy file to start from (RUN/policy.pt instead once that exists)
  u32 every = 0;       // problems a round
  search::LearnSettings settings;
};

struct CampaignConfig {
  std::string suite;                  // folder of problem files
  std::string run_dir;                // records, ledger; created or resumed
  search::GeneratorChoice generator;  // its seed is the campaign's: problem_seed() derives each problem's
  search::SearchConfig search;
  pipeline::Device device = pipeline::Device::Auto;
  pipeline::PipelineConfig pipeline;  // gpu is set per rank: the ranks of a node spread over its GPUs
  records::SamplingPolicy sampling;
  records::RunInfo run;  // config_text and command_line; the seed, hosts and devices are filled in
  // Options of run.config_text that may change when the run is resumed (how a session runs, not
  // what it searches); any other that differs from the records' refuses the resume.
  std::vector<std::string> session_options;
  CampaignLearning learning;
  Collective* collective = nullptr;  // learning on several ranks: their sums (host memory)
  bool quiet = false;                // no progress lines
  int failed_exit_code = 2;  // what every rank exits with when one fails during a distributed campaign
};

struct CampaignResult {
  enum class Status {
    Finished,     // every problem is in the ledger (rank 0); this rank's share is done (others)
    Interrupted,  // stopped by SIGTERM: the same command resumes
    NotStarted,   // a rank could not prepare (bad suite, run directory, device): messages printed
    Failed,       // an error during the campaign (printed); the run directory resumes
  };
  Status status = Status::NotStarted;
  bool coordinator = false;          // this process is rank 0: the fields below are filled
  std::vector<ProblemSummary> rows;  // the finished problems, in suite order
  u32 joined_files = 0;              // files joined into records.h5 (shards, and a records.h5 there before)
  QueueStats queue;                  // distributed: what coordinating cost rank 0
  double seconds = 0;                // wall time of the campaign on rank 0
};

// Runs this rank's part of the campaign. Messages (refusals, warnings, progress) go to stderr,
// each prefixed with "gpusynth campaign" and, on several ranks, the rank and host.
CampaignResult run_campaign(WorkQueue& queue, const CampaignConfig& config);

// The seed of a problem's search: a hash of the campaign's seed and the problem's name, so a
// problem is searched alike whichever rank takes it and whatever else the suite holds.
u64 problem_seed(u64 campaign_seed, const std::string& problem_name);

// Where a learning campaign keeps its policy: RUN/policy.pt.
std::string learnt_policy_path(const std::string& run_dir);

}  // namespace gs::cluster

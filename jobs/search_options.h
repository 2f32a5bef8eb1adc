// The options `search` and `campaign` share: generator, budget, seed, device, limits, config
// file — and what they do with them (making the generator, printing an outcome).
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "jobs/options.h"
#include "pipeline/pipeline.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "suites/problem.h"

namespace gs::jobs {

struct SearchOptions {
  std::string problem_path;             // search
  std::string generator = "portfolio";  // the strongest: enumeration, then GP (docs/search.md)
  std::string selection = "lexicase";
  std::string case_scores = "pass";
  std::string candidates_path;  // --generator external
  std::string device = "auto";
  std::string config_path;
  bool quiet = false;
  u32 bank_memory_mib = 2048;             // --bank-memory: settings.enumerate.memory in MiB
  std::string policy_path;                // --policy: settings.enumerate.policy's file
  std::string body_goal_budget = "auto";  // --body-goal-budget: settings.enumerate.body_goal_budget, or auto
  std::string enumerate_first = "auto";   // --enumerate-first: settings.portfolio.enumerate_candidates
  std::string list_forms = "auto";        // --list-forms: settings.enumerate.list_forms_after, 0, 1 or auto
  pipeline::PipelineConfig pipeline;
  search::SearchConfig search;
  search::GeneratorSettings settings;
};

// --generator, --selection, --case-scores, --downsample, --tournament-size, --crossover, --max-size,
// --choose, --lambdas, --lambda-budget, --body-goal-budget, --bank-interpreter, --splits, --last-steps,
// --forward-steps, --list-forms, --sample-cases, --bank-memory,
// --policy,
// --policy-temperature,
// --enumerate-first,
// --candidates,
// --batch, --budget, --iterations, --seconds, --seed, --device,
// --threads, --no-simplify, --config, --quiet, and the run and compile limits.
po::options_description search_options(SearchOptions* o);

// The pipeline's configuration for these options: o.pipeline, grading errors when GP's lexicase
// compares them (--case-scores error).
pipeline::PipelineConfig pipeline_config(const SearchOptions& o);

// False with a message when the options do not fit together.
bool check_search_options(const SearchOptions& o, std::string* error);

// The generator the options ask for (the candidates file read, its malformed entries reported on
// stderr; the policy loaded); nullopt with *error when the candidates file or the policy cannot
// be read.
std::optional<search::GeneratorChoice> generator_choice(const SearchOptions& o, std::string* error);

// The result of one search, as `gpusynth search` prints it.
void print_outcome(std::ostream& out, const suites::Problem& p, const search::SearchOutcome& r);

}  // namespace gs::jobs

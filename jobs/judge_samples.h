// gpusynth eval --model-samples S.jsonl --suite DIR: a language model's samples for many tasks judged
// in one call (suites/samples.h), streamed in chunks of --batch samples; per-sample verdicts as
// JSON Lines keyed by task_id and sample index, pass@k per task and overall (docs/cli.md "eval").
#pragma once
#include <string>
#include <vector>

#include "pipeline/pipeline.h"
#include "suites/cases.h"

namespace gs::jobs {

struct SamplesJob {
  std::string samples_path;  // "-": stdin
  std::string suite_dir;
  std::string results_path;  // per-sample JSON Lines; "-": stdout
  std::string summary_path;  // pass@k as JSON; "-": stdout; empty: not written
  std::vector<u32> ks;       // the k of pass@k
  suites::Split split = suites::Split::Train;
  std::string split_name = "train";
  pipeline::Device device = pipeline::Device::Auto;
  pipeline::PipelineConfig config;
  u32 batch = 65536;
};

// The exit status: 0 when every sample was read and judged (whether or not it passed), 1 when
// some lines were malformed or named no task of the suite (each reported as FILE:LINE), 2 when
// the job could not run (a bad suite, a split without cases, an unreadable or unwritable file).
int judge_samples(const SamplesJob& job);

}  // namespace gs::jobs

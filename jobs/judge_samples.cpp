#include "jobs/judge_samples.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "base/host.h"
#include "jobs/command.h"
#include "pipeline/first_error.h"
#include "suites/problem.h"
#include "suites/samples.h"
#include "suites/suite.h"

namespace gs::jobs {

namespace {

struct Pending {
  u32 task = 0;   // index into the suite
  u64 index = 0;  // among its task's samples
  u64 line = 0;   // in the samples file
  suites::Sample sample;
};

// A sample's verdict: what its results line says besides where the sample came from.
struct Verdict {
  std::string status;  // pipeline::status_name, or unsupported_language
  u32 passed = 0, cases = 0;
  bool passes = false;
  std::string error;  // pipeline::first_error
};

struct PassCounts {  // pass@k's n and c: samples judged, samples passing
  u64 n = 0, c = 0;
};

// Where a "-"-or-path output goes; false after saying why.
bool open_output(const std::string& path, std::ofstream* file, std::ostream** out) {
  if (path == "-") {
    *out = &std::cout;
    return true;
  }
  file->open(path, std::ios::binary | std::ios::trunc);
  if (!*file) {
    std::cerr << "gpusynth eval: " << path << ": cannot write\n";
    return false;
  }
  *out = file;
  return true;
}

}  // namespace

int judge_samples(const SamplesJob& job) {
  std::vector<suites::Problem> problems;
  if (!suites::load_suite(job.suite_dir, &problems, std::cerr)) return kExitUsage;
  std::map<std::string, u32> by_name;
  std::vector<pipeline::CaseSet> cases;
  std::string empty;
  for (u32 p = 0; p < problems.size(); ++p) {
    by_name[problems[p].name] = p;
    cases.push_back(suites::problem_cases(problems[p], job.split));
    if (cases.back().view().case_count == 0) empty += (empty.empty() ? "" : ", ") + problems[p].name;
  }
  if (!empty.empty()) {
    std::cerr << "gpusynth eval: " << job.suite_dir << ": no " << job.split_name
              << " cases to judge on (a sample would pass vacuously): " << empty << "\n";
    return kExitUsage;
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  if (job.samples_path != "-") {
    file.open(job.samples_path, std::ios::binary);
    if (!file) {
      std::cerr << "gpusynth eval: " << job.samples_path << ": cannot read\n";
      return kExitUsage;
    }
    in = &file;
  }
  std::ofstream results_file, summary_file;
  std::ostream *results = nullptr, *summary = nullptr;
  if (!open_output(job.results_path, &results_file, &results)) return kExitUsage;

  auto pipeline = pipeline::make_pipeline(job.device, job.config);
  decltype(pipeline) python_pipeline;  // made at the first Python sample: the same, with the Python front end
  std::cerr << "gpusynth eval: samples from " << job.samples_path << " against " << problems.size()
            << " problems of " << job.suite_dir << " (" << job.split_name << " cases), on the "
            << pipeline->name() << "\n";
  std::vector<PassCounts> tally(problems.size());
  std::vector<u64> next_index(problems.size(), 0);
  u64 malformed = 0, judged = 0;
  const auto start = std::chrono::steady_clock::now();
  std::vector<Pending> chunk;

  // Judges the chunk, one pipeline call per task in it, and writes its verdicts in file order.
  auto judge = [&] {
    std::vector<Verdict> verdicts(chunk.size());
    std::map<std::pair<suites::SampleLanguage, u32>, std::vector<size_t>> by_task;
    for (size_t k = 0; k < chunk.size(); ++k) by_task[{chunk[k].sample.language, chunk[k].task}].push_back(k);
    for (const auto& [key, members] : by_task) {
      const auto& [language, task] = key;
      if (language == suites::SampleLanguage::Python && !python_pipeline) {
        pipeline::PipelineConfig config = job.config;
        config.compile.language = compiler::Language::Python;
        python_pipeline = pipeline::make_pipeline(job.device, config);
      }
      pipeline::Sources sources;
      for (size_t k : members) sources.add(chunk[k].sample.source);
      pipeline::BatchResults r;
      (language == suites::SampleLanguage::Python ? python_pipeline : pipeline)
          ->run(sources, cases[task], &r);
      for (u32 i = 0; i < r.programs; ++i) {
        const pipeline::ProgramStatus s = r.program_status(i);
        verdicts[members[i]] = {pipeline::status_name(s), r.cases_passed[i], r.cases,
                                s == pipeline::ProgramStatus::OK && r.cases_passed[i] == r.cases,
                                pipeline::first_error(r, i, chunk[members[i]].sample.source)};
      }
    }
    for (size_t k = 0; k < chunk.size(); ++k) {
      const Pending& p = chunk[k];
      const Verdict& v = verdicts[k];
      const nlohmann::json line = {{"task_id", p.sample.task_id}, {"sample", p.index},  {"line", p.line},
                                   {"status", v.status},          {"passed", v.passed}, {"cases", v.cases},
                                   {"passes", v.passes},          {"error", v.error}};
      *results << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      tally[p.task].n++;
      tally[p.task].c += v.passes;
    }
    judged += chunk.size();
    chunk.clear();
    std::cerr << "gpusynth eval: " << judged << " samples judged, " << malformed << " malformed lines ("
              << seconds_since(start) << " s)\n";
  };

  std::string text;
  u64 line = 0;
  while (std::getline(*in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    Pending p;
    std::string error;
    if (!suites::parse_sample(text, &p.sample, &error)) {
      std::cerr << job.samples_path << ":" << line << ": " << error << "\n";
      ++malformed;
      continue;
    }
    auto task = by_name.find(p.sample.task_id);
    if (task == by_name.end()) {
      std::cerr << job.samples_path << ":" << line << ": task_id '" << p.sample.task_id
                << "' is not a problem of " << job.suite_dir << "\n";
      ++malformed;
      continue;
    }
    p.task = task->second;
    p.index = next_index[p.task]++;
    p.line = line;
    chunk.push_back(std::move(p));
    if (chunk.size() >= job.batch) judge();
  }
  if (in->bad()) {
    std::cerr << "gpusynth eval: " << job.samples_path << ": read error after line " << line << "\n";
    return kExitUsage;
  }
  judge();
  results->flush();
  if (!*results) {
    std::cerr << "gpusynth eval: " << job.results_path << ": cannot write the results\n";
    return kExitUsage;
  }

  // pass@k: per task with samples, and their mean over the tasks that have at least k samples.
  nlohmann::json tasks = nlohmann::json::object(), overall = nlohmann::json::object();
  for (u32 t = 0; t < problems.size(); ++t)
    if (tally[t].n > 0) tasks[problems[t].name] = {{"n", tally[t].n}, {"c", tally[t].c}};
  for (u32 k : job.ks) {
    double sum = 0;
    u64 counted = 0;
    for (u32 t = 0; t < problems.size(); ++t) {
      if (tally[t].n == 0) continue;
      auto estimate = suites::pass_at_k(tally[t].n, tally[t].c, k);
      tasks[problems[t].name]["pass@" + std::to_string(k)] = estimate ? nlohmann::json(*estimate) : nullptr;
      if (estimate) {
        sum += *estimate;
        ++counted;
      }
    }
    overall["pass@" + std::to_string(k)] = counted ? nlohmann::json(sum / double(counted)) : nullptr;
    std::cerr << "pass@" << k << ": "
              << (counted ? std::to_string(sum / double(counted))
                          : std::string("no task has that many samples"))
              << " over " << counted << " tasks\n";
  }
  const double seconds = seconds_since(start);
  nlohmann::json j = {
      {"suite", job.suite_dir}, {"samples", job.samples_path}, {"split", job.split_name},
      {"judged", judged},       {"malformed", malformed},      {"tasks_with_samples", tasks.size()},
      {"seconds", seconds},     {"overall", overall},          {"tasks", tasks}};
  if (!job.summary_path.empty()) {
    if (!open_output(job.summary_path, &summary_file, &summary)) return kExitUsage;
    *summary << j.dump(1) << "\n";
    summary->flush();
    if (!*summary) {
      std::cerr << "gpusynth eval: " << job.summary_path << ": cannot write the summary\n";
      return kExitUsage;
    }
  }
  std::cerr << "gpusynth eval: " << judged << " samples of " << tasks.size() << " tasks judged in " << seconds
            << " s (" << (seconds > 0 ? double(judged) / seconds : 0) << " samples/s); " << malformed
            << " malformed lines\n";
  return malformed ? kExitFailed : kExitOk;
}

}  // namespace gs::jobs

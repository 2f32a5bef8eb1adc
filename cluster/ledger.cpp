#include "cluster/ledger.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "cluster/rank_output.h"

namespace gs::cluster {

std::string summary_line(const ProblemSummary& s) {
  nlohmann::json j{{"problem", s.name},
                   {"solved", s.solved},
                   {"candidates", s.candidates},
                   {"seconds", s.seconds},
                   {"test_passed", s.test_passed},
                   {"test_cases", s.test_cases},
                   {"generalises", s.generalises},
                   {"rank", s.rank}};
  if (!s.uses.empty()) j["uses"] = s.uses;
  if (!s.policy.empty()) j["policy"] = s.policy;
  return j.dump() + "\n";
}

std::optional<ProblemSummary> parse_summary(const std::string& line) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("problem") || !j["problem"].is_string())
    return std::nullopt;
  try {
    ProblemSummary s;
    s.name = j.value("problem", "");
    s.solved = j.value("solved", false);
    s.generalises = j.value("generalises", false);
    s.candidates = j.value("candidates", u64(0));
    s.seconds = j.value("seconds", 0.0);
    s.test_passed = j.value("test_passed", 0u);
    s.test_cases = j.value("test_cases", 0u);
    s.rank = j.value("rank", 0u);
    s.uses = j.value("uses", std::vector<std::string>{});
    s.policy = j.value("policy", std::string());
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a field of the wrong type
  }
}

std::map<std::string, ProblemSummary> read_ledger(const std::string& path) {
  std::map<std::string, ProblemSummary> done;
  std::ifstream in(path);
  std::string line;
  for (u32 number = 1; std::getline(in, line); ++number) {
    std::optional<ProblemSummary> s = parse_summary(line);
    if (!s) {
      // A line cut short by a crash: that problem is done again.
      std::cerr << path << ":" << number << ": unreadable summary line, ignored\n";
      continue;
    }
    done[s->name] = *s;
  }
  return done;
}

bool same_suite(const std::map<std::string, ProblemSummary>& finished,
                const std::vector<suites::Problem>& problems, const std::string& ledger_path,
                const std::string& suite, std::ostream& err, const std::string& advice) {
  std::set<std::string> names;
  for (const suites::Problem& p : problems) names.insert(p.name);
  for (const auto& [name, s] : finished)
    if (!names.count(name)) {
      err << ledger_path << ": lists problem '" << name << "', which " << suite
          << " does not have: this run directory belongs to another suite" << advice << "\n";
      return false;
    }
  return true;
}

Ledger::Ledger(const std::vector<suites::Problem>& problems,
               const std::map<std::string, ProblemSummary>& finished, const std::string& path, bool quiet)
    : problems_(problems),
      rows_(problems.size()),
      quiet_(quiet),
      start_(std::chrono::steady_clock::now()),
      file_(path) {
  for (size_t i = 0; i < problems.size(); ++i)
    if (auto f = finished.find(problems[i].name); f != finished.end()) {
      rows_[i] = f->second;
      solved_ += f->second.solved;
      ++done_;
    }
  // A line cut short by a crash must not swallow the next one: end it first.
  std::ifstream last(path, std::ios::binary | std::ios::ate);
  const bool needs_newline = last && last.tellg() > 0 && (last.seekg(-1, std::ios::end), last.get() != '\n');
  last.close();
  if (needs_newline) file_.append("\n");
}

std::vector<u32> Ledger::unfinished() const {
  std::vector<u32> todo;
  for (u32 i = 0; i < rows_.size(); ++i)
    if (!rows_[i]) todo.push_back(i);
  return todo;
}

double Ledger::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::vector<ProblemSummary> Ledger::rows() const {
  std::vector<ProblemSummary> out;
  for (const auto& r : rows_)
    if (r) out.push_back(*r);
  return out;
}

void Ledger::record(const ProblemResult& result) {
  std::optional<ProblemSummary> parsed = parse_summary(result.summary);
  if (result.problem >= rows_.size() || !parsed || parsed->name != problems_[result.problem].name) {
    say("gpusynth campaign: a malformed result from rank " + std::to_string(result.rank) + ", ignored\n");
    return;
  }
  if (rows_[result.problem]) return;  // already counted: never twice in the ledger
  const ProblemSummary& s = *parsed;
  file_.append(summary_line(s));  // synced: the problem's records shard was committed before
  rows_[result.problem] = s;
  ++done_;
  ++ran_;
  solved_ += s.solved;
  candidates_ += s.candidates;
  const double seconds = elapsed();
  const double eta = seconds / ran_ * double(rows_.size() - done_);
  if (!quiet_)
    std::fprintf(
        stderr, "[%u/%zu] %-28s %-10s %10llu candidates %8.1f s | solved %u, %.0f candidates/s, ETA %.0f s\n",
        done_, rows_.size(), s.name.c_str(), s.solved ? "solved" : "unsolved",
        (unsigned long long)s.candidates, s.seconds, solved_, seconds > 0 ? candidates_ / seconds : 0.0, eta);
}

}  // namespace gs::cluster

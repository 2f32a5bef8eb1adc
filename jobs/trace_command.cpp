// gpusynth trace summary|solutions|export RUN
//
// Offline look at a run's records (docs/trace-format.md): RUN is a run directory (its
// records.h5, and the committed shards of a campaign that has not joined them yet) or one
// records file. Warnings about a
// record cut short by a crash go to stderr; what could be read is still shown.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "jobs/command.h"
#include "jobs/options.h"
#include "records/records.h"
#include "vm/trap.h"

namespace gs::jobs {

namespace {

const char* const kUsage =
    "usage: gpusynth trace summary RUN\n"
    "       gpusynth trace solutions RUN\n"
    "       gpusynth trace export RUN --format csv|jsonl [--problem NAME] [-o FILE]\n"
    "RUN is a run directory (its records.h5, and the shards/ of a campaign not yet finished) or one\n"
    "records file.\n"
    "summary: per problem whether it was solved, the candidates evaluated and recorded, iterations,\n"
    "the best train cases passed, the best reward, the first solution, its test cases and whether it\n"
    "generalises. solutions: each solution's source. export: the\n"
    "candidate rows as CSV or JSON Lines.";

// The readers of RUN's records files, or nullopt after printing why there are none.
std::optional<std::vector<records::Reader>> open_run(const std::string& run) {
  std::error_code ec;
  std::vector<std::string> files;
  if (std::filesystem::is_directory(run, ec)) {
    files = records::records_files(run);
    if (files.empty()) {
      std::cerr << "gpusynth trace: " << run
                << ": no records file (records.h5 or shards/*.h5) in this directory\n";
      return std::nullopt;
    }
  } else if (std::filesystem::exists(run, ec)) {
    files.push_back(run);
  } else {
    std::cerr << "gpusynth trace: " << run << ": no such run directory or records file\n";
    return std::nullopt;
  }
  std::vector<records::Reader> readers;
  try {
    for (const std::string& f : files) readers.push_back(records::Reader::open(f));
  } catch (const std::exception& e) {
    std::cerr << "gpusynth trace: " << e.what() << "\n";
    return std::nullopt;
  }
  for (const records::Reader& r : readers)
    for (const std::string& w : r.warnings()) std::cerr << "gpusynth trace: warning: " << w << "\n";
  return readers;
}

std::string hex(u64 v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

std::string trap_text(u8 trap) {
  if (trap == pipeline::kNotRun) return "not_run";
  if (trap >= vm::kTrapCount) return std::to_string(trap);
  return vm::trap_name(vm::Trap(trap));
}

// The problems found in more than one of the files (an earlier version's file held a problem
// interrupted, and a shard holds it searched again).
std::set<std::string> repeated_problems(const std::vector<records::Reader>& readers) {
  std::set<std::string> seen, repeated;
  for (const records::Reader& r : readers)
    for (const records::ProblemInfo& p : r.problems())
      if (!seen.insert(p.name).second) repeated.insert(p.name);
  return repeated;
}

// A problem's name, with the file it came from (FILE:NAME) when several files hold it.
std::string qualified(const records::Reader& r, const std::string& problem,
                      const std::set<std::string>& repeated) {
  return repeated.count(problem) ? std::filesystem::path(r.path()).filename().string() + ":" + problem
                                 : problem;
}

// One row per problem, tab-separated, named as the campaign's table names them: candidates are
// those evaluated (recorded: those the sampling kept), train and test cases are best passed / held.
int summary(const std::vector<records::Reader>& readers) {
  const std::set<std::string> repeated = repeated_problems(readers);
  u64 problems = 0, solved = 0;
  std::cout << "problem\tsolved\tcandidates\trecorded\titerations\ttrain_cases\tbest_reward\tfirst_solution"
               "\ttest_cases\tgeneralises\n";
  for (const records::Reader& r : readers)
    for (const records::ProblemInfo& p : r.problems()) {
      std::vector<records::IterationRecord> its = r.iterations(p.name);
      std::vector<records::SolutionRecord> sols = r.solutions(p.name);
      const records::IterationRecord* first = nullptr;
      for (const records::IterationRecord& it : its)
        if (it.solved) {
          first = &it;
          break;
        }
      bool is_solved = first != nullptr || !sols.empty();
      const records::SolutionRecord* best = nullptr;  // the generalising one, else the first
      for (const records::SolutionRecord& s : sols)
        if (best == nullptr || (s.generalises && !best->generalises)) best = &s;
      std::string when = "-";
      if (first != nullptr)
        when = "iteration " + std::to_string(first->iteration) + " after " +
               std::to_string(first->cumulative_candidates) + " candidates";
      else if (!sols.empty())
        when = "iteration " + std::to_string(sols.front().iteration);
      ++problems;
      solved += is_solved;
      const std::string train =
          its.empty() ? "-"
                      : std::to_string(its.back().best_train_passed) + "/" + std::to_string(p.train_cases);
      const std::string test =
          best == nullptr ? "-" : std::to_string(best->test_passed) + "/" + std::to_string(best->test_total);
      std::cout << qualified(r, p.name, repeated) << "\t" << (is_solved ? "yes" : "no") << "\t"
                << (its.empty() ? 0 : its.back().cumulative_candidates) << "\t" << r.candidate_count(p.name)
                << "\t" << its.size() << "\t" << train << "\t"
                << (its.empty() ? "-" : number_text(its.back().best_reward)) << "\t" << when << "\t" << test
                << "\t"
                << (best == nullptr     ? "-"
                    : best->generalises ? "yes"
                                        : "no")
                << "\n";
    }
  std::cout << solved << "/" << problems << " problems solved\n";
  return kExitOk;
}

int solutions(const std::vector<records::Reader>& readers) {
  const std::set<std::string> repeated = repeated_problems(readers);
  u64 count = 0;
  for (const records::Reader& r : readers)
    for (const records::ProblemInfo& p : r.problems())
      for (const records::SolutionRecord& s : r.solutions(p.name)) {
        ++count;
        std::cout << "# " << qualified(r, p.name, repeated) << ": candidate " << s.candidate_id
                  << ", iteration " << s.iteration << ", train " << s.train_passed << "/" << s.train_total
                  << ", test " << s.test_passed << "/" << s.test_total
                  << (s.generalises ? ", generalises" : ", does not generalise") << "\n";
        std::cout << s.source << (s.source.ends_with('\n') ? "" : "\n");
        if (!s.simplified_source.empty() && s.simplified_source != s.source)
          std::cout << "# simplified\n"
                    << s.simplified_source << (s.simplified_source.ends_with('\n') ? "" : "\n");
      }
  std::cerr << "gpusynth trace: " << count << " solutions\n";
  return kExitOk;
}

// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Per-case errors as numbers separated by spaces ("0 2.5 inf nan"): inf and nan, which JSON
// numbers cannot hold, read back with Python's float() and numpy.
std::string errors_text(const std::vector<float>& errors) {
  std::string out;
  for (float e : errors) {
    if (!out.empty()) out += ' ';
    out += number_text(e);
  }
  return out;
}

void write_candidate(std::ostream& out, bool csv, const std::string& problem,
                     const records::CandidateRecord& c) {
  const char* generator = search::generator_name(c.generator);
  const char* path = records::compile_path_name(c.compile_path);
  const char* status = pipeline::status_name(c.status);
  if (csv) {
    out << csv_field(problem) << "," << c.id << "," << c.iteration << "," << c.index << "," << generator
        << "," << path << "," << status << "," << trap_text(c.trap) << "," << c.train_passed << ","
        << number_text(c.reward) << "," << c.bytecode_bytes << "," << hex(c.bytecode_hash) << ","
        << c.parents[0] << "," << c.parents[1] << "," << c.syntax_nodes << "," << errors_text(c.case_errors)
        << "," << csv_field(c.source) << "\n";
    return;
  }
  // The reward as the shortest decimal that reads back to the same float (0.26, not 0.2599999904...).
  nlohmann::ordered_json j = {{"problem", problem},
                              {"id", c.id},
                              {"iteration", c.iteration},
                              {"index", c.index},
                              {"generator", generator},
                              {"compile_path", path},
                              {"status", status},
                              {"trap", trap_text(c.trap)},
                              {"train_passed", c.train_passed},
                              {"reward", std::stod(number_text(c.reward))},
                              {"bytecode_bytes", c.bytecode_bytes},
                              {"bytecode_hash", hex(c.bytecode_hash)},
                              {"parents", {c.parents[0], c.parents[1]}},
                              {"syntax_nodes", c.syntax_nodes},
                              {"case_errors", errors_text(c.case_errors)},
                              {"source", c.source}};
  // Bytes that are not UTF-8 become U+FFFD: JSON text is Unicode.
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

int export_rows(const std::vector<records::Reader>& readers, const std::string& format,
                const std::string& problem, const std::string& out_path) {
  if (format != "csv" && format != "jsonl") {
    std::cerr << "gpusynth trace: --format must be csv or jsonl, not '" << format << "'\n";
    return kExitUsage;
  }
  bool known = problem.empty();
  for (const records::Reader& r : readers)
    for (const records::ProblemInfo& p : r.problems()) known = known || p.name == problem;
  if (!known) {
    std::cerr << "gpusynth trace: no problem named '" << problem << "' in the records\n";
    return kExitUsage;
  }
  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path, std::ios::binary);
    if (!file) {
      std::cerr << "gpusynth trace: " << out_path << ": cannot write\n";
      return kExitUsage;
    }
  }
  std::ostream& out = out_path.empty() ? std::cout : file;
  bool csv = format == "csv";
  const std::set<std::string> repeated = repeated_problems(readers);
  if (csv)
    out << "problem,id,iteration,index,generator,compile_path,status,trap,train_passed,reward,bytecode_bytes,"
           "bytecode_hash,parent0,parent1,syntax_nodes,case_errors,source\n";
  u64 rows = 0;
  for (const records::Reader& r : readers)
    for (const records::ProblemInfo& p : r.problems()) {
      if (!problem.empty() && p.name != problem) continue;
      std::string name = qualified(r, p.name, repeated);
      u64 total = r.candidate_count(p.name);
      // Rows read at a time, so a large record streams: up to 65536, fewer when each row holds
      // many per-case errors (about 64 MiB of them at a time).
      const u64 kBatch = std::clamp<u64>((u64(64) << 20) / (4 * u64(std::max(p.train_cases, 1u))), 1, 65536);
      for (u64 first = 0; first < total; first += kBatch)
        for (const records::CandidateRecord& c : r.candidates(p.name, first, kBatch)) {
          write_candidate(out, csv, name, c);
          ++rows;
        }
    }
  out.flush();
  if (!out) {
    std::cerr << "gpusynth trace: " << (out_path.empty() ? "stdout" : out_path) << ": cannot write\n";
    return kExitUsage;
  }
  std::cerr << "gpusynth trace: " << rows << " candidate rows" << (out_path.empty() ? "" : " -> " + out_path)
            << "\n";
  return kExitOk;
}

}  // namespace

int trace_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << kUsage << "\n";
    return args.empty() ? kExitUsage : kExitOk;
  }
  const std::string& sub = args[0];
  if (sub != "summary" && sub != "solutions" && sub != "export") {
    std::cerr << "gpusynth trace: unknown sub-command '" << sub << "' (summary, solutions or export)\n\n"
              << kUsage << "\n";
    return kExitUsage;
  }
  std::string run, format, problem, out_path;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help");
  if (sub == "export")
    visible.add_options()("format,f", po::value(&format)->required(), "csv or jsonl")(
        "problem,p", po::value(&problem), "only this problem's candidates")(
        "output,o", po::value(&out_path), "where to write the rows (default: stdout)");
  po::variables_map vm;
  bool help;
  if (!parse_command_line(std::vector<std::string>(args.begin() + 1, args.end()), visible, &run, &vm, kUsage,
                          &help))
    return kExitUsage;
  if (help) return kExitOk;
  auto readers = open_run(run);
  if (!readers) return kExitUsage;
  try {
    if (sub == "summary") return summary(*readers);
    if (sub == "solutions") return solutions(*readers);
    return export_rows(*readers, format, problem, out_path);
  } catch (const std::exception& e) {
    std::cerr << "gpusynth trace: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace gs::jobs

// gpusynth import-psb --signature SIG --train TRAIN.jsonl [--test TEST.jsonl] [--edge EDGE.jsonl]
//                     --name NAME -o PROBLEM.json
//
// PSB-style JSON Lines and a signature into one problem file (suites/psb_import.h does the
// conversion). Nothing is written unless every line of every file is good, and what is written
// is loaded back with load_problem before the command reports success.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#include "suites/problem.h"
#include "suites/psb_import.h"

namespace gs::jobs {

int import_psb_command(const std::vector<std::string>& args) {
  suites::PsbImport in;
  std::string train_path, test_path, edge_path, out_path;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")(
      "signature,s", po::value(&in.signature)->required(),
      "the entry's signature, e.g. \"fn solve(xs: [int]) -> int\"")(
      "train", po::value(&train_path)->required(),
      "train cases, JSON Lines {\"input1\": ..., \"output1\": ...}")("test", po::value(&test_path),
                                                                     "test cases, same format")(
      "edge", po::value(&edge_path),
      "edge cases, same format; they go first in train (the file may be empty)")(
      "name,n", po::value(&in.name)->required(), "the problem's name")(
      "description", po::value(&in.description), "what the program must do")(
      "source", po::value(&in.source), "provenance, e.g. \"PSB1 (Helmuth & Spector 2015)\"")(
      "float-tolerance", bounded(&in.float_tolerance, 0, 1e9), "a float output matches within this")(
      "constants", po::value(&in.constants),
      "problem-specific constants a search may use, JSON by type: {\"str\": [\"aeiouy\"], \"int\": [64]}")(
      "output,o", po::value(&out_path)->required(), "the problem file to write");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth import-psb --signature SIG --train TRAIN.jsonl [--test TEST.jsonl] [--edge "
      "EDGE.jsonl]\n"
      "                           --name NAME [--description TEXT] [--source TEXT] [--float-tolerance X]\n"
      "                           [--constants JSON] -o PROBLEM.json\n"
      "Turns PSB-style JSON Lines (one case a line: inputN is the signature's N-th parameter, outputN its\n"
      "N-th result) into a problem file. Every malformed line is reported as FILE:LINE; then nothing is "
      "written.";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;

  auto load = [](const std::string& path) -> std::optional<suites::PsbFile> {
    auto text = read_file(path, kMaxProblemBytes);  // prints "PATH: why"
    if (!text) return std::nullopt;
    return suites::PsbFile{path, std::move(*text)};
  };
  std::string clash;
  if (output_overwrites_input(out_path, {{"train", train_path}, {"test", test_path}, {"edge", edge_path}},
                              &clash)) {
    std::cerr << "gpusynth import-psb: " << clash << "\n";
    return kExitUsage;
  }
  auto train = load(train_path);
  if (!train) return kExitUsage;
  in.train = std::move(*train);
  if (!test_path.empty() && !(in.test = load(test_path))) return kExitUsage;
  if (!edge_path.empty() && !(in.edge = load(edge_path))) return kExitUsage;

  std::vector<std::string> errors;
  auto problem = suites::import_psb(in, &errors);
  if (!problem) {
    for (const std::string& e : errors) std::cerr << e << "\n";
    std::cerr << "gpusynth import-psb: " << errors.size() << (errors.size() == 1 ? " error" : " errors")
              << "; nothing written\n";
    return kExitUsage;
  }
  std::ofstream out(out_path, std::ios::binary);
  out << suites::problem_json(*problem);
  out.close();
  if (!out) {
    std::cerr << out_path << ": cannot write file\n";
    return kExitUsage;
  }
  // What import writes must be what every other command reads.
  std::string error;
  if (!suites::load_problem(out_path, &error)) {
    std::remove(out_path.c_str());
    std::cerr << "gpusynth import-psb: internal error: the problem written does not load: " << error << "\n";
    return kExitFailed;
  }
  std::cerr << "wrote " << out_path << ": " << problem->name << ", " << problem->train.size()
            << " train cases, " << problem->test.size() << " test cases\n";
  return kExitOk;
}

}  // namespace gs::jobs

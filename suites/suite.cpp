// Suites: folders of problem files (suites/suite.h).
#include "suites/suite.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "base/hash.h"

namespace gs::suites {

namespace fs = std::filesystem;

bool load_suite(const std::string& dir, std::vector<Problem>* problems, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err << dir << ": not a directory of problem files\n";
    return false;
  }
  // Every entry named *.json is a problem file: one that is not (a directory, a dangling
  // symlink) is reported, not skipped, as load_problem reports what it cannot read.
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") paths.push_back(e.path().string());
  if (ec) {
    err << dir << ": cannot list the folder: " << ec.message() << "\n";
    return false;
  }
  std::sort(paths.begin(), paths.end());
  bool ok = true;
  std::map<std::string, std::string> file_of;  // problem name -> the file that named it first
  for (const std::string& path : paths) {
    std::string error;
    auto p = load_problem(path, &error);
    if (!p) {
      err << error << "\n";
      ok = false;
      continue;
    }
    auto [at, fresh] = file_of.emplace(p->name, path);
    if (!fresh) {
      err << path << ": problem name '" << p->name << "' is also the name in " << at->second
          << " (names must be unique in a suite: they name records and summary lines)\n";
      ok = false;
      continue;
    }
    problems->push_back(std::move(*p));
  }
  if (ok && problems->empty()) {
    err << dir << ": no problem files (*.json)\n";
    return false;
  }
  return ok;
}

u64 suite_fingerprint(const std::vector<Problem>& problems) {
  std::string text;
  for (const Problem& p : problems)
    text += p.name + "\n" + p.signature.text + "\n" + std::to_string(p.train.size()) + " " +
            std::to_string(p.test.size()) + "\n";
  return fnv1a64(reinterpret_cast<const u8*>(text.data()), text.size());
}

}  // namespace gs::suites

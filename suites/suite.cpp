// Suites: folders of problem files (suites/suite.h).
#include "suites/suite.h"

#include <algorithm>
#include <filesystem>

#include "base/hash.h"

namespace gs::suites {

namespace fs = std::filesystem;

bool load_suite(const std::string& dir, std::vector<Problem>* problems, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    err << dir << ": not a directory of problem files\n";
    return false;
  }
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  bool ok = true;
  for (const std::string& path : paths) {
    std::string error;
    auto p = load_problem(path, &error);
    if (p)
      problems->push_back(std::move(*p));
    else {
      err << error << "\n";
      ok = false;
    }
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

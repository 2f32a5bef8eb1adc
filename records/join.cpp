// Joining the ranks' records files into RUN/records.h5 (records/join.h).
//
// The joined file is made by the project's own writer (so that its root attributes, format
// bounds and file-space strategy are exactly a records file's, and a later single-process run
// can resume it), and then each problem's group is copied in, whole, with H5Ocopy: chunks,
// compression and attributes as they were, with no decoding.
#include "records/join.h"

#include <hdf5.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "base/durable_file.h"
#include "records/hdf5.h"
#include "records/shards.h"

namespace gs::records {

namespace fs = std::filesystem;

namespace {

using h5::Handle;

void require(bool ok, const std::string& path, const std::string& what) {
  if (!ok) throw std::runtime_error(path + ": " + what);
}

// A file access list like the writer's: the 1.8 object format, up to the 1.10 features it uses;
// no file lock for the sources (they are closed, but may sit on a file system without locks).
Handle file_access(bool lock) {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V110);
  if (!lock) H5Pset_file_locking(fapl.get(), false, true);
  return fapl;
}

std::optional<double> read_elapsed(hid_t file) {
  if (H5Aexists(file, "elapsed_seconds") <= 0) return std::nullopt;
  Handle a(H5Aopen(file, "elapsed_seconds", H5P_DEFAULT));
  double v = 0;
  if (!a.valid() || H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v) < 0) return std::nullopt;
  return v;
}

void write_elapsed(hid_t file, double seconds, const std::string& path) {
  Handle a(H5Aopen(file, "elapsed_seconds", H5P_DEFAULT));
  require(a.valid() && H5Awrite(a.get(), H5T_NATIVE_DOUBLE, &seconds) >= 0, path,
          "cannot write elapsed_seconds");
}

// Where each problem comes from: the source holding most complete iterations, then most
// solutions; the first source on a tie.
struct Choice {
  size_t source = 0;
  u64 iterations = 0, solutions = 0;
};

}  // namespace

JoinReport join_records(const std::string& run_dir, const records::RunInfo& run) {
  JoinReport report;
  h5::initialize();
  const std::string joined = (fs::path(run_dir) / records::records_file_name()).string();
  // The shards first: a tie between copies of a problem goes to the first source.
  std::vector<std::string> sources = committed_shards(run_dir);
  for (std::string& f : records::rank_records_files(run_dir)) sources.push_back(std::move(f));
  std::error_code ec;
  if (fs::exists(joined, ec)) sources.push_back(joined);

  // Read every source's problems, then close the readers: HDF5 will not open a file twice in one
  // process with different settings, and the copies below open the sources again.
  std::map<std::string, Choice> choices;
  std::vector<bool> used(sources.size(), false);
  std::set<std::string> hosts;
  for (size_t s = 0; s < sources.size(); ++s) {
    try {
      records::Reader reader = records::Reader::open(sources[s]);
      if (reader.attributes().run.seed != run.seed)
        throw std::invalid_argument(sources[s] + ": was written with seed " +
                                    std::to_string(reader.attributes().run.seed) + ", not " +
                                    std::to_string(run.seed) + "; it belongs to another run");
      for (const std::string& w : reader.warnings()) report.warnings.push_back(w);
      if (!reader.attributes().run.hosts.empty()) hosts.insert(reader.attributes().run.hosts);
      ++report.sources;
      for (const records::ProblemInfo& p : reader.problems()) {
        Choice c{s, reader.iterations(p.name).size(), reader.solutions(p.name).size()};
        auto [it, added] = choices.try_emplace(p.name, c);
        if (!added && (c.iterations > it->second.iterations ||
                       (c.iterations == it->second.iterations && c.solutions > it->second.solutions)))
          it->second = c;
      }
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    } catch (const std::exception& e) {
      report.warnings.push_back(std::string(e.what()) + " (left out of the joined records)");
    }
  }
  for (const auto& [name, c] : choices) used[c.source] = true;

  // The joined file: made by the writer, then the problems copied in.
  const std::string partial = joined + ".joining";
  fs::remove(partial, ec);
  records::RunInfo info = run;
  std::string all_hosts;
  for (const std::string& h : hosts) all_hosts += (all_hosts.empty() ? "" : ",") + h;
  if (!all_hosts.empty()) info.hosts = all_hosts;
  records::Writer::create_or_resume(partial, info, {}).close();

  double elapsed = 0;
  std::string joined_from;
  {
    Handle fapl = file_access(true);
    Handle out(H5Fopen(partial.c_str(), H5F_ACC_RDWR, fapl.get()));
    require(out.valid(), partial, "cannot reopen the joined file");
    Handle src_fapl = file_access(false);
    for (size_t s = 0; s < sources.size(); ++s) {
      if (!used[s]) continue;
      Handle in(H5Fopen(sources[s].c_str(), H5F_ACC_RDONLY, src_fapl.get()));
      require(in.valid(), sources[s], "cannot open to copy its problems");
      if (std::optional<double> e = read_elapsed(in.get())) elapsed = std::max(elapsed, *e);
      joined_from += (joined_from.empty() ? "" : ",") + fs::path(sources[s]).filename().string();
      for (const auto& [name, c] : choices) {
        if (c.source != s) continue;
        const std::string object = "problems/" + name;
        require(H5Ocopy(in.get(), object.c_str(), out.get(), object.c_str(), H5P_DEFAULT, H5P_DEFAULT) >= 0,
                partial, "cannot copy problem " + name + " from " + sources[s]);
        ++report.problems;
        report.names.push_back(name);
      }
    }
    write_elapsed(out.get(), elapsed, partial);
    h5::write_attribute(out.get(), "joined_from", joined_from, partial);
    require(H5Fflush(out.get(), H5F_SCOPE_GLOBAL) >= 0, partial, "cannot flush");
  }
  std::sort(report.names.begin(), report.names.end());
  commit_file(partial, joined);
  remove_shards(run_dir);  // all in records.h5 now
  return report;
}

}  // namespace gs::records

// Reader: opens a records file read-only, takes the longest prefix of each table that
// every column has, and says what a crash left missing or inconsistent (warnings()).
#include <filesystem>
#include <map>
#include <stdexcept>

#include "records/layout.h"
#include "records/records.h"

namespace gs::records {

namespace {

struct ProblemTables {
  h5::Handle candidates, iterations, solutions;  // invalid when the table is missing
  u64 candidate_rows = 0, iteration_rows = 0, solution_rows = 0;
};

// At most this many warnings of one kind per problem, then a count of the rest.
constexpr size_t kWarningsPerKind = 5;

}  // namespace

struct Reader::Impl {
  std::string path;
  h5::Handle file;
  RunAttributes attributes;
  std::vector<ProblemInfo> problems;
  std::map<std::string, ProblemTables> tables;
  std::vector<std::string> warnings;

  [[noreturn]] void fail(const std::string& why) const { throw std::runtime_error(path + ": " + why); }
  void warn(const std::string& problem, const std::string& what) {
    warnings.push_back(path + ": problem " + problem + ": " + what);
  }
  void read_attributes();
  void load_problem(hid_t problems_group, const std::string& name);
  template <class Record>
  u64 table(hid_t group, const char* name, std::span<const layout::Column<Record>> columns,
            const std::string& problem, h5::Handle* out);
  void check_commits(const std::string& problem, const ProblemTables& t);
  const ProblemTables& find(const std::string& problem) const {
    auto it = tables.find(problem);
    if (it == tables.end()) fail("no problem named '" + problem + "'");
    return it->second;
  }
};

void Reader::Impl::read_attributes() {
  hid_t root = file.get();
  if (h5::read_string_attribute(root, "format") != "gpusynth-records")
    fail("not a gpusynth records file (its root has no format attribute 'gpusynth-records')");
  RunAttributes& a = attributes;
  a.format_version = u32(h5::read_integer_attribute(root, "format_version").value_or(0));
  if (a.format_version == 0 || a.format_version > kTraceFormatVersion)
    fail("records format " + std::to_string(a.format_version) + "; this gpusynth reads formats 1 to " +
         std::to_string(kTraceFormatVersion));
  a.gpusynth_version = h5::read_string_attribute(root, "gpusynth_version").value_or("");
  a.created = h5::read_string_attribute(root, "created").value_or("");
  a.last_opened = h5::read_string_attribute(root, "last_opened").value_or("");
  a.sessions = u32(h5::read_integer_attribute(root, "sessions").value_or(0));
  a.run.seed = h5::read_integer_attribute(root, "seed").value_or(0);
  a.run.config_text = h5::read_string_attribute(root, "config").value_or("");
  a.run.command_line = h5::read_string_attribute(root, "command_line").value_or("");
  a.run.hosts = h5::read_string_attribute(root, "hosts").value_or("");
  a.run.devices = h5::read_string_attribute(root, "devices").value_or("");
  a.sampling.every = u32(h5::read_integer_attribute(root, "sampling_every").value_or(1));
  a.sampling.improvements = h5::read_integer_attribute(root, "sampling_improvements").value_or(1) != 0;
  a.sampling.byte_budget = h5::read_integer_attribute(root, "byte_budget").value_or(0);
  a.budget_exceeded = h5::read_integer_attribute(root, "budget_exceeded").value_or(0) != 0;
  a.budget_note = h5::read_string_attribute(root, "budget_note").value_or("");
}

// The rows of one table every column has; a warning when it is missing or its columns differ.
template <class Record>
u64 Reader::Impl::table(hid_t group, const char* name, std::span<const layout::Column<Record>> columns,
                        const std::string& problem, h5::Handle* out) {
  if (!h5::exists(group, name)) {
    warn(problem,
         std::string("the ") + name + " table is missing (the run stopped while creating the problem?)");
    return 0;
  }
  *out = h5::open_group(group, name, path);
  std::vector<std::string> damage;
  layout::TableRows rows = layout::table_rows(out->get(), columns, path, &damage);
  for (const std::string& d : damage) warn(problem, std::string(name) + ": " + d);
  if (damage.empty() && rows.common != rows.longest)
    warn(problem, std::string(name) + ": its columns hold " + std::to_string(rows.common) + " to " +
                      std::to_string(rows.longest) + " rows (a flush was cut short); reading the first " +
                      std::to_string(rows.common));
  return rows.common;
}

// An iteration is committed by its iterations row, written after its candidates: candidates
// without one, or a row whose candidates are not all there, mean a flush was cut short.
void Reader::Impl::check_commits(const std::string& problem, const ProblemTables& t) {
  std::vector<u32> rows_iteration, recorded;
  if (t.iterations.valid()) {
    rows_iteration = layout::read_u32_column(t.iterations.get(), "iteration", t.iteration_rows, path);
    recorded = layout::read_u32_column(t.iterations.get(), "candidates_recorded", t.iteration_rows, path);
  }
  std::optional<u32> last;
  if (!rows_iteration.empty()) last = rows_iteration.back();
  std::map<u32, u64> found;
  u64 uncommitted = 0;
  if (t.candidates.valid())
    for (u32 i : layout::read_u32_column(t.candidates.get(), "iteration", t.candidate_rows, path)) {
      found[i]++;
      uncommitted += !last || i > *last;
    }
  std::string after =
      last ? "after the last iteration row (" + std::to_string(*last) + ")" : "with no iteration row";
  if (uncommitted > 0)
    warn(problem, std::to_string(uncommitted) + " candidate rows " + after +
                      ": the run stopped before that iteration was recorded completely");
  size_t mismatches = 0;
  for (size_t r = 0; r < rows_iteration.size(); ++r) {
    u64 have = found.count(rows_iteration[r]) ? found[rows_iteration[r]] : 0;
    if (have == recorded[r]) continue;
    if (++mismatches <= kWarningsPerKind)
      warn(problem, "iteration " + std::to_string(rows_iteration[r]) + ": " + std::to_string(recorded[r]) +
                        " candidates were recorded, the candidates table holds " + std::to_string(have));
  }
  if (mismatches > kWarningsPerKind)
    warn(problem,
         std::to_string(mismatches - kWarningsPerKind) + " more iterations whose candidates are missing");
  if (t.solutions.valid()) {
    u64 late = 0;
    for (u32 i : layout::read_u32_column(t.solutions.get(), "iteration", t.solution_rows, path))
      late += !last || i > *last;
    if (late > 0) warn(problem, std::to_string(late) + " solution rows " + after);
  }
}

void Reader::Impl::load_problem(hid_t problems_group, const std::string& name) {
  try {
    h5::Handle g = h5::open_group(problems_group, name, path);
    ProblemInfo info;
    info.name = h5::read_string_attribute(g.get(), "name").value_or(name);
    info.signature = h5::read_string_attribute(g.get(), "signature").value_or("");
    info.train_cases = u32(h5::read_integer_attribute(g.get(), "train_cases").value_or(0));
    info.test_cases = u32(h5::read_integer_attribute(g.get(), "test_cases").value_or(0));
    info.source_file = h5::read_string_attribute(g.get(), "source_file").value_or("");
    info.policy = h5::read_string_attribute(g.get(), "policy").value_or("");
    ProblemTables t;
    t.candidate_rows = table(g.get(), layout::kCandidates, layout::candidate_columns(), name, &t.candidates);
    t.iteration_rows = table(g.get(), layout::kIterations, layout::iteration_columns(), name, &t.iterations);
    t.solution_rows = table(g.get(), layout::kSolutions, layout::solution_columns(), name, &t.solutions);
    try {
      check_commits(name, t);
    } catch (const std::runtime_error& e) {
      warn(name, std::string("its iteration numbers cannot be read (") + e.what() + ")");
    }
    problems.push_back(info);
    tables[name] = std::move(t);
  } catch (const std::runtime_error& e) {
    warn(name, std::string("cannot be read, skipped (") + e.what() + ")");
  }
}

Reader Reader::open(const std::string& path) {
  h5::initialize();
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    impl->fail("is a directory; a records file is RUN/" + records_file_name() +
               " (or RUN/records.rank-K.h5 for rank K of a distributed campaign)");
  if (!std::filesystem::exists(path, ec)) impl->fail("no such file");
  htri_t hdf5 = h5::is_hdf5(path);
  if (hdf5 <= 0) {
    std::string why = h5::last_error();
    impl->fail(hdf5 == 0 ? "not an HDF5 file" : "cannot be read as HDF5" + (why.empty() ? "" : ": " + why));
  }
  // No file lock: a run being written can be read between its flushes, when the file is whole.
  h5::Handle fapl(h5::check(H5Pcreate(H5P_FILE_ACCESS), path, "cannot make a property list"));
  H5Pset_file_locking(fapl.get(), false, true);
  impl->file = h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()));
  if (!impl->file.valid()) {
    std::string why = h5::last_error();
    impl->fail("cannot open as HDF5 (damaged or cut short?)" + (why.empty() ? "" : ": " + why));
  }
  impl->read_attributes();
  if (!h5::exists(impl->file.get(), "problems"))
    impl->fail("not a gpusynth records file (no /problems group)");
  h5::Handle group = h5::open_group(impl->file.get(), "problems", path);
  for (const std::string& name : h5::members(group.get(), path)) impl->load_problem(group.get(), name);
  return Reader(std::move(impl));
}

Reader::Reader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Reader::Reader(Reader&&) noexcept = default;
Reader& Reader::operator=(Reader&&) noexcept = default;
Reader::~Reader() = default;

const std::string& Reader::path() const { return impl_->path; }
const RunAttributes& Reader::attributes() const { return impl_->attributes; }
const std::vector<ProblemInfo>& Reader::problems() const { return impl_->problems; }
const std::vector<std::string>& Reader::warnings() const { return impl_->warnings; }

u64 Reader::candidate_count(const std::string& problem) const { return impl_->find(problem).candidate_rows; }

std::vector<CandidateRecord> Reader::candidates(const std::string& problem, u64 first, u64 count) const {
  const ProblemTables& t = impl_->find(problem);
  if (!t.candidates.valid() || first >= t.candidate_rows) return {};
  count = std::min(count, t.candidate_rows - first);
  return layout::read_rows(t.candidates.get(), layout::candidate_columns(), first, count, impl_->path);
}

std::vector<IterationRecord> Reader::iterations(const std::string& problem) const {
  const ProblemTables& t = impl_->find(problem);
  if (!t.iterations.valid()) return {};
  return layout::read_rows(t.iterations.get(), layout::iteration_columns(), 0, t.iteration_rows, impl_->path);
}

std::vector<SolutionRecord> Reader::solutions(const std::string& problem) const {
  const ProblemTables& t = impl_->find(problem);
  if (!t.solutions.valid()) return {};
  return layout::read_rows(t.solutions.get(), layout::solution_columns(), 0, t.solution_rows, impl_->path);
}

}  // namespace gs::records

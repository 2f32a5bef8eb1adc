#include "records/layout.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "vm/trap.h"

namespace gs::records::layout {

namespace {

// A column of a numeric or enumerated field, stored as T.
#define GS_FIELD(Record, field, kind, T)                    \
  Column<Record> {                                          \
#field, Kind::kind, [](const Record& r, void* out, u32) { \
      T v = T(r.field);                                    \
      std::memcpy(out, &v, sizeof v);                      \
    },                                                     \
        [](Record& r, const void* in, u32) {               \
          T v;                                             \
          std::memcpy(&v, in, sizeof v);                   \
          r.field = decltype(r.field)(v);                  \
        } \
  }
#define GS_STRING_FIELD(Record, field)                                                              \
  Column<Record> {                                                                                  \
#field, Kind::STRING,                                                                             \
        [](const Record& r, void* out, u32) { *static_cast<const std::string**>(out) = &r.field; }, \
        [](Record& r, const void* in, u32) { r.field = **static_cast<const std::string* const*>(in); } \
  }

template <class Record>
constexpr Column<Record> renamed(Column<Record> c, const char* legacy) {
  c.legacy = legacy;
  return c;
}

template <class Record>
constexpr Column<Record> added(Column<Record> c) {
  c.added = true;
  return c;
}

// The name a table stores column c under: its name, or in an older file its legacy name.
template <class Record>
const char* stored_name(hid_t table_group, const Column<Record>& c) {
  if (c.legacy != nullptr && !h5::exists(table_group, c.name) && h5::exists(table_group, c.legacy))
    return c.legacy;
  return c.name;
}

// Whether the table is an older file's that lacks the added column c (readers then keep the
// record's default; a resuming writer adds it).
template <class Record>
bool lacks(hid_t table_group, const Column<Record>& c) {
  return c.added && !h5::exists(table_group, c.name);
}

using C = CandidateRecord;
const Column<C> kCandidateColumns[] = {
    GS_FIELD(C, id, I64, i64),
    GS_FIELD(C, iteration, U32, u32),
    GS_FIELD(C, index, U32, u32),
    GS_FIELD(C, generator, GENERATOR, u8),
    GS_STRING_FIELD(C, source),
    GS_FIELD(C, bytecode_bytes, U32, u32),
    GS_FIELD(C, bytecode_hash, U64, u64),
    GS_FIELD(C, compile_path, COMPILE_PATH, u8),
    GS_FIELD(C, status, STATUS, u8),
    GS_FIELD(C, trap, TRAP, u8),
    renamed(GS_FIELD(C, train_passed, U32, u32), "tests_passed"),
    GS_FIELD(C, reward, F32, float),
    {"parents", Kind::I64_PAIR,
     [](const C& r, void* out, u32) { std::memcpy(out, r.parents, sizeof r.parents); },
     [](C& r, const void* in, u32) { std::memcpy(r.parents, in, sizeof r.parents); }},
    added(GS_FIELD(C, syntax_nodes, U32, u32)),
    added(Column<C>{"case_errors", Kind::F32_CASES,
                    [](const C& r, void* out, u32 width) {
                      // NaN (not judged) for the cases the record has no value for.
                      float* values = static_cast<float*>(out);
                      for (u32 k = 0; k < width; ++k)
                        values[k] = k < r.case_errors.size() ? r.case_errors[k]
                                                             : std::numeric_limits<float>::quiet_NaN();
                    },
                    [](C& r, const void* in, u32 width) {
                      const float* values = static_cast<const float*>(in);
                      r.case_errors.assign(values, values + width);
                    }}),
};

using I = IterationRecord;
const Column<I> kIterationColumns[] = {
    GS_FIELD(I, iteration, U32, u32),
    GS_FIELD(I, candidates_evaluated, U32, u32),
    GS_FIELD(I, candidates_recorded, U32, u32),
    GS_FIELD(I, cumulative_candidates, U64, u64),
    GS_FIELD(I, elapsed_seconds, F64, double),
    GS_FIELD(I, generate_seconds, F64, double),
    GS_FIELD(I, compile_seconds, F64, double),
    GS_FIELD(I, execute_seconds, F64, double),
    GS_FIELD(I, score_seconds, F64, double),
    GS_FIELD(I, select_seconds, F64, double),
    GS_FIELD(I, best_reward, F32, float),
    renamed(GS_FIELD(I, best_train_passed, U32, u32), "best_tests_passed"),
    GS_FIELD(I, solved, U8, u8),
};

using S = SolutionRecord;
const Column<S> kSolutionColumns[] = {
    GS_FIELD(S, candidate_id, I64, i64), GS_FIELD(S, iteration, U32, u32),
    GS_STRING_FIELD(S, source),          GS_STRING_FIELD(S, simplified_source),
    GS_FIELD(S, train_passed, U32, u32), GS_FIELD(S, train_total, U32, u32),
    GS_FIELD(S, test_passed, U32, u32),  GS_FIELD(S, test_total, U32, u32),
    GS_FIELD(S, generalises, U8, u8),
};

#undef GS_FIELD
#undef GS_STRING_FIELD

bool is_enum(Kind k) {
  return k == Kind::GENERATOR || k == Kind::COMPILE_PATH || k == Kind::STATUS || k == Kind::TRAP;
}

// The most train cases an F32_CASES column may have per row (far above any problem's).
constexpr u64 kMaxCases = u64(1) << 20;

// Values per row: a problem's train cases for F32_CASES.
u32 width(Kind k, u32 cases) {
  if (k == Kind::F32_CASES) return std::max(cases, 1u);
  return k == Kind::I64_PAIR ? 2 : 1;
}

// Whether a stored column of kind k may have w values per row (any number of cases up to
// kMaxCases for F32_CASES, else exactly its kind's width).
bool width_fits(Kind k, u64 w) { return k == Kind::F32_CASES ? w >= 1 && w <= kMaxCases : w == width(k, 0); }

// Rows per chunk of a column: the table's, fewer for wide rows so that a chunk stays within
// HDF5's default chunk cache (1 MiB).
u32 chunk_rows_of(Kind k, u32 table_rows, u32 cases) {
  if (k != Kind::F32_CASES) return table_rows;
  return std::clamp<u32>(u32((256u << 10) / (4 * u64(width(k, cases)))), 1u, table_rows);
}

// Bytes of one row's values in memory.
size_t value_bytes(Kind k, u32 width) {
  switch (k) {
    case Kind::F32_CASES: return 4 * size_t(width);
    case Kind::U32:
    case Kind::F32: return 4;
    case Kind::U64:
    case Kind::I64:
    case Kind::F64: return 8;
    case Kind::STRING: return sizeof(const std::string*);
    case Kind::I64_PAIR: return 16;
    default: return 1;  // U8 and the enumerations
  }
}

h5::Handle enum_type(Kind k) {
  h5::Handle t(H5Tenum_create(H5T_NATIVE_UINT8));
  auto add = [&](const char* name, u32 value) {
    u8 v = u8(value);
    H5Tenum_insert(t.get(), name, &v);
  };
  switch (k) {
    case Kind::GENERATOR: {
      u32 code = 0;
#define GS_X(id, name) add(name, code++);
      GS_GENERATOR_KINDS(GS_X)
#undef GS_X
      break;
    }
    case Kind::COMPILE_PATH:
      for (u32 p = 0; p <= u32(CompilePath::HYBRID); ++p) add(compile_path_name(CompilePath(p)), p);
      break;
    case Kind::STATUS:
      for (u32 s = 0; s < pipeline::kProgramStatusCount; ++s)
        add(pipeline::status_name(pipeline::ProgramStatus(s)), s);
      break;
    default:  // TRAP
      for (u32 c = 0; c < vm::kTrapCount; ++c) add(vm::trap_name(vm::Trap(c)), c);
      add("not_run", pipeline::kNotRun);
      break;
  }
  return t;
}

// Little-endian standard types in the file, whatever the writer's machine.
h5::Handle file_type(Kind k) {
  switch (k) {
    case Kind::U8: return h5::Handle(H5Tcopy(H5T_STD_U8LE));
    case Kind::U32: return h5::Handle(H5Tcopy(H5T_STD_U32LE));
    case Kind::U64: return h5::Handle(H5Tcopy(H5T_STD_U64LE));
    case Kind::I64:
    case Kind::I64_PAIR: return h5::Handle(H5Tcopy(H5T_STD_I64LE));
    case Kind::F32:
    case Kind::F32_CASES: return h5::Handle(H5Tcopy(H5T_IEEE_F32LE));
    case Kind::F64: return h5::Handle(H5Tcopy(H5T_IEEE_F64LE));
    case Kind::STRING: return h5::string_type();
    default: return enum_type(k);
  }
}

h5::Handle memory_type(Kind k) {
  switch (k) {
    case Kind::U8: return h5::Handle(H5Tcopy(H5T_NATIVE_UINT8));
    case Kind::U32: return h5::Handle(H5Tcopy(H5T_NATIVE_UINT32));
    case Kind::U64: return h5::Handle(H5Tcopy(H5T_NATIVE_UINT64));
    case Kind::I64:
    case Kind::I64_PAIR: return h5::Handle(H5Tcopy(H5T_NATIVE_INT64));
    case Kind::F32:
    case Kind::F32_CASES: return h5::Handle(H5Tcopy(H5T_NATIVE_FLOAT));
    case Kind::F64: return h5::Handle(H5Tcopy(H5T_NATIVE_DOUBLE));
    case Kind::STRING: return h5::string_type();
    default: return enum_type(k);
  }
}

h5::Handle open_column(hid_t table_group, const char* name, const std::string& path) {
  h5::require_hard_link(table_group, name, path);
  return h5::Handle(
      h5::check(H5Dopen2(table_group, name, H5P_DEFAULT), path, std::string("cannot open column ") + name));
}

// The type to read an enumeration column with: the file's own, so codes come back unchanged
// even from a file whose enumeration has more names than this build knows.
h5::Handle read_type(hid_t dataset, Kind k, const std::string& path, const char* name) {
  if (!is_enum(k)) return memory_type(k);
  h5::Handle t(h5::check(H5Dget_type(dataset), path, std::string("cannot read the type of ") + name));
  if (H5Tget_class(t.get()) != H5T_ENUM || H5Tget_size(t.get()) != 1)
    throw std::runtime_error(path + ": column " + name + " is not a one-byte enumeration");
  return t;
}

template <class T>
std::vector<T> read_column(hid_t table_group, const char* name, hid_t mem_type, u64 count,
                           const std::string& path) {
  h5::Handle d = open_column(table_group, name, path);
  std::vector<T> out(count);
  h5::read(d.get(), mem_type, 0, count, out.data(), path);
  return out;
}

// STRING columns. Format 2 stores one as a ragged byte column: NAME_bytes (u8, every row's bytes
// end to end, chunked, compressed and checksummed like any other column) and NAME_end (u64, where
// each row's bytes end), so that row i is NAME_bytes[NAME_end[i-1]:NAME_end[i]]. Format 1 stored
// variable-length strings, which live in HDF5's global heap: no checksum covers them and libhdf5
// crashes on a damaged one. Those are still read, never written.
std::string bytes_name(const char* column) { return std::string(column) + "_bytes"; }
std::string ends_name(const char* column) { return std::string(column) + "_end"; }
constexpr u32 kStringChunkBytes = 64u << 10;
// The most bytes one row of a string column may hold (far above any source's).
constexpr u64 kMaxStringBytes = u64(64) << 20;

bool ragged(hid_t table, const char* column) { return h5::exists(table, ends_name(column)); }

void create_string_column(hid_t table, const char* column, u32 chunk_rows, const std::string& path) {
  h5::Handle bytes = file_type(Kind::U8), ends = file_type(Kind::U64);
  h5::create_column(table, bytes_name(column), bytes.get(), 1, kStringChunkBytes, path);
  h5::create_column(table, ends_name(column), ends.get(), 1, chunk_rows, path);
}

struct RaggedColumn {
  h5::Handle bytes, ends;
};

RaggedColumn open_ragged(hid_t table, const char* column, const std::string& path) {
  return {open_column(table, bytes_name(column).c_str(), path),
          open_column(table, ends_name(column).c_str(), path)};
}

// Where the first `rows` rows' bytes end.
u64 end_of(const RaggedColumn& c, u64 rows, const std::string& path) {
  u64 end = 0;
  if (rows > 0) h5::read(c.ends.get(), H5T_NATIVE_UINT64, rows - 1, 1, &end, path);
  return end;
}

void append_strings(hid_t table, const char* column, std::span<const std::string* const> texts,
                    const std::string& path) {
  if (!ragged(table, column))
    throw std::runtime_error(path + ": column " + column +
                             " holds format 1 strings; this gpusynth appends to format 2 only");
  RaggedColumn c = open_ragged(table, column, path);
  const u64 base = end_of(c, h5::rows(c.ends.get(), path), path);
  h5::resize(c.bytes.get(), base, path);  // bytes a crash left past the last row are not kept
  std::string all;
  std::vector<u64> ends;
  ends.reserve(texts.size());
  for (const std::string* t : texts) {
    all += *t;
    ends.push_back(base + all.size());
  }
  h5::append(c.bytes.get(), H5T_NATIVE_UINT8, all.data(), all.size(), path);
  h5::append(c.ends.get(), H5T_NATIVE_UINT64, ends.data(), ends.size(), path);
}

std::vector<std::string> read_strings(hid_t table, const char* column, u64 first, u64 count,
                                      const std::string& path) {
  if (!ragged(table, column)) {
    h5::Handle d = open_column(table, column, path);
    return h5::read_strings(d.get(), first, count, path);
  }
  RaggedColumn c = open_ragged(table, column, path);
  // end[0] is where row `first` begins, end[i] where row first + i - 1 ends.
  std::vector<u64> end(count + 1, 0);
  if (first == 0)
    h5::read(c.ends.get(), H5T_NATIVE_UINT64, 0, count, end.data() + 1, path);
  else
    h5::read(c.ends.get(), H5T_NATIVE_UINT64, first - 1, count + 1, end.data(), path);
  const u64 held = h5::rows(c.bytes.get(), path);
  for (u64 i = 0; i <= count; ++i) {
    const bool ok =
        end[i] <= held && (i == 0 || (end[i] >= end[i - 1] && end[i] - end[i - 1] <= kMaxStringBytes));
    if (!ok)
      throw std::runtime_error(path + ": column " + ends_name(column) + ": row " +
                               std::to_string(first + i - 1) + " ends at byte " + std::to_string(end[i]) +
                               ", which is not a row of the " + std::to_string(held) + " bytes " +
                               bytes_name(column) + " holds after the rows before");
  }
  std::string all(end[count] - end[0], '\0');
  h5::read(c.bytes.get(), H5T_NATIVE_UINT8, end[0], all.size(), all.data(), path);
  if (const size_t nul = all.find('\0'); nul != std::string::npos)  // the writer stores none
    throw std::runtime_error(path + ": column " + bytes_name(column) + ": byte " +
                             std::to_string(end[0] + nul) +
                             " is a NUL, which no string of a records file holds (damaged)");
  std::vector<std::string> out(count);
  for (u64 i = 0; i < count; ++i) out[i] = all.substr(end[i] - end[0], end[i + 1] - end[i]);
  return out;
}

// Rows of a string column: those whose bytes the file holds.
u64 string_rows(hid_t table, const char* column, const std::string& path) {
  if (!ragged(table, column)) return h5::rows(open_column(table, column, path).get(), path);
  RaggedColumn c = open_ragged(table, column, path);
  const u64 rows = h5::rows(c.ends.get(), path), held = h5::rows(c.bytes.get(), path);
  if (end_of(c, rows, path) <= held) return rows;
  // A crash between the two appends, or damage: the rows before the first that ends past the
  // bytes (or before its start).
  std::vector<u64> end(rows);
  h5::read(c.ends.get(), H5T_NATIVE_UINT64, 0, rows, end.data(), path);
  u64 n = 0;
  while (n < rows && end[n] <= held && (n == 0 || end[n] >= end[n - 1])) ++n;
  return n;
}

void truncate_strings(hid_t table, const char* column, u64 count, const std::string& path) {
  if (!ragged(table, column)) return h5::resize(open_column(table, column, path).get(), count, path);
  RaggedColumn c = open_ragged(table, column, path);
  h5::resize(c.bytes.get(), end_of(c, count, path), path);
  h5::resize(c.ends.get(), count, path);
}

}  // namespace

std::span<const Column<CandidateRecord>> candidate_columns() { return kCandidateColumns; }
std::span<const Column<IterationRecord>> iteration_columns() { return kIterationColumns; }
std::span<const Column<SolutionRecord>> solution_columns() { return kSolutionColumns; }

// Creates column c in a table group.
template <class Record>
void create_column(hid_t table_group, const Column<Record>& c, u32 chunk_rows, u32 cases,
                   const std::string& path) {
  if (c.kind == Kind::STRING) return create_string_column(table_group, c.name, chunk_rows, path);
  h5::Handle type = file_type(c.kind);
  std::optional<double> fill;
  if (c.kind == Kind::F32_CASES) fill = std::numeric_limits<double>::quiet_NaN();  // not judged
  h5::create_column(table_group, c.name, type.get(), width(c.kind, cases),
                    chunk_rows_of(c.kind, chunk_rows, cases), path, fill);
}

template <class Record>
void create_table(hid_t problem_group, const char* table, std::span<const Column<Record>> columns,
                  u32 chunk_rows, u32 cases, const std::string& path) {
  h5::Handle g = h5::create_group(problem_group, table, path);
  for (const Column<Record>& c : columns) create_column(g.get(), c, chunk_rows, cases, path);
}

template <class Record>
void add_missing_columns(hid_t table_group, std::span<const Column<Record>> columns, u32 chunk_rows,
                         u32 cases, u64 rows, const std::string& path) {
  for (const Column<Record>& c : columns) {
    if (!lacks(table_group, c)) continue;
    create_column(table_group, c, chunk_rows, cases, path);
    h5::Handle d = open_column(table_group, c.name, path);
    // Written, not only sized: readers believe no rows past the allocated chunks (h5::rows).
    const u32 w = u32(h5::width(d.get(), path));
    const size_t bytes = value_bytes(c.kind, w);
    const Record defaults{};
    h5::Handle type = memory_type(c.kind);
    std::vector<unsigned char> buffer;
    for (u64 done = 0; done < rows;) {
      const u64 n = std::min<u64>(rows - done, 4096);
      buffer.resize(n * bytes);
      for (u64 i = 0; i < n; ++i) c.get(defaults, buffer.data() + i * bytes, w);
      h5::append(d.get(), type.get(), buffer.data(), n, path);
      done += n;
    }
  }
}

template <class Record>
void append_rows(hid_t table_group, std::span<const Column<Record>> columns, std::span<const Record> rows,
                 const std::string& path) {
  if (rows.empty()) return;
  std::vector<unsigned char> buffer;
  for (const Column<Record>& c : columns) {
    if (c.kind == Kind::STRING) {
      std::vector<const std::string*> texts(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) c.get(rows[i], &texts[i], 1);
      append_strings(table_group, c.name, texts, path);
      continue;
    }
    h5::Handle d = open_column(table_group, stored_name(table_group, c), path);
    const u32 w = u32(h5::width(d.get(), path));
    size_t bytes = value_bytes(c.kind, w);
    buffer.resize(rows.size() * bytes);
    for (size_t i = 0; i < rows.size(); ++i) c.get(rows[i], buffer.data() + i * bytes, w);
    h5::Handle type = memory_type(c.kind);
    h5::append(d.get(), type.get(), buffer.data(), rows.size(), path);
  }
}

template <class Record>
std::vector<Record> read_rows(hid_t table_group, std::span<const Column<Record>> columns, u64 first,
                              u64 count, const std::string& path) {
  std::vector<Record> rows(count);
  if (count == 0) return rows;
  std::vector<unsigned char> buffer;
  for (const Column<Record>& c : columns) {
    const char* name = stored_name(table_group, c);
    if (lacks(table_group, c)) continue;  // an older file: the defaults
    if (c.kind == Kind::STRING) {
      std::vector<std::string> texts = read_strings(table_group, c.name, first, count, path);
      for (u64 i = 0; i < count; ++i) {
        const std::string* p = &texts[i];
        c.set(rows[i], &p, 1);
      }
      continue;
    }
    h5::Handle d = open_column(table_group, name, path);
    const u64 w = h5::width(d.get(), path);
    if (!width_fits(c.kind, w))
      throw std::runtime_error(path + ": column " + c.name + " has " + std::to_string(w) + " values per row");
    size_t bytes = value_bytes(c.kind, u32(w));
    buffer.resize(count * bytes);
    h5::Handle type = read_type(d.get(), c.kind, path, c.name);
    h5::read(d.get(), type.get(), first, count, buffer.data(), path);
    for (u64 i = 0; i < count; ++i) c.set(rows[i], buffer.data() + i * bytes, u32(w));
  }
  return rows;
}

template <class Record>
TableRows table_rows(hid_t table_group, std::span<const Column<Record>> columns, const std::string& path,
                     std::vector<std::string>* problems) {
  TableRows r{std::numeric_limits<u64>::max(), 0};
  for (const Column<Record>& c : columns) {
    u64 n = 0;
    const char* name = stored_name(table_group, c);
    if (lacks(table_group, c)) continue;
    if (!h5::exists(table_group, name) && !(c.kind == Kind::STRING && ragged(table_group, c.name))) {
      problems->push_back(std::string("column ") + c.name + " is missing");
    } else {
      try {
        n = c.kind == Kind::STRING ? string_rows(table_group, c.name, path)
                                   : h5::rows(open_column(table_group, name, path).get(), path);
      } catch (const std::runtime_error& e) {
        problems->push_back(std::string("column ") + c.name + " cannot be read (" + e.what() + ")");
      }
    }
    r.common = std::min(r.common, n);
    r.longest = std::max(r.longest, n);
  }
  if (r.common == std::numeric_limits<u64>::max()) r.common = 0;
  return r;
}

template <class Record>
void truncate_table(hid_t table_group, std::span<const Column<Record>> columns, u64 count,
                    const std::string& path) {
  for (const Column<Record>& c : columns) {
    const char* name = stored_name(table_group, c);
    if (lacks(table_group, c)) continue;
    if (c.kind == Kind::STRING) {
      truncate_strings(table_group, c.name, count, path);
      continue;
    }
    h5::Handle d = open_column(table_group, name, path);
    h5::resize(d.get(), count, path);  // also an extent past the allocated rows
  }
}

std::vector<u32> read_u32_column(hid_t table_group, const char* name, u64 count, const std::string& path) {
  return read_column<u32>(table_group, name, H5T_NATIVE_UINT32, count, path);
}
std::vector<float> read_f32_column(hid_t table_group, const char* name, u64 count, const std::string& path) {
  return read_column<float>(table_group, name, H5T_NATIVE_FLOAT, count, path);
}
std::vector<i64> read_i64_column(hid_t table_group, const char* name, u64 count, const std::string& path) {
  return read_column<i64>(table_group, name, H5T_NATIVE_INT64, count, path);
}

#define GS_INSTANTIATE(Record)                                                                       \
  template void create_table<Record>(hid_t, const char*, std::span<const Column<Record>>, u32, u32,  \
                                     const std::string&);                                            \
  template void add_missing_columns<Record>(hid_t, std::span<const Column<Record>>, u32, u32, u64,   \
                                            const std::string&);                                     \
  template void append_rows<Record>(hid_t, std::span<const Column<Record>>, std::span<const Record>, \
                                    const std::string&);                                             \
  template std::vector<Record> read_rows<Record>(hid_t, std::span<const Column<Record>>, u64, u64,   \
                                                 const std::string&);                                \
  template TableRows table_rows<Record>(hid_t, std::span<const Column<Record>>, const std::string&,  \
                                        std::vector<std::string>*);                                  \
  template void truncate_table<Record>(hid_t, std::span<const Column<Record>>, u64, const std::string&);
GS_INSTANTIATE(CandidateRecord)
GS_INSTANTIATE(IterationRecord)
GS_INSTANTIATE(SolutionRecord)
#undef GS_INSTANTIATE

}  // namespace gs::records::layout

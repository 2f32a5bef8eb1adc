// The tables of a records file as code (docs/trace-format.md is the same layout in prose): each
// table is a group of one-dimensional datasets, one per column, so h5py reads a column as one
// numpy array and a column can be added without breaking older readers. The writer and the
// reader both go through these lists, so they cannot disagree on a name or a type.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "records/hdf5.h"
#include "records/records.h"

namespace gs::records::layout {

// Value kinds of columns. Enumerations are stored as HDF5 enum types (one byte), so the names
// of the codes travel with the file. F32_CASES is one f32 per train case of the problem.
enum class Kind : u8 {
  U8,
  U32,
  U64,
  I64,
  F32,
  F64,
  STRING,
  GENERATOR,
  COMPILE_PATH,
  STATUS,
  TRAP,
  I64_PAIR,
  F32_CASES
};

template <class Record>
struct Column {
  const char* name;
  Kind kind;
  // One row's values of the column's memory type (a const std::string* for STRING, two i64 for
  // I64_PAIR, `width` floats for F32_CASES) from the record, and back.
  void (*get)(const Record&, void* out, u32 width);
  void (*set)(Record&, const void* in, u32 width);
  // The name files written before the column was renamed hold it under (docs/trace-format.md
  // "Renamed columns"); readers accept either, writers use `name`.
  const char* legacy = nullptr;
  // A column added after the format's first files (docs/trace-format.md "Added columns"): a
  // file may lack it. Readers then leave the record's default; a writer resuming the file adds
  // it (add_missing_columns).
  bool added = false;
};

std::span<const Column<CandidateRecord>> candidate_columns();
std::span<const Column<IterationRecord>> iteration_columns();
std::span<const Column<SolutionRecord>> solution_columns();

// Group names of the tables under /problems/NAME, and rows per chunk of each.
inline constexpr const char* kCandidates = "candidates";
inline constexpr const char* kIterations = "iterations";
inline constexpr const char* kSolutions = "solutions";
inline constexpr u32 kCandidateChunkRows = 1024, kIterationChunkRows = 64, kSolutionChunkRows = 64;

// Creates the table's group and its empty columns; `cases` (the problem's train cases) sizes the
// F32_CASES columns.
template <class Record>
void create_table(hid_t problem_group, const char* table, std::span<const Column<Record>> columns,
                  u32 chunk_rows, u32 cases, const std::string& path);
// Creates the added columns an older file's table lacks, filled with their defaults up to the
// table's `rows`.
template <class Record>
void add_missing_columns(hid_t table_group, std::span<const Column<Record>> columns, u32 chunk_rows,
                         u32 cases, u64 rows, const std::string& path);
// Appends rows to every column of an existing table.
template <class Record>
void append_rows(hid_t table_group, std::span<const Column<Record>> columns, std::span<const Record> rows,
                 const std::string& path);
// Rows [first, first + count) of every column (each column must have them).
template <class Record>
std::vector<Record> read_rows(hid_t table_group, std::span<const Column<Record>> columns, u64 first,
                              u64 count, const std::string& path);

// The rows every column of a table has, and how many each has: a crash while appending can
// leave columns of different lengths. A missing or unreadable column counts as 0 rows and is
// named in *problems (a missing added column is no problem and does not count).
struct TableRows {
  u64 common = 0, longest = 0;
};
template <class Record>
TableRows table_rows(hid_t table_group, std::span<const Column<Record>> columns, const std::string& path,
                     std::vector<std::string>* problems);
// Cuts every column of the table to `count` rows.
template <class Record>
void truncate_table(hid_t table_group, std::span<const Column<Record>> columns, u64 count,
                    const std::string& path);

// One u32 / f32 column read whole (the iteration numbers of a table, say), first `count` rows.
std::vector<u32> read_u32_column(hid_t table_group, const char* name, u64 count, const std::string& path);
std::vector<float> read_f32_column(hid_t table_group, const char* name, u64 count, const std::string& path);
std::vector<i64> read_i64_column(hid_t table_group, const char* name, u64 count, const std::string& path);

}  // namespace gs::records::layout

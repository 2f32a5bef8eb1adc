// The records of a distributed campaign: each rank writes its own RUN/records.rank-K.h5
// (records::records_file_name(K)) (HDF5 files cannot take writes from several processes without parallel
// HDF5), and rank 0 joins them into RUN/records.h5 when the campaign ends, so that h5py, `gpusynth trace` and
// scripts/plot_trace.py read one file with the layout of docs/trace-format.md.
#pragma once

#include <string>
#include <vector>

#include "records/records.h"

namespace gs::records {

struct JoinReport {
  u32 sources = 0;                    // files read (rank files and the records.h5 there before)
  u32 problems = 0;                   // problems in the joined file
  std::vector<std::string> warnings;  // sources or problems left out, and why
};

// Rebuilds RUN/records.h5 from the rank files and the records.h5 already there (a single-process
// session's or an earlier join's). A problem can be in several of them — it was interrupted on
// one rank and searched again on another after a resume — and is then taken, whole, from the
// file holding the most complete iterations of it (a search is deterministic given its seed, so
// a shorter record is a prefix of the longer one); ties go to the first in rank order. The new
// file is written beside the old one and renamed over it, so a crash during the join leaves the
// old one. `run` gives the joined file's root attributes; every source must have its seed.
// Throws std::runtime_error ("PATH: why") when a source has another seed or the file cannot be
// written; a source that cannot be read is left out with a warning.
JoinReport join_records(const std::string& run_dir, const records::RunInfo& run);

}  // namespace gs::records

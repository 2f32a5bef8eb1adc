// The records of a campaign: each problem is recorded into its own shard (records/shards.h; HDF5
// files cannot take writes from several processes without parallel HDF5, and a shard committed
// whole survives any crash), and rank 0 joins them into RUN/records.h5 when the campaign ends, so
// that h5py, `gpusynth trace` and scripts/plot_trace.py read one file with the layout of
// docs/trace-format.md.
#pragma once

#include <string>
#include <vector>

#include "records/records.h"

namespace gs::records {

struct JoinReport {
  u32 sources = 0;                    // files read (shards, rank files, the records.h5 there before)
  u32 problems = 0;                   // problems in the joined file
  std::vector<std::string> names;     // their names, in name order
  std::vector<std::string> warnings;  // sources or problems left out, and why
};

// Rebuilds RUN/records.h5 from the committed shards, the rank files of an earlier version and the
// records.h5 already there (an earlier join's, or an earlier version's one-process run). A
// problem can be in several of them (an earlier version's file held a problem interrupted, and
// a shard holds it searched again) and is then taken, whole, from the file holding the most
// complete iterations of it (a search is deterministic given its seed, so a shorter record is a
// prefix of the longer one); ties go to the shard. The new file is written beside the old one,
// synced and renamed over it, so a crash during the join leaves the old one and the shards; once
// it is committed, the shards are removed. `run` gives the joined file's root attributes; every
// source must have its seed.
// Throws std::runtime_error ("PATH: why") when a source has another seed or the file cannot be
// written; a source that cannot be read is left out with a warning.
JoinReport join_records(const std::string& run_dir, const records::RunInfo& run);

}  // namespace gs::records

// A campaign's records, one shard per problem (docs/trace-format.md "Campaigns: shards, the
// ledger, the join"): a problem's search records into RUN/shards/NAME.h5.part, a plain records
// file; when the problem ends, the shard is closed, synced and renamed to RUN/shards/NAME.h5
// (committed) before the ledger lists the problem. A kill, a full disk or a power loss therefore
// leaves committed shards whole and at most one part per rank, which the next session removes
// and searches again from the start. At the end rank 0 joins the shards into RUN/records.h5
// (records/join.h) and removes them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "records/records.h"

namespace gs::records {

// RUN/shards.
std::string shards_directory(const std::string& run_dir);
// The shard's file name for a problem: NAME.h5 when the name is made of letters, digits, '-',
// '_' and '.' (not first) and is short; otherwise problem-HEX.h5, HEX a hash of the name (the
// name itself is the group's inside).
std::string shard_file_name(const std::string& problem);
// The committed shards (regular files RUN/shards/*.h5), in name order; empty when none.
std::vector<std::string> committed_shards(const std::string& run_dir);
// Why RUN/shards cannot hold a campaign's shards ("is a symbolic link", "is not a directory"), or
// "" when it is a directory or absent: checked by every rank before a campaign starts
// (cluster/run_files.h) and again where the directory is created.
std::string shards_directory_refusal(const std::string& run_dir);
// Removes the shards directory and everything in it (after a join has committed records.h5).
void remove_shards(const std::string& run_dir);

// One problem's shard while it is written.
class Shard {
 public:
  // Creates RUN/shards (a symbolic link or a file there is refused: std::runtime_error), removes
  // a part left by a killed session, and opens a writer on a new part.
  static Shard begin(const std::string& run_dir, const std::string& problem, const RunInfo& run,
                     const SamplingPolicy& sampling);
  Shard(Shard&& o) noexcept;
  Shard& operator=(Shard&&) noexcept = delete;
  ~Shard();  // discard(), unless committed

  Writer& writer() { return *writer_; }
  // Closes the writer and commits the part as NAME.h5 (replacing an older one). Throws, leaving
  // the part to be discarded, when a write, sync or rename fails.
  void commit();
  // Abandons the writer without writing more and removes the part (errors are ignored: it may
  // be what a full disk left).
  void discard() noexcept;

 private:
  Shard(std::string part, std::string committed, Writer writer);
  std::string part_, committed_;
  std::optional<Writer> writer_;
  bool done_ = false;
};

}  // namespace gs::records

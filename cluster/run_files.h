// What a campaign may write in its run directory: regular files, and its shards directory. Every
// file it writes or joins (campaign.jsonl, records.h5, records.h5.joining, and the rank files
// records.rank-K.h5 that earlier versions wrote) is checked before anything is opened: a
// symbolic link, a directory or a special file under one of those names is refused, and so is
// anything but a directory named shards, so a campaign never follows a link out of --out (a
// planted `campaign.jsonl -> ~/.bashrc`) or into another run's records. Inside shards/, links
// are removed or replaced, never followed (records/shards.h).
#pragma once

#include <string>

namespace gs::cluster {

// Whether `name` names a file a campaign writes in its run directory.
bool is_run_file(const std::string& name);

// False with *error = "RUN/NAME: is a symbolic link; ..." when a run file of run_dir is anything
// but a regular file or absent, or RUN/shards anything but a directory or absent.
bool run_files_are_regular(const std::string& run_dir, std::string* error);

}  // namespace gs::cluster

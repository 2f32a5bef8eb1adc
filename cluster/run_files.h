// What a campaign may write in its run directory: regular files only. Every file it writes
// (campaign.jsonl, records.h5, records.h5.joining, records.rank-K.h5) is checked before anything
// is opened: a symbolic link, a directory or a special file under one of those names is refused,
// so a campaign never follows a link out of --out (a planted `campaign.jsonl -> ~/.bashrc`) or
// into another run's records.
#pragma once

#include <string>

namespace gs::cluster {

// Whether `name` names a file a campaign writes in its run directory.
bool is_run_file(const std::string& name);

// False with *error = "RUN/NAME: is a symbolic link; ..." when any run file of run_dir, or
// `own` (a name this process is about to write, checked even if another one's), is anything but
// a regular file or absent.
bool run_files_are_regular(const std::string& run_dir, const std::string& own, std::string* error);

}  // namespace gs::cluster

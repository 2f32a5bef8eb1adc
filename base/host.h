// What a process knows of the machine it runs on, for progress lines and for the records and
// benchmark files that say where they were made: the host's name and wall-clock seconds. Every
// layer uses these, so they live at the bottom.
#pragma once

#include <unistd.h>

#include <chrono>
#include <string>

namespace gs {

// This machine's name (gethostname).
inline std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// Seconds of the steady clock since t.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace gs

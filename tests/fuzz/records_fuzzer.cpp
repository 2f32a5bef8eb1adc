// libFuzzer target: any bytes as a records file (docs/trace-format.md), read as `gpusynth trace`
// reads one: open it, then every problem's iterations, solutions and candidates. The property is
// the reader's contract: a result, or a std::runtime_error naming the file, never a crash, a hang
// or another exception; and when the reader is gone, no HDF5 identifier is left open (a leaked
// one keeps the file open inside libhdf5, which would then answer the next open of that path
// from the old file's cached metadata). Seeded with a small format 2 campaign's records (tests/fuzz/seeds/).
//
// libhdf5 is not instrumented (it is the system's): coverage is the reader's own, and a crash
// inside libhdf5 on crafted metadata is reported like any other.
#include <hdf5.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "records/records.h"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "gpusynth fuzz: %s\n", what.c_str());
  std::abort();
}

// One file per process, rewritten for each input (in /dev/shm when it exists: no disk writes).
const std::string& file_path() {
  static const std::string path = [] {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/gpusynth-records-fuzz-" + std::to_string(getpid()) + ".h5";
  }();
  return path;
}

void read_all(const gs::records::Reader& reader) {
  for (const gs::records::ProblemInfo& p : reader.problems()) {
    reader.iterations(p.name);
    reader.solutions(p.name);
    const gs::u64 rows = reader.candidate_count(p.name);
    for (gs::u64 first = 0; first < rows; first += 4096) reader.candidates(p.name, first, 4096);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = file_path();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0)
    fail("cannot write " + path);
  try {
    gs::records::Reader reader = gs::records::Reader::open(path);
    read_all(reader);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind(path, 0) != 0)
      fail(std::string("an error that does not name the file: ") + e.what());
  } catch (const std::exception& e) {
    fail(std::string("an exception other than a read error: ") + e.what());
  }
  if (const ssize_t open = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL); open != 0)
    fail(std::to_string(open) + " HDF5 identifiers left open after the reader is gone");
  return 0;
}

// What the robustness tests share: a seeded generator, the run's seed and case count (from the
// environment), random arguments of a function's parameter types, the Syn corpus under
// tests/programs, a failure log that saves reproducers, and a watchdog that turns a hang or a
// crash into a saved reproducer instead of an anonymous ctest timeout or signal.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// A sanitizer build (GPUSYNTH_SANITIZE=ON) ends the process on a report; the watchdog then
// saves the case it was running through the sanitizers' death callback.
#if defined(__SANITIZE_ADDRESS__)
#define GS_FUZZ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GS_FUZZ_SANITIZED 1
#endif
#endif
#ifndef GS_FUZZ_SANITIZED
#define GS_FUZZ_SANITIZED 0
#endif
#if GS_FUZZ_SANITIZED
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "trees/random_values.h"
#include "vm/limits.h"
#include "vm/program.h"
#include "vm/value.h"

namespace gs::fuzz {

// SplitMix64: small, fast, and the same sequence on every platform and standard library
// (std::uniform_int_distribution is not), so a seed names one run everywhere.
struct Rng {
  u64 state;
  explicit Rng(u64 seed) : state(seed) {}
  u64 next() {
    u64 z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  u64 below(u64 n) { return n == 0 ? 0 : next() % n; }
  bool chance(u32 percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }
};

inline u64 env_u64(const char* name, u64 fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == 0) return fallback;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 0);
  return end != nullptr && *end == 0 ? u64(v) : fallback;
}

inline u64 seed() { return env_u64("GPUSYNTH_FUZZ_SEED", 0x5eed2024); }
// The default count is for an optimised build; a sanitizer build, several times slower per
// case, runs a fifth of it by default so that the suite stays quick there too.
inline u64 cases(u64 fallback) {
  return env_u64("GPUSYNTH_FUZZ_CASES", GS_FUZZ_SANITIZED ? std::max<u64>(fallback / 5, 1) : fallback);
}

// Small bounds so that a random program's run is short; every one of them must still end in a
// result or a trap.
inline vm::Limits small_limits() {
  vm::Limits l;
  l.fuel = 20'000;
  l.stack_slots = 1024;
  l.call_depth = 16;
  l.heap_bytes = 64u << 10;
  return l;
}

// "BAD_OPERAND" and the like: the enumerator's name, for messages and outcome counts.
inline std::string verify_error_name(vm::VerifyError e) {
  switch (e) {
#define GS_X(name, text) \
  case vm::VerifyError::name: return #name;
    GS_VERIFY_ERRORS(GS_X)
#undef GS_X
  }
  return "?";
}

// ---- describing inputs ---------------------------------------------------------------------

// A C string literal for the first `max` bytes (a reproducer one can paste into a test).
inline std::string escaped(std::string_view s, size_t max = 600) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == '"') {
      out += '\\', out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x\"\"", c);  // "" stops the next char joining the escape
      out += buf;
    }
  }
  out += "\"";
  if (s.size() > max) out += " ... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

inline std::string hex(std::span<const u8> bytes, size_t max = 512) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < bytes.size() && i < max; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", bytes[i]);
    if (i > 0) out += (i % 16 == 0) ? '\n' : ' ';
    out += buf;
  }
  if (bytes.size() > max) out += " ... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

inline std::span<const u8> bytes_of(std::string_view s) {
  return {reinterpret_cast<const u8*>(s.data()), s.size()};
}

// Writes a failing input to fuzz-reproducers/<name> under the working directory (ctest runs a
// test in its build folder) and returns the path, for the failure message.
inline std::string save_reproducer(const std::string& name, std::span<const u8> bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::current_path(ec) / "fuzz-reproducers";
  fs::create_directories(dir, ec);
  fs::path file = dir / name;
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return out ? file.string() : "(could not write " + file.string() + ")";
}

// ---- failures ------------------------------------------------------------------------------

// Collects a campaign's failures. The first input of each kind of failure (its text with the
// numbers taken out) is reported in full and saved; the rest are counted, so one bug hit a
// thousand times does not hide a second one.
class FailureLog {
 public:
  explicit FailureLog(std::string campaign) : campaign_(std::move(campaign)) {}
  ~FailureLog() {
    if (kinds_.empty()) return;
    std::string summary;
    for (const auto& [kind, count] : kinds_) summary += "\n  " + std::to_string(count) + " x " + kind;
    ADD_FAILURE() << campaign_ << ": " << total_ << " failing inputs, by kind:" << summary;
  }
  FailureLog(const FailureLog&) = delete;
  FailureLog& operator=(const FailureLog&) = delete;

  // shown: the input as a reader should see it (escaped text, hex); ext: the saved file's.
  void add(const std::string& label, const std::string& problem, std::span<const u8> input,
           const std::string& shown, const std::string& ext) {
    ++total_;
    if (save_all_) save_reproducer(campaign_ + "-all-" + std::to_string(total_) + ext, input);
    if (++kinds_[kind_of(problem)] > 1 || kinds_.size() > kMaxKinds) return;
    std::string file = save_reproducer(campaign_ + "-" + std::to_string(kinds_.size()) + ext, input);
    ADD_FAILURE() << label << ": " << problem << "\n  input (" << input.size() << " bytes, saved to " << file
                  << "):\n"
                  << shown;
  }
  u64 total() const { return total_; }

 private:
  static constexpr size_t kMaxKinds = 20;

  static std::string kind_of(const std::string& problem) {
    std::string kind;
    for (char c : problem.substr(0, 100)) {
      bool digit = c >= '0' && c <= '9';
      if (!digit)
        kind += c;
      else if (kind.empty() || kind.back() != '#')
        kind += '#';
    }
    return kind;
  }

  std::string campaign_;
  bool save_all_ = env_u64("GPUSYNTH_FUZZ_SAVE_ALL", 0) != 0;  // every failing input, for triage
  std::map<std::string, u64> kinds_;
  u64 total_ = 0;
};

// ---- the corpus --------------------------------------------------------------------------

struct SynFile {
  std::string path;  // relative to tests/programs
  std::string text;
};

inline std::vector<SynFile> syn_corpus() {
  namespace fs = std::filesystem;
  fs::path root = fs::path(GPUSYNTH_SOURCE_DIR) / "tests" / "programs";
  std::vector<SynFile> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".syn") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files.push_back({fs::relative(entry.path(), root).string(),
                     std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())});
  }
  // Directory order differs between file systems; the seed must name the same run everywhere.
  std::sort(files.begin(), files.end(), [](const SynFile& a, const SynFile& b) { return a.path < b.path; });
  return files;
}

// ---- random arguments --------------------------------------------------------------------

inline i64 random_int(Rng& rng) {
  static const i64 edges[] = {0,
                              1,
                              -1,
                              2,
                              3,
                              7,
                              -7,
                              10,
                              100,
                              -100,
                              255,
                              256,
                              std::numeric_limits<i64>::min(),
                              std::numeric_limits<i64>::max()};
  switch (rng.below(4)) {
    case 0: return edges[rng.below(std::size(edges))];
    case 1: return i64(rng.next());
    default: return i64(rng.below(41)) - 20;
  }
}

inline double random_float(Rng& rng) {
  static const double edges[] = {0.0,
                                 -0.0,
                                 0.5,
                                 1.5,
                                 -2.25,
                                 1e300,
                                 -1e-300,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN()};
  if (rng.chance(40)) return edges[rng.below(std::size(edges))];
  return double(i64(rng.below(2001)) - 1000) / 8.0;
}

inline std::string random_string(Rng& rng) {
  static const std::string alphabet = "ab ,0123-+xyz\t\n";
  std::string s(rng.below(9), 'a');
  for (char& c : s) c = rng.chance(85) ? alphabet[rng.below(alphabet.size())] : char(rng.below(256));
  return s;
}

inline vm::Value random_value(Rng& rng, Type t) {
  switch (t) {
    case Type::Int: return vm::Value::of_int(random_int(rng));
    case Type::Float: return vm::Value::of_float(random_float(rng));
    case Type::Bool: return vm::Value::of_bool(rng.chance(50));
    case Type::Str: return vm::Value::of_str(random_string(rng));
    default: break;
  }
  std::vector<vm::Value> items(rng.below(7));
  for (vm::Value& v : items) v = random_value(rng, element_of(t));
  return vm::Value::of_array(element_of(t), std::move(items));
}

// Arguments of function fn's parameter types (the verifier guarantees value types).
inline std::vector<vm::Value> random_args(Rng& rng, const vm::Program& p, u32 fn) {
  const vm::FunctionRecord& f = p.function(fn);
  std::vector<vm::Value> args;
  for (u32 k = 0; k < f.param_count; ++k) args.push_back(random_value(rng, f.param_type(k)));
  return args;
}

// The function a problem would call: solve, else the first.
inline u32 entry_of(const vm::Program& p) {
  i32 solve = p.find("solve");
  return solve >= 0 ? u32(solve) : 0;
}

// ---- hangs and crashes --------------------------------------------------------------------

// Watches the case being run. A case that runs longer than the limit is a hang: the input is
// saved as a reproducer, described on stderr, and the process aborts, so the failure names its
// input instead of ending as an anonymous ctest timeout. A case that crashes the process — a
// signal, or a sanitizer report, which ends the process too — is saved and described the same
// way, just before the process dies.
class Watchdog {
 public:
  explicit Watchdog(std::string test_name)
      : name_(std::move(test_name)),
        limit_(std::chrono::seconds(env_u64("GPUSYNTH_FUZZ_HANG_SECONDS", 60))),
        since_(std::chrono::steady_clock::now()),
        thread_([this] { watch(); }) {
    install_crash_reporting();
    active() = this;
  }
  ~Watchdog() {
    active() = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // The case about to run; copied so that it can be saved if the case hangs or crashes.
  void begin(std::string label, std::span<const u8> input) {
    std::lock_guard<std::mutex> lock(mutex_);
    label_ = std::move(label);
    input_.assign(input.begin(), input.end());
    since_ = std::chrono::steady_clock::now();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, std::chrono::milliseconds(250));
      if (stop_ || std::chrono::steady_clock::now() - since_ < limit_) continue;
      describe("ran for more than " + std::to_string(limit_.count()) + " s (a hang)", "-hang.bin");
      std::abort();
    }
  }

  void describe(const std::string& what, const char* suffix) const {
    std::string path = save_reproducer(name_ + suffix, input_);
    std::fprintf(stderr, "\n%s: case '%s' %s: input saved to %s\n%s\n", name_.c_str(), label_.c_str(),
                 what.c_str(), path.c_str(), hex(input_, 256).c_str());
    std::fflush(stderr);
  }

  // Best effort on a dying process: no lock (the crash may be inside begin()), no cleanup.
  static void report_crash() {
    static bool reported = false;
    if (Watchdog* w = active(); w != nullptr && !reported) {
      reported = true;
      w->describe("crashed the process", "-crash.bin");
    }
  }
  static Watchdog*& active() {
    static Watchdog* current = nullptr;
    return current;
  }

  static void install_crash_reporting() {
#if GS_FUZZ_SANITIZED
    // The sanitizers own the fatal signals and end the process on a report; they call this last.
    __sanitizer_set_death_callback(report_crash);
    // GCC links UBSan as a library of its own, with its own list of death callbacks.
    if (void* ubsan = dlopen("libubsan.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      using Set = void (*)(void (*)());
      if (auto set = reinterpret_cast<Set>(dlsym(ubsan, "__sanitizer_set_death_callback"))) set(report_crash);
    }
#else
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
      std::signal(sig, [](int s) {
        report_crash();
        std::signal(s, SIG_DFL);
        std::raise(s);
      });
    }
#endif
  }

  std::string name_;
  std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::string label_;
  std::vector<u8> input_;
  std::chrono::steady_clock::time_point since_;
  std::thread thread_;  // last: started once everything it reads exists
};

}  // namespace gs::fuzz

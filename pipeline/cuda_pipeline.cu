// The CUDA backend of pipeline/pipeline.h (pipeline/cuda_pipeline.h). One run is one upload, the
// stages (the data-parallel lexer, then compile, verify, execute, score) back to back on one stream with no
// host synchronisation in between, one download and one synchronisation. Device buffers are kept between
// batches and grown, never shrunk; uploads and downloads go through pinned host buffers, each batch's arrays
// packed into one buffer so that each direction is a single copy.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "base/cuda_check.h"
#include "base/host.h"
#include "pipeline/cuda_compiler.h"
#include "pipeline/cuda_executor.h"
#include "pipeline/cuda_lexer.h"
#include "pipeline/cuda_pipeline.h"

namespace gs::pipeline {

namespace {

constexpr u64 kWarpThreads = 32;  // PipelineConfig::warp_per_program runs one warp per program
// Device memory left free for the CUDA runtime and the rest of the process.
constexpr u64 kHeadroomBytes = u64(256) << 20;
constexpr u64 kMiB = u64(1) << 20;

// Arrays packed one after another into one buffer, each at an 8-aligned byte offset.
class Packer {
 public:
  explicit Packer(u64 start = 0) : bytes_(start) {}
  template <class T>
  u64 add(u64 count) {
    u64 at = bytes_;
    bytes_ += (count * sizeof(T) + 7) & ~u64(7);
    return at;
  }
  u64 bytes() const { return bytes_; }

 private:
  u64 bytes_ = 0;
};

// What a batch uploads: its sources, its bytecode slot offsets (computed on the host) and the
// case set's six arrays.
struct InputLayout {
  u64 text, source_offsets, slot_offsets;
  u64 input_heap, input_offsets, input_slots, expected_heap, expected_offsets, expected_slots;
  u64 bytes;
};

InputLayout input_layout(const Sources& s, const CaseSet& t) {
  Packer p;
  InputLayout l;
  l.text = p.add<char>(s.text.size());
  l.source_offsets = p.add<u64>(s.offsets.size());
  l.slot_offsets = p.add<u64>(s.offsets.size());
  l.input_heap = p.add<u64>(t.input_heap().size());
  l.input_offsets = p.add<u32>(t.input_offsets().size());
  l.input_slots = p.add<u64>(t.input_slots().size());
  l.expected_heap = p.add<u64>(t.expected_heap().size());
  l.expected_offsets = p.add<u32>(t.expected_offsets().size());
  l.expected_slots = p.add<u64>(t.expected_slots().size());
  l.bytes = p.bytes();
  return l;
}

// What the stages write: the batch's results as BatchResults lays them out (ResultLayout: the
// per-program arrays, then the per-pair ones, downloaded only when the configuration keeps
// pairs), then what never leaves the device: the entry indices and the lexer's output
// (LexedBatch).
struct DeviceLayout {
  ResultLayout results;
  u64 entry;
  u64 tokens, token_count, lex_diagnostics, lex_diagnostic_count, lex_fallback;
  u64 bytes;
};

DeviceLayout device_layout(const SourceBatch& s, const BatchShape& shape) {
  const u32 programs = s.count;
  DeviceLayout l;
  l.results = ResultLayout::of(shape);
  Packer p(l.results.bytes);
  l.entry = p.add<u32>(programs);
  l.tokens = p.add<compiler::Token>(programs == 0 ? 0 : token_capacity(s));
  l.token_count = p.add<u32>(programs);
  l.lex_diagnostics = p.add<compiler::Diagnostic>(u64(programs) * kLexDiagnostics);
  l.lex_diagnostic_count = p.add<u32>(programs);
  l.lex_fallback = p.add<u8>(programs);
  l.bytes = p.bytes();
  return l;
}

// Per stage that needs scratch: the bytes of one thread's slice and how many threads are worth
// launching (the stage's work items, at most what the device runs at once).
struct StageScratch {
  u64 slice = 0;
  u64 threads = 0;
};

// The stages run one after another on one stream, so they share one scratch buffer.
struct ScratchPlan {
  u64 lex = 0;  // the batch lexer's per-byte arrays and CUB's storage, all needed at once
  StageScratch compile, verify, execute;
  u64 wanted = 0;   // room for every stage's threads (verify excepted: it takes what is there)
  u64 minimum = 0;  // room for the lexer and for one thread of each other stage
};

// Device memory one batch needs.
struct DeviceNeeds {
  u32 programs = 0, cases = 0;  // (for the message when it does not fit)
  u64 inputs = 0, bytecode = 0, results = 0;
  ScratchPlan scratch;
};

struct DeviceBuffer {
  u8* data = nullptr;
  u64 capacity = 0;
};

struct PinnedBuffer {
  u8* data = nullptr;
  u64 capacity = 0;
};

template <class T>
T* at(u8* base, u64 offset) {
  return reinterpret_cast<T*>(base + offset);
}

u64 mib_rounded_up(u64 bytes) { return (bytes + kMiB - 1) / kMiB; }

class CudaPipeline final : public Pipeline {
 public:
  explicit CudaPipeline(const PipelineConfig& c) : config_(c) {
    try {
      set_up();
    } catch (...) {
      release_all();
      throw;
    }
  }
  ~CudaPipeline() override { release_all(); }
  CudaPipeline(const CudaPipeline&) = delete;
  CudaPipeline& operator=(const CudaPipeline&) = delete;

  const char* name() const override { return "cuda"; }

  void run(const Sources& sources, const CaseSet& tests, BatchResults* out) override {
    const auto start = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaSetDevice(device_));
    const u32 n = sources.count();
    const CaseSetView& host_tests = tests.view();
    const u64 pairs = u64(n) * host_tests.case_count;
    const BatchShape shape{n, host_tests.case_count, config_.grade};
    out->reset(shape);
    if (!config_.keep_pairs) out->drop_pairs();
    if (n == 0) {
      out->memory_bytes = device_bytes();
      out->times.total = seconds_since(start);
      return;
    }

    const InputLayout in = input_layout(sources, tests);
    const DeviceLayout dev = device_layout(sources.view(), shape);
    const ResultLayout& res = dev.results;
    reserve_pinned(upload_, in.bytes);
    const u64 bytecode_bytes = stage_inputs(sources, tests, in);
    const u64 download_bytes = config_.keep_pairs ? res.bytes : res.programs_end;
    reserve_pinned(download_, download_bytes);
    const ScratchPlan plan = plan_scratch(sources, pairs);
    reserve_device(DeviceNeeds{n, host_tests.case_count, in.bytes, bytecode_bytes, dev.bytes, plan});

    u8* d_in = inputs_.data;
    u8* d_res = results_.data;
    SourceBatch s{n, at<const char>(d_in, in.text), at<const u64>(d_in, in.source_offsets)};
    BytecodeBatch b{n,
                    bytecode_.data,
                    at<const u64>(d_in, in.slot_offsets),
                    at<u32>(d_res, res.bytecode_bytes),
                    at<u8>(d_res, res.status),
                    at<u32>(d_res, dev.entry)};
    LexedBatch lexed{at<compiler::Token>(d_res, dev.tokens), at<u32>(d_res, dev.token_count),
                     at<compiler::Diagnostic>(d_res, dev.lex_diagnostics),
                     at<u32>(d_res, dev.lex_diagnostic_count), at<u8>(d_res, dev.lex_fallback)};
    CompileResults diagnostics{at<compiler::Diagnostic>(d_res, res.diagnostics),
                               at<u32>(d_res, res.diagnostic_count), at<u32>(d_res, res.syntax_nodes)};
    PairResults pair_results = res.pair_views(d_res);
    ProgramResults program_results = res.program_views(d_res);
    CaseSetView t = host_tests;
    t.input_heap = at<const u64>(d_in, in.input_heap);
    t.input_offsets = at<const u32>(d_in, in.input_offsets);
    t.input_slots = at<const u64>(d_in, in.input_slots);
    t.expected_heap = at<const u64>(d_in, in.expected_heap);
    t.expected_offsets = at<const u32>(d_in, in.expected_offsets);
    t.expected_slots = at<const u64>(d_in, in.expected_slots);

    const u64 scratch = scratch_.capacity;
    const u32 compile_threads = u32(std::min(plan.compile.threads, scratch / plan.compile.slice));
    const u32 verify_threads = u32(std::min(plan.verify.threads, scratch / plan.verify.slice));
    const u32 execute_threads = u32(std::min(plan.execute.threads, scratch / plan.execute.slice));
    const u32 score_threads = u32(std::min<u64>(n, resident_score_));
    void* stream = stream_;
    try {
      CUDA_CHECK(cudaEventRecord(events_[0], stream_));
      CUDA_CHECK(cudaMemcpyAsync(d_in, upload_.data, in.bytes, cudaMemcpyHostToDevice, stream_));
      // Kept diagnostics past a program's count stay zero, as the CPU backend leaves them.
      CUDA_CHECK(cudaMemsetAsync(d_res + res.diagnostics, 0,
                                 u64(n) * kBatchDiagnostics * sizeof(compiler::Diagnostic), stream_));
      CUDA_CHECK(cudaEventRecord(events_[1], stream_));
      if (config_.compile.language == compiler::Language::Syn)  // (the batch lexer lexes Syn only)
        CUDA_CHECK(cudaError_t(launch_lex(s, sources.text.size(), lexed, scratch_.data, scratch, stream)));
      launch_compile(s, lexed, b, diagnostics, config_.compile, scratch_.data, plan.compile.slice,
                     compile_threads, stream);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(events_[2], stream_));
      launch_verify(b, t, scratch_.data, verify_threads, stream);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(events_[3], stream_));
      launch_execute(b, t, pair_results, config_.limits, scratch_.data, execute_threads,
                     config_.warp_per_program, stream);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(events_[4], stream_));
      launch_score(b, t, pair_results, config_.reward, config_.limits.fuel, program_results, score_threads,
                   stream);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(events_[5], stream_));
      CUDA_CHECK(cudaMemcpyAsync(download_.data, d_res, download_bytes, cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaEventRecord(events_[6], stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
    } catch (...) {
      cudaStreamSynchronize(stream_);  // the pinned buffers must be idle before they are reused
      throw;
    }

    out->unpack(download_.data, res, shape, config_.keep_pairs);
    out->times.upload = seconds_between(0, 1);
    out->times.compile = seconds_between(1, 2);
    out->times.verify = seconds_between(2, 3);
    out->times.execute = seconds_between(3, 4);
    out->times.score = seconds_between(4, 5);
    out->times.download = seconds_between(5, 6);
    out->memory_bytes = device_bytes();
    out->times.total = seconds_since(start);
  }

 private:
  static constexpr int kEvents = 7;  // before upload, after upload and after each later stage

  double seconds_between(int from, int to) const {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[from], events_[to]));
    return ms / 1000.0;
  }

  // Device, stack limit, occupancies, stream and events: everything that does not depend on a
  // batch.
  void set_up() {
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    CUDA_CHECK(cudaSetDevice(int(config_.gpu % u32(count))));
    CUDA_CHECK(cudaGetDevice(&device_));
    int multiprocessors = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device_));
    // The compiler core recurses once per nesting level; too small a stack would end the context.
    size_t stack = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    const u64 needed = compile_stack_bytes(config_.compile);
    if (stack < needed) {
      cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, needed);
      if (e != cudaSuccess) {
        cudaGetLastError();
        throw std::runtime_error("cannot give each GPU thread the " + std::to_string(needed >> 10) +
                                 " KiB of stack the compiler needs at nesting depth " +
                                 std::to_string(config_.compile.max_depth) + ": " + cudaGetErrorString(e));
      }
    }
    const u32 sms = u32(multiprocessors);
    resident_compile_ = resident("compile", compile_resident_threads(sms));
    resident_verify_ = resident("verify", resident_threads(ExecutorKernel::Verify, sms));
    resident_execute_ = resident(
        "execute",
        resident_threads(
            config_.warp_per_program ? ExecutorKernel::ExecuteWarps : ExecutorKernel::ExecutePairs, sms));
    resident_score_ = resident("score", resident_threads(ExecutorKernel::Score, sms));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    for (cudaEvent_t& e : events_) CUDA_CHECK(cudaEventCreate(&e));
  }

  static u32 resident(const char* stage, u32 threads) {
    if (threads > 0) return threads;
    CUDA_CHECK(cudaGetLastError());
    throw std::runtime_error(std::string("the ") + stage + " kernel cannot run on this CUDA device");
  }

  // Copies sources, slot offsets and cases into the pinned upload buffer; returns the bytecode
  // bytes the slots need. Slots are sized exactly as the CPU backend sizes them.
  u64 stage_inputs(const Sources& sources, const CaseSet& tests, const InputLayout& in) {
    u8* up = upload_.data;
    const u32 n = sources.count();
    copy_bytes(up + in.text, sources.text.data(), sources.text.size());
    copy_bytes(up + in.source_offsets, sources.offsets.data(), sources.offsets.size() * sizeof(u64));
    u64* slots = at<u64>(up, in.slot_offsets);
    fill_slot_offsets(sources.offsets.data(), n, slots);
    copy_bytes(up + in.input_heap, tests.input_heap().data(), tests.input_heap().size() * sizeof(u64));
    copy_bytes(up + in.input_offsets, tests.input_offsets().data(),
               tests.input_offsets().size() * sizeof(u32));
    copy_bytes(up + in.input_slots, tests.input_slots().data(), tests.input_slots().size() * sizeof(u64));
    copy_bytes(up + in.expected_heap, tests.expected_heap().data(),
               tests.expected_heap().size() * sizeof(u64));
    copy_bytes(up + in.expected_offsets, tests.expected_offsets().data(),
               tests.expected_offsets().size() * sizeof(u32));
    copy_bytes(up + in.expected_slots, tests.expected_slots().data(),
               tests.expected_slots().size() * sizeof(u64));
    return slots[n];
  }

  ScratchPlan plan_scratch(const Sources& sources, u64 pairs) const {
    const u32 n = sources.count();
    u64 longest = 0;
    for (u32 i = 0; i < n; ++i) longest = std::max(longest, sources.offsets[i + 1] - sources.offsets[i]);
    if (sources.text.size() >= (u64(1) << 32))
      throw std::runtime_error(
          "batch of " + std::to_string(n) + " programs holds " +
          std::to_string(mib_rounded_up(sources.text.size())) +
          " MiB of source; the CUDA backend takes less than 4 GiB per batch (use a smaller batch)");
    ScratchPlan p;
    CUDA_CHECK(cudaError_t(lex_scratch_bytes(sources.text.size(), n, &p.lex)));
    p.compile.slice = batch_workspace_bytes(u32(std::min<u64>(longest, 0xffffffffu)), config_.compile);
    p.compile.threads = std::min<u64>(n, resident_compile_);
    p.verify.slice = verifier_scratch_bytes();
    p.verify.threads = std::min<u64>(n, resident_verify_);
    p.execute.slice = vm::machine_bytes(config_.limits);
    p.execute.threads =
        std::min<u64>(config_.warp_per_program ? u64(n) * kWarpThreads : pairs, resident_execute_);
    p.wanted = std::max(
        {p.lex, p.compile.slice * p.compile.threads, p.execute.slice * p.execute.threads, p.verify.slice});
    p.minimum = std::max({p.lex, p.compile.slice, p.verify.slice, p.execute.slice});
    return p;
  }

  // Makes the device buffers hold a batch: kept as they are when they do, else all freed and
  // allocated again, at least as large as before when that fits, else as the batch needs, with
  // the scratch cut down to what memory allows (fewer threads per stage, never fewer than one).
  void reserve_device(const DeviceNeeds& need) {
    const ScratchPlan& plan = need.scratch;
    const bool scratch_holds =
        scratch_.capacity >= plan.wanted || (scratch_capped_ && scratch_.capacity >= plan.minimum);
    if (need.inputs <= inputs_.capacity && need.bytecode <= bytecode_.capacity &&
        need.results <= results_.capacity && scratch_holds)
      return;
    const u64 grown_inputs = std::max(need.inputs, inputs_.capacity);
    const u64 grown_bytecode = std::max(need.bytecode, bytecode_.capacity);
    const u64 grown_results = std::max(need.results, results_.capacity);
    const u64 grown_scratch = std::max(plan.wanted, scratch_.capacity);
    release_device();
    size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const u64 usable = free > kHeadroomBytes ? free - kHeadroomBytes : 0;
    if (grown_inputs + grown_bytecode + grown_results + grown_scratch <= usable) {
      allocate(inputs_, grown_inputs);
      allocate(bytecode_, grown_bytecode);
      allocate(results_, grown_results);
      allocate(scratch_, grown_scratch);
      scratch_capped_ = false;
      return;
    }
    const u64 fixed = need.inputs + need.bytecode + need.results;
    if (fixed + plan.minimum > usable)
      throw std::runtime_error(
          "batch of " + std::to_string(need.programs) + " programs × " + std::to_string(need.cases) +
          " tests needs " + std::to_string(mib_rounded_up(fixed + plan.minimum + kHeadroomBytes)) +
          " MiB of device memory, " + std::to_string(free / kMiB) + " MiB free (use a smaller batch)");
    allocate(inputs_, need.inputs);
    allocate(bytecode_, need.bytecode);
    allocate(results_, need.results);
    const u64 scratch = std::min(plan.wanted, (usable - fixed) & ~u64(7));
    allocate(scratch_, scratch);
    scratch_capped_ = scratch < plan.wanted;
  }

  static void allocate(DeviceBuffer& b, u64 bytes) {
    if (bytes == 0) return;
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&b.data), bytes));
    b.capacity = bytes;
  }

  static void reserve_pinned(PinnedBuffer& b, u64 bytes) {
    if (bytes <= b.capacity) return;
    u8* old = b.data;
    b = PinnedBuffer{};
    if (old != nullptr) CUDA_CHECK(cudaFreeHost(old));
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&b.data), bytes, cudaHostAllocDefault));
    b.capacity = bytes;
  }

  u64 device_bytes() const {
    return inputs_.capacity + bytecode_.capacity + results_.capacity + scratch_.capacity;
  }

  void release_device() {
    for (DeviceBuffer* b : {&inputs_, &bytecode_, &results_, &scratch_}) {
      if (b->data != nullptr) cudaFree(b->data);
      *b = DeviceBuffer{};
    }
  }

  // Frees everything, ignoring errors: it runs in the destructor and after a failed set-up.
  void release_all() {
    if (stream_ != nullptr) cudaStreamSynchronize(stream_);
    release_device();
    for (PinnedBuffer* b : {&upload_, &download_}) {
      if (b->data != nullptr) cudaFreeHost(b->data);
      *b = PinnedBuffer{};
    }
    for (cudaEvent_t& e : events_) {
      if (e != nullptr) cudaEventDestroy(e);
      e = nullptr;
    }
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  PipelineConfig config_;
  int device_ = 0;
  u32 resident_compile_ = 0, resident_verify_ = 0, resident_execute_ = 0, resident_score_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t events_[kEvents] = {};
  DeviceBuffer inputs_, bytecode_, results_, scratch_;
  bool scratch_capped_ = false;  // scratch_ was cut to what memory allowed
  PinnedBuffer upload_, download_;
};

}  // namespace

int cuda_device_count(std::string* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear it: "no device" is an answer here, not a failure
    if (why != nullptr) *why = std::string("no CUDA device: ") + cudaGetErrorString(e);
    return 0;
  }
  if (count == 0 && why != nullptr) *why = "no CUDA device found";
  return count;
}

std::unique_ptr<Pipeline> make_cuda_pipeline(const PipelineConfig& config) {
  return std::make_unique<CudaPipeline>(config);
}

}  // namespace gs::pipeline

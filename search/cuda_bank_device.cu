// The value bank's CUDA device (search/bank_device.h): the kept behaviours in one device arena,
// slot after slot (each its cases' words, then traps in a second arena), and a chunk of
// applications as two kernels over search/bank_words.h — one thread per application and case
// for the outputs, one per application for its hash — with the operand slots copied in and the
// hashes copied out on one stream; the outputs stay in device memory until the enumeration
// gathers those of the tuples whose hash was new (a third kernel).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/cuda_check.h"
#include "pipeline/pipeline.h"
#include "search/bank_device.h"
#include "search/bank_words.h"

namespace gs::search::bank {

namespace {

constexpr u32 kThreads = 256;

__global__ void apply_kernel(vm::Op op, u32 arity, const u32* slots, u64 count, u32 cases, const u64* words,
                             const u8* traps, u64* out_words, u8* out_traps) {
  const u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count * cases) return;
  const u64 j = i / cases, k = i % cases;
  const u64 a = u64(slots[j * arity]) * cases + k, b = u64(slots[j * arity + arity - 1]) * cases + k;
  out_traps[i] = apply_word(op, traps[a], words[a], traps[b], words[b], &out_words[i]);
}

__global__ void hash_kernel(Type result, u64 count, u32 cases, const u64* words, const u8* traps,
                            u64* hashes) {
  const u64 j = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= count) return;
  hashes[j] = word_behaviour_hash(result, traps + j * cases, words + j * cases, cases);
}

// Outputs i of the tuples `picked` (count of them), case by case, out of the last application's.
__global__ void gather_kernel(const u32* picked, u64 count, u32 cases, const u64* words, const u8* traps,
                              u64* into_words, u8* into_traps) {
  const u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count * cases) return;
  const u64 from = u64(picked[i / cases]) * cases + i % cases;
  into_words[i] = words[from];
  into_traps[i] = traps[from];
}

// A device allocation of T that grows by doubling, keeping what it holds.
template <class T>
struct Arena {
  T* data = nullptr;
  u64 capacity = 0;  // elements

  void reserve(u64 n, u64 keep, cudaStream_t stream) {
    if (n <= capacity) return;
    const u64 grown = std::max(n, 2 * capacity);
    T* fresh = nullptr;
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&fresh), grown * sizeof(T)));
    if (keep > 0)
      CUDA_CHECK(cudaMemcpyAsync(fresh, data, keep * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (data != nullptr) cudaFree(data);
    data = fresh;
    capacity = grown;
  }
  void release() {
    if (data != nullptr) cudaFree(data);
    data = nullptr;
    capacity = 0;
  }
};

u32 blocks(u64 threads) { return u32((threads + kThreads - 1) / kThreads); }

class CudaBankDevice final : public BankDevice {
 public:
  CudaBankDevice(u32 cases, u32 gpu) : BankDevice(cases) {
    std::string why;
    const int count = pipeline::cuda_device_count(&why);
    if (count == 0) throw std::runtime_error("the value bank's CUDA device cannot be had: " + why);
    CUDA_CHECK(cudaSetDevice(int(gpu % u32(count))));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CudaBankDevice() override {
    for (Arena<u64>* a : {&words_, &out_words_, &hashes_, &gathered_words_}) a->release();
    for (Arena<u8>* a : {&traps_, &out_traps_, &gathered_traps_}) a->release();
    for (Arena<u32>* a : {&slots_, &picked_}) a->release();
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  const char* name() const override { return "cuda"; }

 protected:
  void store(std::span<const u64> words, std::span<const u8> traps) override {
    const u64 at = stored_words_;
    words_.reserve(at + words.size(), at, stream_);
    traps_.reserve(at + traps.size(), at, stream_);
    CUDA_CHECK(
        cudaMemcpyAsync(words_.data + at, words.data(), words.size_bytes(), cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(
        cudaMemcpyAsync(traps_.data + at, traps.data(), traps.size_bytes(), cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host's spans are the caller's
    stored_words_ += words.size();
  }

  void run(vm::Op op, Type result, u32 arity, std::span<const u32> slots, u64* hashes) override {
    const u64 count = slots.size() / arity, n = cases(), outputs = count * n;
    if (outputs == 0) {  // no cases: every behaviour is the empty one
      std::fill(hashes, hashes + count, word_behaviour_hash(result, nullptr, nullptr, 0));
      return;
    }
    slots_.reserve(slots.size(), 0, stream_);
    out_words_.reserve(outputs, 0, stream_);
    out_traps_.reserve(outputs, 0, stream_);
    hashes_.reserve(count, 0, stream_);
    CUDA_CHECK(
        cudaMemcpyAsync(slots_.data, slots.data(), slots.size_bytes(), cudaMemcpyHostToDevice, stream_));
    apply_kernel<<<blocks(outputs), kThreads, 0, stream_>>>(
        op, arity, slots_.data, count, u32(n), words_.data, traps_.data, out_words_.data, out_traps_.data);
    CUDA_CHECK(cudaGetLastError());
    hash_kernel<<<blocks(count), kThreads, 0, stream_>>>(result, count, u32(n), out_words_.data,
                                                         out_traps_.data, hashes_.data);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(hashes, hashes_.data, count * sizeof(u64), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void gather(std::span<const u32> tuples, u64* words, u8* traps) override {
    const u64 n = cases(), outputs = tuples.size() * n;
    if (outputs == 0) return;
    picked_.reserve(tuples.size(), 0, stream_);
    gathered_words_.reserve(outputs, 0, stream_);
    gathered_traps_.reserve(outputs, 0, stream_);
    CUDA_CHECK(
        cudaMemcpyAsync(picked_.data, tuples.data(), tuples.size_bytes(), cudaMemcpyHostToDevice, stream_));
    gather_kernel<<<blocks(outputs), kThreads, 0, stream_>>>(picked_.data, tuples.size(), u32(n),
                                                             out_words_.data, out_traps_.data,
                                                             gathered_words_.data, gathered_traps_.data);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(
        cudaMemcpyAsync(words, gathered_words_.data, outputs * sizeof(u64), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaMemcpyAsync(traps, gathered_traps_.data, outputs, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  cudaStream_t stream_ = nullptr;
  u64 stored_words_ = 0;  // words (and traps) in the arenas
  Arena<u64> words_, out_words_, hashes_, gathered_words_;
  Arena<u8> traps_, out_traps_, gathered_traps_;
  Arena<u32> slots_, picked_;
};

}  // namespace

std::unique_ptr<BankDevice> make_cuda_bank_device(u32 cases, u32 gpu) {
  return std::make_unique<CudaBankDevice>(cases, gpu);
}

}  // namespace gs::search::bank

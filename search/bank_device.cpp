#include "search/bank_device.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "search/bank_words.h"

namespace gs::search::bank {

void BankDevice::keep(u32 id, const Behaviour& b) {
  if (!is_word(b.type) || b.words.size() != cases_ || b.traps.size() != cases_)
    throw std::invalid_argument("bank device: entry " + std::to_string(id) + " is not a word behaviour of " +
                                std::to_string(cases_) + " cases");
  if (id < slot_of_.size())
    throw std::invalid_argument("bank device: entry " + std::to_string(id) + " kept after a later one");
  slot_of_.resize(u64(id) + 1, kNotKept);
  slot_of_[id] = stored_ + u32(staged_words_.size() / (cases_ == 0 ? 1 : cases_));
  staged_words_.insert(staged_words_.end(), b.words.begin(), b.words.end());
  staged_traps_.insert(staged_traps_.end(), b.traps.begin(), b.traps.end());
}

void BankDevice::apply(vm::Op op, Type result, u32 arity, std::span<const u32> ids, std::span<u64> hashes) {
  if (arity < 1 || arity > 2 || vm::scalar_arity(op) != arity)
    throw std::invalid_argument("bank device: " + std::to_string(arity) + " operands for an instruction of " +
                                std::to_string(vm::scalar_arity(op)));
  if (ids.size() != u64(arity) * hashes.size())
    throw std::invalid_argument("bank device: " + std::to_string(ids.size()) + " operands for " +
                                std::to_string(hashes.size()) + " applications of " + std::to_string(arity));
  slots_.resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= slot_of_.size() || slot_of_[ids[i]] == kNotKept)
      throw std::invalid_argument("bank device: entry " + std::to_string(ids[i]) + " was not kept");
    slots_[i] = slot_of_[ids[i]];
  }
  if (!staged_words_.empty()) {
    store(staged_words_, staged_traps_);
    stored_ += u32(staged_words_.size() / cases_);
    staged_words_.clear();
    staged_traps_.clear();
  }
  applied_ = hashes.size();
  result_ = result;
  if (!hashes.empty()) run(op, result, arity, slots_, hashes.data());
}

void BankDevice::outputs(std::span<const u32> tuples, std::span<Behaviour> into) {
  if (into.size() != tuples.size())
    throw std::invalid_argument("bank device: " + std::to_string(into.size()) + " behaviours for " +
                                std::to_string(tuples.size()) + " tuples");
  for (u32 j : tuples)
    if (j >= applied_)
      throw std::invalid_argument("bank device: tuple " + std::to_string(j) + " of " +
                                  std::to_string(applied_) + " applied");
  const u64 n = cases_;
  out_words_.resize(tuples.size() * n);
  out_traps_.resize(tuples.size() * n);
  if (!tuples.empty()) gather(tuples, out_words_.data(), out_traps_.data());
  for (size_t i = 0; i < tuples.size(); ++i) {
    into[i].type = result_;
    into[i].words.assign(out_words_.begin() + i * n, out_words_.begin() + (i + 1) * n);
    into[i].traps.assign(out_traps_.begin() + i * n, out_traps_.begin() + (i + 1) * n);
    into[i].too_long = false;
  }
}

namespace {

class HostBankDevice final : public BankDevice {
 public:
  using BankDevice::BankDevice;
  const char* name() const override { return "host"; }

 protected:
  void store(std::span<const u64> words, std::span<const u8> traps) override {
    words_.insert(words_.end(), words.begin(), words.end());
    traps_.insert(traps_.end(), traps.begin(), traps.end());
  }
  void run(vm::Op op, Type result, u32 arity, std::span<const u32> slots, u64* hashes) override {
    const u64 n = cases(), count = slots.size() / arity;
    last_words_.resize(count * n);
    last_traps_.resize(count * n);
    u64* words = last_words_.data();
    u8* traps = last_traps_.data();
    for (u64 j = 0; j < count; ++j) {
      const u64 a = u64(slots[j * arity]) * n, b = u64(slots[j * arity + arity - 1]) * n;
      for (u64 k = 0; k < n; ++k)
        traps[j * n + k] =
            apply_word(op, traps_[a + k], words_[a + k], traps_[b + k], words_[b + k], &words[j * n + k]);
      hashes[j] = word_behaviour_hash(result, traps + j * n, words + j * n, u32(n));
    }
  }
  void gather(std::span<const u32> tuples, u64* words, u8* traps) override {
    const u64 n = cases();
    for (size_t i = 0; i < tuples.size(); ++i) {
      std::copy_n(last_words_.begin() + tuples[i] * n, n, words + i * n);
      std::copy_n(last_traps_.begin() + tuples[i] * n, n, traps + i * n);
    }
  }

 private:
  std::vector<u64> words_, last_words_;  // the kept entries; the last run()'s outputs
  std::vector<u8> traps_, last_traps_;
};

}  // namespace

std::unique_ptr<BankDevice> make_host_bank_device(u32 cases) {
  return std::make_unique<HostBankDevice>(cases);
}

#if !GPUSYNTH_HAVE_CUDA
std::unique_ptr<BankDevice> make_cuda_bank_device(u32, u32) {
  throw std::runtime_error(
      "the value bank's CUDA device: this build has no CUDA backend (configure with -DGPUSYNTH_CUDA=ON)");
}
#endif

}  // namespace gs::search::bank

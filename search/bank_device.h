// The value bank on a device (issue 21, docs/search.md "On a GPU"): the behaviours of the banked
// int, bool and float expressions kept in the device's memory, and a chunk of a heap-free
// production's applications to them evaluated there, outputs, traps and observational-equivalence
// hashes, by a kernel over the same host+device core as the CPU's direct path
// (search/bank_words.h). The enumeration (search/bank_enumerator.h) hands such chunks to its device
// when it has one and banks the results as it banks the CPU's, so the search is the same on
// either; what reads the cases' heaps (lists, strings, the loops) stays on the CPU.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "search/value_bank.h"

namespace gs::search::bank {

class BankDevice {
 public:
  explicit BankDevice(u32 cases) : cases_(cases) {}
  virtual ~BankDevice() = default;
  BankDevice(const BankDevice&) = delete;
  BankDevice& operator=(const BankDevice&) = delete;
  virtual const char* name() const = 0;
  u32 cases() const { return cases_; }

  // Keeps entry `id`'s behaviour (an int, bool or float one of the device's case count) for
  // later applications; ids grow from call to call. It reaches the device with the next
  // apply(). std::invalid_argument for another type or case count, or an id not above the last.
  void keep(u32 id, const Behaviour& b);
  // `op` (a heap-free instruction, vm/scalar_ops.h) of `arity` (1 or 2) word operands, result
  // type `result`, applied to hashes.size() tuples of kept entries — tuple j is ids[j * arity ..]
  // — into hashes[j], the behaviour_hash of its outputs. The outputs stay on the device, for
  // outputs(), until the next apply(): the enumeration needs those of the few tuples whose hash
  // is new, so only they cross back. std::invalid_argument for an id not kept or spans of other
  // sizes.
  void apply(vm::Op op, Type result, u32 arity, std::span<const u32> ids, std::span<u64> hashes);
  // The last apply()'s tuples `tuples` (indices among its tuples) into into[i], as
  // Operation::apply would give them. std::invalid_argument for a tuple past the last apply()'s.
  void outputs(std::span<const u32> tuples, std::span<Behaviour> into);

 protected:
  // Appends entries to the device's store, slot after slot: `words` and `traps` hold
  // words.size() / cases() of them, each its cases' words (traps) in order.
  virtual void store(std::span<const u64> words, std::span<const u8> traps) = 0;
  // Tuple j of `slots` (slots.size() / arity tuples of stored slots) applied, its outputs kept
  // where gather() finds them, and its hash into hashes[j].
  virtual void run(vm::Op op, Type result, u32 arity, std::span<const u32> slots, u64* hashes) = 0;
  // The outputs of the last run()'s tuples `tuples` into words and traps [i * cases() ..].
  virtual void gather(std::span<const u32> tuples, u64* words, u8* traps) = 0;

 private:
  static constexpr u32 kNotKept = ~0u;
  u32 cases_;
  std::vector<u32> slot_of_;       // by entry id: its slot, or kNotKept
  u32 stored_ = 0;                 // slots on the device
  std::vector<u64> staged_words_;  // slots kept since, not yet stored
  std::vector<u8> staged_traps_;
  std::vector<u32> slots_;  // apply()'s tuples as slots
  u64 applied_ = 0;         // … how many, and their type
  Type result_ = Type::Unit;
  std::vector<u64> out_words_;  // outputs()' gathered outputs
  std::vector<u8> out_traps_;
};

// CUDA device `gpu` (modulo the devices present) for cases of `cases` cases. std::runtime_error
// when this build has no CUDA backend or no device can be had.
std::unique_ptr<BankDevice> make_cuda_bank_device(u32 cases, u32 gpu);

// The same on the host, one thread, the entries copied as the CUDA one copies them: the reference
// the CUDA device is tested against, and how the enumeration's use of a device is tested where
// no GPU is lent.
std::unique_ptr<BankDevice> make_host_bank_device(u32 cases);

}  // namespace gs::search::bank

// The value bank's device interface (search/bank_device.h) on the host: the host device applies
// every heap-free production as Operation::apply's direct path does (outputs, traps, hashes), an
// enumeration with the device banks what one without banks, in the same order, and bad use is
// refused. bank_device_cuda_test.cpp holds the CUDA device to the same, where a GPU is lent.
#include "search/bank_device.h"

#include <gtest/gtest.h>

#include "tests/unit/bank_device_cases.h"

namespace gs::search::bank {
namespace {

using testing::int_cases;

TEST(BankDevice, TheHostDeviceAppliesAsTheDirectPath) {
  for (u32 n : {1u, 7u, 50u}) {
    const std::unique_ptr<Cases> cases = int_cases(n, n);
    const std::unique_ptr<BankDevice> device = make_host_bank_device(n);
    testing::expect_device_applies_as_the_host(*device, *cases, 12, 64, 1000 + n);
  }
}

TEST(BankDevice, AnEnumerationWithADeviceBanksWhatOneWithoutDoes) {
  const std::unique_ptr<Cases> cases = int_cases(20, 7);
  const testing::Enumerated cpu = testing::enumerate(*cases, nullptr, 60'000);
  const testing::Enumerated host = testing::enumerate(*cases, make_host_bank_device(20), 60'000);
  EXPECT_EQ(cpu.evaluated, 60'000u);
  EXPECT_GT(cpu.texts.size(), 1000u);
  testing::expect_same(cpu, host);
}

TEST(BankDevice, BadUseIsRefused) {
  const std::unique_ptr<Cases> cases = int_cases(4, 1);
  const std::unique_ptr<BankDevice> device = make_host_bank_device(4);
  std::mt19937_64 rng(3);
  const Behaviour b = testing::random_behaviour(Type::Int, 4, rng);
  EXPECT_THROW(device->keep(0, testing::random_behaviour(Type::Int, 5, rng)), std::invalid_argument);
  const Behaviour list{Type::IntArray, std::vector<u64>(4, 0), std::vector<u8>(4, 0)};
  EXPECT_THROW(device->keep(0, list), std::invalid_argument);
  device->keep(5, b);
  EXPECT_THROW(device->keep(5, b), std::invalid_argument);  // ids grow
  std::vector<Behaviour> outs(1);
  std::vector<u64> hashes(1);
  const std::vector<u32> unknown = {5, 4};
  EXPECT_THROW(device->apply(vm::Op::BINARY_ADD, Type::Int, 2, unknown, hashes), std::invalid_argument);
  const std::vector<u32> ids = {5, 5};
  EXPECT_THROW(device->apply(vm::Op::BINARY_ADD, Type::Int, 1, ids, hashes), std::invalid_argument);
  device->apply(vm::Op::BINARY_ADD, Type::Int, 2, ids, hashes);
  const std::vector<u32> past = {1};
  EXPECT_THROW(device->outputs(past, outs), std::invalid_argument);
  const std::vector<u32> first = {0};
  device->outputs(first, outs);
  EXPECT_EQ(hashes[0], behaviour_hash(outs[0], *cases));
  for (u32 k = 0; k < 4; ++k) {
    if (b.traps[k] == u8(vm::Trap::NONE)) {
      EXPECT_EQ(outs[0].words[k], 2 * b.words[k]);  // ints add wrapping
    }
  }
  // A device for other cases than the bank's.
  BankEnumerator e(*cases, {{"a", cases->parameter(0)}}, {}, "a: int, b: int");
  EXPECT_THROW(e.evaluate_on(make_host_bank_device(5)), std::invalid_argument);
#if !GPUSYNTH_HAVE_CUDA
  EXPECT_THROW(make_cuda_bank_device(4, 0), std::runtime_error);
#endif
}

}  // namespace
}  // namespace gs::search::bank

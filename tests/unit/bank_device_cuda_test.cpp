// The value bank's CUDA device (search/cuda_bank_device.cu) against the host's
// (bank_device_test.cpp holds the host device to Operation::apply): every heap-free production on
// random word behaviours with traps, outputs, traps and hashes identical; an enumeration with the
// CUDA device banks what the CPU banks, in the same order. Skips where there is no device.
#include <gtest/gtest.h>

#include <string>

#include "pipeline/pipeline.h"
#include "tests/unit/bank_device_cases.h"

namespace gs::search::bank {
namespace {

using testing::int_cases;

bool no_gpu() {
  std::string why;
  if (pipeline::cuda_available(&why)) return false;
  std::printf("no CUDA device on this machine (%s): the GPU run is skipped (build checked)\n", why.c_str());
  return true;
}

TEST(BankDeviceCuda, AppliesAsTheHost) {
  if (no_gpu()) GTEST_SKIP();
  for (u32 n : {1u, 7u, 200u, 1000u}) {
    const std::unique_ptr<Cases> cases = int_cases(n, n);
    const std::unique_ptr<BankDevice> device = make_cuda_bank_device(n, 0);
    testing::expect_device_applies_as_the_host(*device, *cases, 40, 300, 2000 + n);
  }
}

TEST(BankDeviceCuda, AnEnumerationBanksWhatTheCpuBanks) {
  if (no_gpu()) GTEST_SKIP();
  for (u32 n : {20u, 200u}) {
    const std::unique_ptr<Cases> cases = int_cases(n, 11 + n);
    const testing::Enumerated cpu = testing::enumerate(*cases, nullptr, 300'000);
    const testing::Enumerated cuda = testing::enumerate(*cases, make_cuda_bank_device(n, 0), 300'000);
    testing::expect_same(cpu, cuda);
  }
}

}  // namespace
}  // namespace gs::search::bank

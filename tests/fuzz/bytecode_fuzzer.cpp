// libFuzzer target: any bytes are a bytecode container. Its last four bytes are replaced by the
// correct checksum first — otherwise nearly every mutation would stop at the checksum
// check, which verifier_test covers — then the verifier runs, and whatever it accepts is
// executed under small bounds. AddressSanitizer and UBSan catch any access outside the
// buffers; a bad trap code aborts. The verifier and interpreter are header-only cores, called
// here directly so that they are coverage-instrumented (see README.md).
#include <cstring>
#include <vector>

#include "tests/fuzz/fuzz_machine.h"
#include "vm/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gs;
  if (size > vm::kMaxProgramBytes) return 0;
  // Exactly the input's bytes, 8-byte aligned (the container's requirement): ASan sees reads
  // past the end of the container as reads past this allocation (up to 7 bytes of padding).
  std::vector<u64> storage((size + 7) / 8);
  u8* bytes = reinterpret_cast<u8*>(storage.data());
  if (size > 0) std::memcpy(bytes, data, size);
  if (size >= 4) {
    u32 sum = vm::container_checksum(bytes, size - 4);
    std::memcpy(bytes + size - 4, &sum, 4);
  }
  u32 largest = 0;
  if (size >= sizeof(vm::Header)) {
    vm::Header h;
    std::memcpy(&h, bytes, sizeof h);
    largest = h.code_words < vm::kMaxCodeWords ? h.code_words : vm::kMaxCodeWords;
  }
  std::vector<u32> scratch(vm::verifier_scratch_words(largest) + 2);
  vm::ProgramView view;
  vm::VerifyResult r = vm::verify_program(bytes, size, scratch.data(), u32(scratch.size()), &view);
  if (!r.ok()) return 0;
  static fuzzing::FuzzMachine machine;
  u32 functions = view.function_count();
  machine.run(view, 0, data, size);
  if (functions > 1) machine.run(view, functions - 1, data + size / 2, size - size / 2);
  return 0;
}

// Bad bytecode never breaks the VM: random bytes and mutated containers go to
// vm::Program::load, and whatever the verifier accepts runs under small limits to a result or
// a trap, without touching memory outside its stack, frames and heap (guard zones check that
// in every build; ASan/UBSan in the sanitizer build). Most mutated containers get their
// checksum recomputed, or nearly all of them would stop at the checksum and the deeper checks
// would go untested.
//
//   GPUSYNTH_FUZZ_SEED   seed (default in fuzz_support.h)
//   GPUSYNTH_FUZZ_CASES  mutated containers (default kDefaultCases; random-byte and hostile-
//                        operand cases scale with it)
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "tests/robustness/assembler.h"
#include "tests/robustness/fuzz_support.h"
#include "tests/robustness/guarded_machine.h"
#include "vm/runner.h"

namespace gs {
namespace {

using vm::Op;

constexpr u64 kDefaultCases = 200000;

// ---- running what the verifier accepts ----------------------------------------------------

// Runs a program on a guarded machine, then on the Runner with the same arguments; empty when
// both end in a result or a trap, agree, and stay inside their memory. The guarded run goes
// first: a program that writes outside its memory there is not run again on the Runner's
// unguarded buffers, where the stray write would corrupt this process instead of failing the test.
std::string run_both(vm::Runner& runner, fuzz::GuardedMachine& guarded, const vm::Program& p, u32 fn,
                     const std::vector<vm::Value>& args) {
  std::string what = "running " + p.signature(fn) + ": ";
  fuzz::GuardedOutcome g = guarded.run(p, fn, args);
  if (!g.damage.empty()) return what + "wrote outside its memory: " + g.damage;
  if (u32(g.trap) >= vm::kTrapCount) return what + "trap code out of range";
  if (g.trap == vm::Trap::NONE && g.result_count != p.function(fn).result_count)
    return what + "returned " + std::to_string(g.result_count) + " results";
  vm::Outcome o;
  try {
    o = runner.run(p, fn, args);
  } catch (const std::exception& e) {
    return std::string("Runner::run threw: ") + e.what();
  }
  if (o.fuel_used > runner.limits().fuel) return what + "used more fuel than it was given";
  // The Runner also reads the results back, which can find a bad reference the run did not.
  bool same = g.trap == o.trap || (g.trap == vm::Trap::NONE && o.trap == vm::Trap::BAD_REFERENCE);
  if (!same)
    return what + "the Runner and a direct run differ: " + vm::trap_name(o.trap) + " vs " +
           vm::trap_name(g.trap);
  if (g.trap == o.trap && g.fuel_used != o.fuel_used)
    return what + "the Runner and a direct run use different fuel";
  return "";
}

// Loads bytes and runs what is accepted; collects failures with the bytes that caused them.
class Campaign {
 public:
  explicit Campaign(std::string name, const vm::Limits& limits = fuzz::small_limits())
      : name_(std::move(name)), runner_(limits), guarded_(limits), watchdog_(name_), failures_(name_) {}

  // Loads and (when accepted) runs the entry and one other function on random arguments.
  void check(const std::string& label, const std::vector<u8>& bytes, fuzz::Rng& rng) {
    watchdog_.begin(label, bytes);
    vm::VerifyResult r;
    std::optional<vm::Program> p = vm::Program::load(bytes, &r);
    ++outcomes_[p ? "accepted" : fuzz::verify_error_name(r.error)];
    if (!p) {
      if (r.ok()) fail(label, bytes, "rejected with error OK");
      return;
    }
    if (!std::equal(bytes.begin(), bytes.end(), p->bytes().begin(), p->bytes().end()))
      fail(label, bytes, "the loaded program's bytes differ from the input");
    const u32 fns[2] = {fuzz::entry_of(*p), u32(rng.below(p->function_count()))};
    for (u32 fn : fns) {
      std::string problem = run_both(runner_, guarded_, *p, fn, fuzz::random_args(rng, *p, fn));
      if (!problem.empty()) return fail(label, bytes, problem);
    }
  }

  void fail(const std::string& label, const std::vector<u8>& bytes, const std::string& problem) {
    failures_.add(label, problem, bytes, fuzz::hex(bytes, 256), ".gsbc");
  }

  const std::map<std::string, u64>& outcomes() const { return outcomes_; }
  std::string summary() const {
    std::string s;
    for (const auto& [what, count] : outcomes_) s += "  " + what + ": " + std::to_string(count) + "\n";
    return s;
  }

 private:
  std::string name_;
  vm::Runner runner_;
  fuzz::GuardedMachine guarded_;
  fuzz::Watchdog watchdog_;
  fuzz::FailureLog failures_;
  std::map<std::string, u64> outcomes_;
};

std::string case_label(u64 seed, u64 index) {
  return "GPUSYNTH_FUZZ_SEED=" + std::to_string(seed) + " case " + std::to_string(index);
}

// ---- seeds: the corpus compiled, and hand-made programs the compiler would not write --------

std::vector<std::vector<u8>> seed_containers() {
  std::vector<std::vector<u8>> seeds;
  for (const fuzz::SynFile& f : fuzz::syn_corpus()) {
    compiler::Output out = compiler::compile(f.text);
    if (out.ok()) seeds.push_back(out.bytecode);
  }
  tasm::Container strings;
  strings.strings = {"hello", "", "a,b,,c"};
  strings.functions.push_back(
      {.name = "solve",
       .params = {Type::Str},
       .results = {Type::Int},
       .max_stack = 3,
       .code = {tasm::op(Op::LOAD_STR, 0), tasm::op(Op::LOAD_VAR, 0), tasm::op(Op::CONCAT_STR),
                tasm::op(Op::LEN), tasm::op(Op::LOAD_STR, 2), tasm::op(Op::LOAD_STR, 1), tasm::op(Op::SPLIT),
                tasm::op(Op::LEN), tasm::op(Op::BINARY_ADD), tasm::op(Op::RETURN)}});
  seeds.push_back(tasm::assemble(strings));
  tasm::Container calls;
  calls.constants = {1000};
  calls.functions.push_back(
      {.name = "solve",
       .params = {Type::IntArray},
       .results = {Type::Int},
       .max_stack = 2,
       .code = {tasm::op(Op::LOAD_VAR, 0), tasm::op(Op::CALL, 1), tasm::op(Op::RETURN)}});
  calls.functions.push_back(
      {.name = "grow",
       .params = {Type::IntArray},
       .results = {Type::Int},
       .local_count = 2,
       .max_stack = 3,
       .code = {tasm::op(Op::LOAD_CONST, 0), tasm::op(Op::PUSH_VAR, 0), tasm::op(Op::LOAD_VAR, 0),
                tasm::op(Op::LEN), tasm::imm(64), tasm::op(Op::COMPARE_LT), tasm::op(Op::JUMP_IF_TRUE, 0),
                tasm::op(Op::LOAD_VAR, 0), tasm::op(Op::SUM_INT), tasm::op(Op::RETURN)}});
  seeds.push_back(tasm::assemble(calls));
  return seeds;
}

// ---- mutations -----------------------------------------------------------------------------

u32 interesting(fuzz::Rng& rng, u32 old) {
  const u32 values[] = {0,          1,          2,       3,       7,       8,        0x7f,      0x80,
                        0xff,       0x100,      0xffff,  0x10000, 0x10001, 0xffffff, 0x1000000, 0x7fffffff,
                        0x80000000, 0xffffffff, old - 1, old + 1, old * 2, old + 8};
  if (rng.chance(15)) return u32(rng.next());
  return values[rng.below(std::size(values))];
}

// Writes the low `width` bytes of value at offset, when they fit.
void put(std::vector<u8>& b, u64 offset, u64 value, u32 width) {
  if (offset + width <= b.size()) std::memcpy(b.data() + offset, &value, width);
}
u64 get(const std::vector<u8>& b, u64 offset, u32 width) {
  u64 v = 0;
  if (offset + width <= b.size()) std::memcpy(&v, b.data() + offset, width);
  return v;
}

// Fields as (offset, width), to mutate one at a time.
struct Field {
  u32 offset, width;
};
constexpr Field kHeaderFields[] = {{0, 4},  {4, 2},  {6, 2},  {8, 4},  {12, 4}, {16, 4},
                                   {20, 4}, {24, 4}, {28, 4}, {32, 4}, {36, 4}};
constexpr Field kRecordFields[] = {{0, 4},  {4, 4},  {8, 4},  {12, 2}, {14, 1}, {15, 1}, {16, 2},
                                   {18, 2}, {20, 1}, {21, 1}, {22, 1}, {36, 1}, {37, 1}, {44, 4}};

void mutate_field(fuzz::Rng& rng, std::vector<u8>& b, u64 base, Field f) {
  put(b, base + f.offset, interesting(rng, u32(get(b, base + f.offset, f.width))), f.width);
}

// Code words inside the buffer, as [first, end) byte offsets.
bool code_region(const std::vector<u8>& b, u64* first, u64* end) {
  if (b.size() < sizeof(vm::Header)) return false;
  vm::Layout l = tasm::layout(b);
  *first = l.code;
  *end = std::min<u64>(l.checksum, b.size() >= 4 ? b.size() - 4 : 0);
  return *first + 4 <= *end;
}

void mutate_code_word(fuzz::Rng& rng, std::vector<u8>& b) {
  u64 first, end;
  if (!code_region(b, &first, &end)) return;
  u64 at = first + 4 * rng.below((end - first) / 4);
  u32 w = u32(get(b, at, 4));
  switch (rng.below(6)) {
    case 0: w = (w & ~0xffu) | u32(rng.below(vm::kOpCount + 4)); break;       // another opcode
    case 1: w = (w & 0xffu) | (interesting(rng, w >> 8) << 8); break;         // another operand
    case 2: w = (w & 0xffu) | (u32(rng.below(16)) << 8); break;               // a small operand
    case 3: w = u32(rng.next()); break;                                       // anything
    case 4: w = vm::encode(rng.chance(50) ? Op::RETURN : Op::POP, 0); break;  // end or pop early
    default:
      w = vm::encode(rng.chance(30) ? Op::JUMP : Op::JUMP_IF_FALSE, u32(rng.below(64)));
      break;  // a jump
  }
  put(b, at, w, 4);
}

// Inserts or removes one code word of the last function and adjusts the header and record,
// so the layout stays coherent and the mutation reaches the code checks.
void resize_code(fuzz::Rng& rng, std::vector<u8>& b) {
  if (b.size() < sizeof(vm::Header)) return;
  vm::Header h = tasm::header(b);
  vm::Layout l = vm::layout_of(h);
  if (h.function_count == 0 || h.function_count > vm::kMaxFunctions || l.total != b.size() ||
      h.code_words == 0)
    return;
  u64 record = l.functions + u64(h.function_count - 1) * sizeof(vm::FunctionRecord);
  u32 words = u32(get(b, record + 4, 4));
  if (words > h.code_words) return;
  bool grow = rng.chance(60) || words <= 1;
  u64 at = l.checksum - 4 * (words > 0 ? rng.below(words) : 0);
  if (grow) {
    u32 w = vm::encode(Op(rng.below(vm::kOpCount)), u32(rng.below(4)));
    b.insert(b.begin() + i64(at), reinterpret_cast<u8*>(&w), reinterpret_cast<u8*>(&w) + 4);
  } else {
    b.erase(b.begin() + i64(at - 4), b.begin() + i64(at));
  }
  h.code_words += grow ? 1 : u32(-1);
  h.total_bytes = u32(b.size());
  std::memcpy(b.data(), &h, sizeof h);
  put(b, record + 4, words + (grow ? 1 : u32(-1)), 4);
}

// Appends one constant (so CONST operands one past the old count become valid).
void add_constant(fuzz::Rng& rng, std::vector<u8>& b) {
  if (b.size() < sizeof(vm::Header)) return;
  vm::Header h = tasm::header(b);
  vm::Layout l = vm::layout_of(h);
  if (l.total != b.size()) return;
  u64 value = rng.next();
  b.insert(b.begin() + i64(l.string_offsets), reinterpret_cast<u8*>(&value),
           reinterpret_cast<u8*>(&value) + 8);
  h.constant_count += 1;
  h.total_bytes = u32(b.size());
  std::memcpy(b.data(), &h, sizeof h);
}

void mutate_once(fuzz::Rng& rng, std::vector<u8>& b) {
  vm::Header h = tasm::header(b);
  vm::Layout l = vm::layout_of(h);
  switch (rng.below(12)) {
    case 0:
    case 1:  // bit flips anywhere
      for (u64 n = 1 + rng.below(4); n > 0 && !b.empty(); --n)
        b[rng.below(b.size())] ^= u8(1u << rng.below(8));
      return;
    case 2: mutate_field(rng, b, 0, kHeaderFields[rng.below(std::size(kHeaderFields))]); return;
    case 3:
    case 4:
      if (h.function_count > 0 && h.function_count <= vm::kMaxFunctions)
        mutate_field(rng, b, l.functions + rng.below(h.function_count) * sizeof(vm::FunctionRecord),
                     kRecordFields[rng.below(std::size(kRecordFields))]);
      return;
    case 5:
    case 6:
    case 7: mutate_code_word(rng, b); return;
    case 8:  // the string table or image
      if (l.string_offsets < l.names && l.names <= b.size())
        put(b, l.string_offsets + 4 * rng.below((l.names - l.string_offsets) / 4),
            interesting(rng, u32(get(b, l.string_offsets, 4))), 4);
      return;
    case 9: resize_code(rng, b); return;
    case 10: add_constant(rng, b); return;
    default:  // truncate or extend, sometimes telling the header
      if (rng.chance(50)) {
        b.resize(rng.below(b.size() + 1));
      } else {
        for (u64 n = 1 + rng.below(64); n > 0; --n) b.push_back(u8(rng.next()));
      }
      if (rng.chance(50) && b.size() >= sizeof(vm::Header)) put(b, 8, b.size(), 4);
      return;
  }
}

std::vector<u8> mutated_container(fuzz::Rng& rng, const std::vector<std::vector<u8>>& seeds) {
  std::vector<u8> b = rng.pick(seeds);
  for (u64 n = 1 + rng.below(rng.chance(75) ? 2 : 6); n > 0; --n) mutate_once(rng, b);
  if (rng.chance(85)) tasm::reseal(b);
  return b;
}

std::vector<u8> random_container(fuzz::Rng& rng) {
  std::vector<u8> b(rng.below(rng.chance(50) ? 64 : 2048));
  for (u8& x : b) x = u8(rng.next());
  if (rng.chance(50) && b.size() >= sizeof(vm::Header)) {  // past the magic and version checks
    std::memcpy(b.data(), &vm::kMagic, 4);
    put(b, 4, vm::kBytecodeVersion, 2);
    if (rng.chance(50)) put(b, 6, 0, 2), put(b, 36, 0, 4);
    if (rng.chance(50)) put(b, 8, b.size(), 4);
    if (rng.chance(70)) tasm::reseal(b);
  }
  return b;
}

// ---- the fuzz tests ------------------------------------------------------------------------

// Also writes the seeds to $GPUSYNTH_FUZZ_SEED_DIR when that is set: a starting corpus for the
// libFuzzer target (tests/fuzz/README.md).
TEST(BytecodeFuzz, SeedsAreAcceptedAndRun) {
  std::vector<std::vector<u8>> seeds = seed_containers();
  ASSERT_GT(seeds.size(), 50u) << "tests/programs not found under " << GPUSYNTH_SOURCE_DIR;
  if (const char* dir = std::getenv("GPUSYNTH_FUZZ_SEED_DIR"); dir != nullptr && *dir != 0) {
    std::filesystem::create_directories(dir);
    for (size_t i = 0; i < seeds.size(); ++i) {
      std::ofstream out(std::filesystem::path(dir) / ("seed-" + std::to_string(i) + ".gsbc"),
                        std::ios::binary);
      out.write(reinterpret_cast<const char*>(seeds[i].data()), std::streamsize(seeds[i].size()));
    }
  }
  fuzz::Rng rng(fuzz::seed());
  Campaign campaign("seeds");
  for (size_t i = 0; i < seeds.size(); ++i) campaign.check("seed " + std::to_string(i), seeds[i], rng);
  EXPECT_EQ(campaign.outcomes().at("accepted"), seeds.size()) << campaign.summary();
}

TEST(BytecodeFuzz, RandomBytes) {
  const u64 seed = fuzz::seed() + 10, n = fuzz::cases(kDefaultCases) / 4;
  fuzz::Rng rng(seed);
  Campaign campaign("bytecode-random");
  for (u64 i = 0; i < n; ++i) campaign.check(case_label(seed, i), random_container(rng), rng);
}

TEST(BytecodeFuzz, MutatedContainers) {
  const u64 seed = fuzz::seed() + 11, n = fuzz::cases(kDefaultCases);
  std::vector<std::vector<u8>> seeds = seed_containers();
  ASSERT_FALSE(seeds.empty());
  fuzz::Rng rng(seed);
  Campaign campaign("bytecode-mutated");
  for (u64 i = 0; i < n; ++i) campaign.check(case_label(seed, i), mutated_container(rng, seeds), rng);
  // The mutations must reach past the checksum into the deeper checks, and some must pass.
  if (n >= 2000) {
    for (const char* deep :
         {"accepted", "BAD_HEADER", "BAD_FUNCTION", "BAD_OPCODE", "BAD_OPERAND", "STACK_UNDERFLOW"})
      EXPECT_GT(campaign.outcomes().count(deep), 0u) << deep << " never reached:\n" << campaign.summary();
  }
  std::printf("mutated containers, by outcome:\n%s", campaign.summary().c_str());
}

// ---- hostile operands: every instruction on references it should not trust ----------------
//
// The verifier checks stack depths, not types, so verified bytecode can hand any instruction an
// int where a reference belongs, a reference into the middle of an object (whose "header" is
// then whatever the program stored there), or a string where an array belongs. The heap is
// sized so that it is exactly full after the set-up, where a write one slot too far leaves it.

// A value pushed by a few instructions: references good and bad, and plain ints.
std::vector<u32> hostile_value(fuzz::Rng& rng) {
  switch (rng.below(10)) {
    case 0: return {tasm::op(Op::LOAD_VAR, 0)};                                           // the string
    case 1: return {tasm::op(Op::LOAD_VAR, 1)};                                           // the array
    case 2: return {tasm::op(Op::LOAD_VAR, 1), tasm::imm(8), tasm::op(Op::BINARY_ADD)};   // header = slot 0
    case 3: return {tasm::op(Op::LOAD_VAR, 1), tasm::imm(16), tasm::op(Op::BINARY_ADD)};  // header = slot 1
    case 4: return {tasm::op(Op::LOAD_VAR, 1), tasm::imm(4), tasm::op(Op::BINARY_ADD)};   // misaligned
    case 5: return {tasm::imm(8)};                                                        // inside the string
    case 6: return {tasm::op(Op::LOAD_CONST, 2)};                                         // far away
    case 7: return {tasm::imm(rng.chance(20) ? -8 * i32(1 + rng.below(4)) : i32(rng.below(48)) - 4)};
    default:
      return {tasm::op(Op::LOAD_VAR, 1), tasm::imm(8 * i32(1 + rng.below(2))), tasm::op(Op::BINARY_ADD)};
  }
}

// A forged object header (length in the low half, capacity in the high half) for a reference
// into the set-up array's payload: lengths that pass the bounds checks, often the one whose
// object ends exactly where the heap does (`fits`), and capacities that lie.
u64 forged_header(fuzz::Rng& rng, u64 fits) {
  const u64 lengths[] = {0, 1, 2, 3, 0x7fffffff, 0xffffffff};
  const u64 capacities[] = {0, 1, 2, 3, 4, 8, 0x7fffffff, 0x80000000, 0x80000003, 0xffffffff};
  u64 length = rng.chance(50) ? fits : lengths[rng.below(std::size(lengths))];
  return length | (capacities[rng.below(std::size(capacities))] << 32);
}

u32 operand_for(fuzz::Rng& rng, vm::OperandKind kind) {
  const Type elem[] = {Type::Int, Type::Float, Type::Bool, Type::Str};
  switch (kind) {
    case vm::OperandKind::IMM: return u32(rng.next()) & vm::kMaxOperand;
    case vm::OperandKind::CONST: return u32(rng.below(3));
    case vm::OperandKind::LOCAL: return rng.chance(70) ? 2 : u32(rng.below(4));  // local 2: hostile
    case vm::OperandKind::COUNT: return u32(rng.below(6));
    case vm::OperandKind::ELEM: return u32(elem[rng.below(4)]);
    case vm::OperandKind::NUM: return u32(elem[rng.below(2)]);
    case vm::OperandKind::ORD: return u32(rng.pick(std::vector<Type>{Type::Int, Type::Float, Type::Str}));
    default: return 0;
  }
}

// solve() -> (int x pushes): sets up a string, an array and local 2, pushes op's operands, runs op.
tasm::Container hostile_program(fuzz::Rng& rng, Op op) {
  const vm::OpInfo& info = vm::op_info(op);
  u32 operand = operand_for(rng, info.operand);
  tasm::Function f{
      .name = "solve", .params = {}, .results = {}, .local_count = 4, .max_stack = 32, .code = {}};
  auto emit = [&f](const std::vector<u32>& words) {
    f.code.insert(f.code.end(), words.begin(), words.end());
  };
  emit({tasm::op(Op::LOAD_STR, 0), tasm::op(Op::STORE_VAR, 0)});
  emit({tasm::op(Op::LOAD_CONST, 0), tasm::op(Op::LOAD_CONST, 1), tasm::imm(3), tasm::op(Op::NEW_ARRAY, 3),
        tasm::op(Op::STORE_VAR, 1)});
  emit(hostile_value(rng));
  emit({tasm::op(Op::STORE_VAR, 2)});
  i32 pops = info.pops == vm::N ? i32(operand) : info.pops;
  for (i32 k = 0; k < pops; ++k) emit(hostile_value(rng));
  emit({tasm::op(op, operand), tasm::op(Op::RETURN)});
  f.results.assign(info.pushes == vm::N ? 0 : size_t(info.pushes), Type::Int);
  tasm::Container c;
  c.strings = {"hello, world!"};
  // The array [c0, c1, 3] lies at 24..56: a reference to slot 0 (32) sees c0 as its header and
  // a payload ending at 56 when its length is 2; one to slot 1 (40) sees c1, length 1.
  const u64 far[] = {0x7ffffff8ull, 0xfffffff8ull, 0x100000000ull, 0xfffffffffffffff8ull, rng.next()};
  c.constants = {forged_header(rng, 2), forged_header(rng, 1), far[rng.below(std::size(far))]};
  c.functions.push_back(f);
  return c;
}

TEST(BytecodeFuzz, EveryInstructionOnHostileOperands) {
  const u64 seed = fuzz::seed() + 12, per_op = std::max<u64>(fuzz::cases(kDefaultCases) / 100, 10);
  // Heap bytes beyond the image (24) and the set-up array (32): none, so that the heap is full
  // once set up, most often.
  const u32 slack[] = {0, 0, 0, 8, 16, 64, 4096};
  fuzz::Rng rng(seed);
  u64 index = 0;
  for (u32 code = 0; code < vm::kOpCount; ++code) {
    Op op = Op(code);
    if (vm::is_jump(op) || op == Op::CALL || op == Op::RETURN) continue;  // control: the fuzz tests cover it
    std::map<u32, std::unique_ptr<Campaign>> campaigns;                   // one per heap size
    for (u64 i = 0; i < per_op; ++i, ++index) {
      std::vector<u8> bytes = tasm::assemble(hostile_program(rng, op));
      u32 heap = 56 + slack[rng.below(std::size(slack))];
      std::unique_ptr<Campaign>& campaign = campaigns[heap];
      if (!campaign) {
        vm::Limits limits = fuzz::small_limits();
        limits.heap_bytes = heap;
        campaign = std::make_unique<Campaign>(
            std::string("hostile-") + vm::op_info(op).name + "-heap" + std::to_string(heap), limits);
      }
      campaign->check(case_label(seed, index) + " " + vm::op_info(op).name, bytes, rng);
      ASSERT_EQ(campaign->outcomes().count("accepted"), 1u)
          << vm::op_info(op).name << ": " << campaign->summary();
    }
  }
}

// A reference is checked against the used heap before it is followed; one near 2^64 (here -8,
// an int used as an array) must not wrap around that check and be followed 4 GiB away.
TEST(BytecodeHandMade, AReferenceNearTwoToThe64IsABadReference) {
  for (Op op : {Op::LEN, Op::SUM_INT, Op::REVERSE_STR}) {
    tasm::Container c;
    c.functions.push_back({.name = "solve",
                           .params = {},
                           .results = {Type::Int},
                           .max_stack = 1,
                           .code = {tasm::imm(-8), tasm::op(op), tasm::op(Op::RETURN)}});
    std::vector<u8> bytes = tasm::assemble(c);
    std::optional<vm::Program> p = vm::Program::load(bytes);
    ASSERT_TRUE(p.has_value());
    fuzz::GuardedMachine guarded(fuzz::small_limits());
    fuzz::GuardedOutcome g = guarded.run(*p, 0, {});  // a crash here is the bug
    EXPECT_EQ(g.trap, vm::Trap::BAD_REFERENCE) << vm::op_info(op).name << "\n" << fuzz::hex(bytes);
    EXPECT_EQ(g.damage, "");
  }
}

// The minimal program the hostile-operand sweep turned up (see the report in the test's
// failure): PUSH_VAR on a reference into an array's payload, whose forged header claims a
// capacity above its length, writes one slot past the end of a full heap.
TEST(BytecodeHandMade, PushVarOnAForgedHeaderStaysInsideTheHeap) {
  tasm::Container c;
  c.constants = {1 | (u64(2) << 32)};  // the forged header: length 1, capacity 2
  c.functions.push_back(
      {.name = "solve",
       .params = {},
       .results = {Type::Int},
       .local_count = 1,
       .max_stack = 3,
       .code = {tasm::op(Op::LOAD_CONST, 0), tasm::imm(7), tasm::op(Op::NEW_ARRAY, 2), tasm::imm(8),
                tasm::op(Op::BINARY_ADD), tasm::op(Op::STORE_VAR, 0), tasm::imm(42),
                tasm::op(Op::PUSH_VAR, 0), tasm::imm(0), tasm::op(Op::RETURN)}});
  std::vector<u8> bytes = tasm::assemble(c);
  std::optional<vm::Program> p = vm::Program::load(bytes);
  ASSERT_TRUE(p.has_value());
  vm::Limits limits = fuzz::small_limits();
  limits.heap_bytes = 24;  // exactly the array [header, 7]: the heap is full
  fuzz::GuardedMachine guarded(limits);
  fuzz::GuardedOutcome g = guarded.run(*p, 0, {});
  EXPECT_EQ(g.damage, "") << "container:\n" << fuzz::hex(bytes);
}

}  // namespace
}  // namespace gs

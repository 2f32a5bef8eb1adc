// Bottom-up enumeration over the value bank (search/value_bank.h), the core of `gpusynth search
// -g enumerate` (search/enumerate_generator.cpp). Level by level of cost, every production is
// applied to every tuple of banked operands whose costs sum to the level less the production's
// cost; a behaviour already banked for its type (the same output hash, or trap, on every case) is
// dropped and its heap objects given back, a new one is banked. Every production and leaf costs
// its size by default (1 a node), so the levels are the sizes: smallest first. A guide that
// knows which productions a problem needs gives those lower costs and the others higher
// (weighted enumeration, as in Probe and HEAP: a cost is about -log p of the production). Expressions that
// trap on some cases are banked like any other, so a lazy choose can guard them: choose(len(xs) == 0, 0,
// max(xs) - min(xs)) is reachable although max(xs) traps on the empty list. The first banked
// expression whose outputs are the goal's on every case is the answer.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/hash_set.h"
#include "search/bank_device.h"
#include "search/value_bank.h"

namespace gs::search::bank {

// A production of the enumeration: an Operation and its text with $0, $1, ... for the operands'
// (e.g. "$0 - $1", "max($0)", "scan_sum($0, $1)"), or a lazy choose over (bool, T, T) when
// `choose` is set. A text may call `helper`, one Syn function (a loop's: search/bank_loops.h),
// which the Operation compiles with it and a materialised program holds once.
struct Production {
  std::optional<Operation> operation;
  std::string text;
  std::string helper;
  bool choose = false;
  Type result = Type::Unit;
  std::vector<Type> operands;
  u32 cost = 1;  // what applying it adds to its operands' costs (at least 1)
  // Where it is a partial operation: the condition over its operands under which it traps, as
  // text ("$1 < 0 || len($0) <= $1" for "$0[$1]"); empty for one that never traps, or traps only
  // where no such condition is written (a loop's fuel, a full heap).
  std::string traps_when;
};

// text with $i replaced by operand i, in parentheses unless it stands alone there (a name, a
// number, a call; a call's argument, an index): "map_mul($0, 2)" around "xs + ys".
std::string substitute(const std::string& text, const std::vector<const std::string*>& operands);

Production operation_production(std::vector<Type> operands, Type result, const std::string& text,
                                const std::string& helper = "", u64 fuel = 0);
Production choose_production(Type t);
// The name of a production of that text and signature (search/bank_grammar.h production_key),
// whether or not a grammar holds one.
std::string production_key(const std::string& text, const std::vector<Type>& operands, Type result);

// A leaf of the enumeration: a parameter, a constant, or a larger expression made elsewhere and
// given whole (a map over a lambda body, say: search/bank_lambdas.h) with its size and the
// function its text calls, which a materialised program holds once.
struct Leaf {
  Leaf() = default;
  Leaf(std::string text, Behaviour behaviour, u32 size = 1, std::function<std::string()> helper = {})
      : text(std::move(text)), behaviour(std::move(behaviour)), size(size), helper(std::move(helper)) {}

  std::string text;  // a parameter's name, a constant's literal, or a call of helper()'s function
  Behaviour behaviour;
  u32 size = 1;
  // The helper functions `text` calls, written when a program needs them (a lambda leaf's only
  // for an answer: the bank holds tens of thousands); none for a parameter or a constant.
  std::function<std::string()> helper;
  u32 cost = 0;  // its level (0: its size)
  // A lambda leaf's form over its sequence (search/bank_lambdas.h), by the key the search policy
  // prices it by (search/bank_grammar.h: "map($0, x -> int) ([int]) -> [int]"); empty for others.
  std::string form;
  // … and the productions and constants its body uses, by key, sorted: found when asked for (a
  // solution's uses, policy data); none for other leaves.
  std::function<std::vector<std::string>()> body_uses;
};

// Banked expressions written out: each expression, and the functions they call, each once (their
// chooses' helpers, their loops' and leaves' helpers).
struct Written {
  std::vector<std::string> expressions;
  std::string functions;
};

struct EnumerationStats {
  u64 evaluated = 0;        // expressions whose behaviour was computed
  u64 banked = 0;           // … that were new
  u64 bytes = 0;            // … and the memory they take, about (their behaviours, entries and hashes)
  u32 level = 0;            // the cost level reached (the size, where every production costs 1)
  bool heaps_full = false;  // a case's heap is full: no array or string is made any more
};

// What search() asks, once the heaps are full, before it makes an array or a string whole (it is
// then only tried as an answer, not banked): both only ever false where `meets` would be.
struct MayMeet {
  // Whether a behaviour of this type could meet the goal now (meets() is false for every other
  // type): where not, the array or string is not made at all (nor counted among the evaluated).
  std::function<bool(Type)> type;
  // Whether a behaviour evaluated on case key_case alone (its other cases unset) could: where
  // not, it is made on no other case (but counted: it was tried, and failed on that case).
  std::function<bool(const Behaviour&)> on_key_case;
  u32 key_case = 0;
};

class BankEnumerator {
 public:
  // `parameters` is the Syn parameter list the leaves' names come from ("xs: [int], k: int"):
  // the materialised program's entry and its choose helpers take it.
  BankEnumerator(Cases& cases, std::vector<Leaf> leaves, std::vector<Production> productions,
                 std::string parameters);

  // The next banked expression that `meets` a goal (the pipeline's test: a type, and outputs
  // within a float tolerance of the expected ones, say; asked of each new behaviour): the
  // enumeration goes on from where the last call stopped, through the levels that hold
  // expressions of up to max_size nodes (larger ones are not made), evaluating at most `budget`
  // expressions in this call; the answer's id, or nullopt when the
  // budget ran out first (call again to go on) or the enumeration is finished (finished()).
  // stats (when given) accumulate over the calls. `may_meet`'s tests, where given, spare the
  // arrays and strings that could meet nothing once the heaps are full (MayMeet).
  std::optional<u32> search(const std::function<bool(const Behaviour&)>& meets, u32 max_size, u64 budget,
                            EnumerationStats* stats, const MayMeet& may_meet = {});
  // The same with the goal as a type and the output hash (output_hashes) on every case.
  std::optional<u32> search(Type goal_type, const std::vector<u64>& goal, u32 max_size, u64 budget,
                            EnumerationStats* stats);
  bool finished() const { return finished_; }
  // From now on the chunks of a heap-free production over ints, bools or floats are evaluated on
  // `device` (search/bank_device.h: the banked words kept in its memory), the rest on the CPU;
  // what is banked, and in which order, is the same.
  void evaluate_on(std::unique_ptr<BankDevice> device);
  const BankDevice* device() const { return device_.get(); }
  // From now on no expression is banked that gives, on some case, a list of more than `list`
  // elements or a str of more than `str` bytes (none is too long by default). Lists far longer
  // than a problem's are rarely a step to its answer, and each takes heap on every case:
  // `repeat(v, start * finish)` and `range_to(-500, 485)` filled PSB1's 2.5 MiB heaps (200
  // cases) by size 5, after which no list was made at all.
  void bound_lengths(u32 list, u32 str) { cases_.bound_lengths(list, str); }

  // From now on a production of two operands is also applied, at each level, to every entry e
  // and each entry d below e in its derivation but a leaf, as p(d, e) and p(e, d), at e's cost
  // plus the production's: a value used twice is made once, as DeepCoder's programs use a line
  // twice (`zip_sub(sort(a), a)` where a = filter_even(xs)). The expression written holds d
  // twice, so its size counts d twice. p(e, e) is not made: in DeepCoder's list language, where
  // operands are shared, each zip of a list with itself is another function of it (zip_add a
  // doubling, zip_mul a squaring, zip_max and zip_min the list) but zip_sub's list of zeros.
  void share_operands() { sharing_ = true; }

  // From now on keeps the output hash of each case (case_hash) of every banked list, str or
  // [str], which bank() computes to tell duplicates: a caller that compares the new entries with
  // goals case by case (search/enumerate_generator.cpp) need not hash them again.
  // forget_case_hashes() lets those of the entries banked so far go.
  void keep_case_hashes() { keep_hashes_ = true; }
  void forget_case_hashes() {
    kept_from_ = count();
    kept_at_.clear();
    kept_hashes_.clear();
  }
  // Entry id's case hashes where they are kept, else empty.
  std::span<const u64> case_hashes(u32 id) const {
    if (id < kept_from_ || id - kept_from_ >= kept_at_.size() || kept_at_[id - kept_from_] == kLeaf)
      return {};
    return {kept_hashes_.data() + kept_at_[id - kept_from_], cases_.count()};
  }

  // After an answer: goes on through the rest of its level, at most `budget` expressions, and
  // counts the expressions of that level whose outputs and traps on every case are the answer's
  // (its observational twins, which the bank does not keep: programs that no train case tells
  // apart). The answer and its twins; *complete when the whole level was seen. A later search()
  // goes on from there.
  u64 alike(u32 answer, u64 budget, EnumerationStats* stats, bool* complete);

  // The banked expressions of type t, smallest first, and what the bank knows of each. Ids count
  // up from 0 in the order of banking, to count().
  std::vector<u32> banked(Type t) const;
  u32 count() const { return u32(entries_.size()); }
  Type type(u32 id) const { return entries_[id].type; }
  const Behaviour& behaviour(u32 id) const { return entries_[id].behaviour; }
  u32 size(u32 id) const { return entries_[id].size; }
  u32 cost(u32 id) const { return entries_[id].cost; }

  // The productions and leaves id's expression uses: (*productions)[i] set for production i,
  // (*leaves)[j] for leaf j (the vectors sized to the grammar's and the leaves' counts).
  void uses(u32 id, std::vector<bool>* productions, std::vector<bool>* leaves) const;
  const Production& production(u32 i) const { return productions_[i]; }
  const Leaf& leaf(u32 j) const { return leaves_[j]; }
  u32 production_count() const { return u32(productions_.size()); }
  u32 leaf_count() const { return u32(leaves_.size()); }

  // A banked expression as text, each choose written `choose(c, a, b)`.
  std::string text(u32 id) const;
  // The condition under which id's expression traps, as Syn over the parameters: the
  // Production::traps_when of each of its partial operations over its operands' texts, innermost
  // first, joined by `||` (short-circuit: each is evaluated only where those inside it do not
  // trap), each clause once, those over constants alone left out (false unless the expression
  // traps on every case); "false" where it has none. Nullopt where it holds a choose (no Syn
  // expression) or where an operation traps on some case with no condition written for it.
  std::optional<std::string> trap_cause(u32 id) const;
  // … as expressions and the functions they call, each choose a helper function named
  // PREFIXchoose_N over the parameters (so that only the arm taken runs).
  Written write(std::span<const u32> ids, const std::string& prefix) const;
  // … and as a Syn program `fn NAME(parameters) -> T { return e; }` in which each choose is a
  // helper function whose branches hold its arms, so that only the arm taken runs, followed by
  // the loops' helpers it calls.
  std::string program(u32 id, const std::string& name) const;

 private:
  static constexpr u32 kLeaf = ~0u;
  bool keep_hashes_ = false;  // keep_case_hashes()
  u32 kept_from_ = 0;         // the first entry whose case hashes may be kept
  std::vector<u32> kept_at_;  // by entry - kept_from_: where its hashes begin, or kLeaf (none)
  std::vector<u64> kept_hashes_, hashing_;
  struct Entry {
    Type type;
    u32 size, cost;
    u32 production;             // kLeaf for a leaf
    std::vector<u32> operands;  // entry ids; a leaf's: {its index in leaves_}
    Behaviour behaviour;
  };
  // Banks b (and returns true) unless a behaviour of its type is banked or it is too long.
  // `known`: b's behaviour_hash where it is known (a device computed it).
  bool bank(const Behaviour& b, u32 size, u32 cost, u32 production, std::span<const u32> operands,
            u64* hash = nullptr, const u64* known = nullptr);
  // share_operands()'s pass over production p at this level, by an odometer {side, e, d}: side 0
  // writes p(d, e), side 1 p(e, d), e its index in the level less p's cost, d in e's
  // derivation(). The next odometer (false past the last: it is back at the first), and the
  // operands at one (false where there are none: d of the other type).
  static constexpr u32 kSharedDigits = 3;
  bool sharing_ = false;
  bool advance_shared(const Production& p, std::vector<u32>& odometer);
  bool shared_tuple(const Production& p, const std::vector<u32>& odometer, u32* ids);
  // The level's entries that side's e is taken from.
  const std::vector<u32>& shared_pool(const Production& p, u32 side) const {
    return by_type_level_[u8(p.operands[1 - side])][level_ - p.cost];
  }
  // The entries below id in its derivation but its leaves, each once (the last two asked for
  // are kept). A leaf shared costs what it costs in any tuple: one level more.
  const std::vector<u32>& derivation(u32 id);
  std::pair<u32, std::vector<u32>> derivations_[2] = {{~0u, {}}, {~0u, {}}};
  u32 derivation_slot_ = 0;
  // search() through levels up to last_level.
  std::optional<u32> search_levels(const std::function<bool(const Behaviour&)>& meets, u32 max_size,
                                   u32 last_level, u64 budget, EnumerationStats* stats,
                                   const MayMeet& may_meet = {});
  // Banks the pending leaves of level level_; the first that meets the goal, if one does.
  std::optional<u32> bank_pending(const std::function<bool(const Behaviour&)>& meets);
  // What a materialised program needs beside its expression: the choose helpers written so far
  // and which productions' helpers it calls.
  struct Helpers {
    std::string prefix;  // of the choose helpers' names
    std::string chooses;
    u32 choose_count = 0;
    std::vector<bool> calls;       // by production
    std::vector<bool> leaf_calls;  // by leaf
  };
  // trap_cause()'s conditions for id's expression, innermost first, into *causes (each once);
  // false where there is none to write.
  bool trap_causes(u32 id, std::vector<std::string>* causes) const;
  // Id's expression; with `helpers`, each choose as a call of a helper written there, without,
  // as `choose(c, a, b)`.
  std::string render(u32 id, Helpers* helpers) const;
  // Whether b is a list or a str longer on some case than bound_lengths() allows.
  bool too_long(const Behaviour& b);

  Cases& cases_;
  std::vector<Leaf> leaves_;  // behaviours moved out once banked
  std::vector<u32> pending_;  // leaves larger than 1, by size: banked when the enumeration gets there
  std::string parameters_, arguments_;

  std::vector<Production> productions_;
  std::vector<Entry> entries_;
  std::vector<std::vector<std::vector<u32>>> by_type_level_;  // type byte → cost → entry ids
  std::vector<HashSet64> seen_;                               // type byte → behaviour hashes
  // Where the enumeration stands: the level being built, the production, the composition of the
  // level less its cost into its operands' levels, and the operand tuple (an odometer, the last
  // turning fastest); the last level that can hold an expression of max_size nodes.
  bool leaves_checked_ = false, finished_ = false, compositions_ready_ = false, pending_banked_ = false;
  bool heaps_full_ = false;  // some case's heap is (nearly) full: no more arrays or strings are made
  u32 level_ = 2, production_ = 0, composition_ = 0, most_per_node_ = 1;
  std::vector<std::vector<u32>> compositions_;
  std::vector<u32> at_;
  EnumerationStats stats_;
  // The chunk being evaluated: its operand tuples (ids, behaviours), their behaviours, the odometer
  // past it, and the heaps before an expression evaluated alone.
  static constexpr u32 kChunk = 256;
  std::vector<u32> chunk_ids_, odometer_, chunk_steps_;
  std::vector<const Behaviour*> chunk_operands_;
  std::vector<Behaviour> chunk_outs_;
  // evaluate_on()'s device, and the entries before `kept_` it was given (those of word types).
  // A chunk on the device is larger (a GPU wants many threads; what is banked does not depend on
  // the chunk's size): its hashes, the tuples whose outputs were fetched (fetched_at_ by tuple:
  // where among them, or kNotFetched), and what the others are banked as (nothing: a duplicate).
  static constexpr u32 kDeviceChunk = 16384, kNotFetched = ~0u;
  std::unique_ptr<BankDevice> device_;
  u32 kept_ = 0;
  std::vector<u64> chunk_hashes_;
  std::vector<u32> fetched_, fetched_at_;
  HashSet64 fresh_;
  Behaviour duplicate_, late_;
  // The chunk's `count` tuples of `op` on the device: chunk_hashes_, and the outputs of the tuples
  // that may be banked in chunk_outs_.
  void apply_on_device(vm::Op op, Type result, u32 arity, u32 count);
  // What tuple c of the chunk on the device is banked as.
  const Behaviour& device_output(u32 c);
  Cases::Mark mark_;
  // alike(): the answer's type and behaviour hash while its twins are counted, and how many.
  std::optional<std::pair<Type, u64>> twin_of_;
  u64 twins_ = 0;
};

}  // namespace gs::search::bank

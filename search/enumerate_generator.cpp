// Bottom-up enumeration with observational equivalence as a generator (search/generator.h): the
// grammar (search/enumeration_grammar.h), the bank (enumeration_bank.h), the cursor that walks
// what may be built next (enumeration_cursor.h), the goals and case splits that assemble answers
// (enumeration_goals.h), and writing expressions out as programs (enumeration_writer.h).
//
// The bank holds one expression per distinct behaviour: for each context, type and size, the
// expressions whose outputs on the train inputs differ from every expression banked before.
// Size s is built from banked expressions of smaller sizes only, one production (an operator,
// a builtin overload, an index, choose, map, filter) at a time, its operands' sizes summing to
// s − 1 (a lambda's to s: map(xs, f) costs only xs and f). Each batch holds expressions of one context and
// type: those of the problem's result type in the entry's context are candidates, the others probes
// (Generator::probe_result) run with their own result type so that their output hashes come back. observe()
// banks every expression that ran without a trap on every train input and whose output hashes are new for its
// context and type.
//
// Lambdas. A lambda context is the body of a loop over a sequence parameter's elements (the
// variable `x`) or over the indices 0..n (`i`); its expressions see the parameters and that
// variable. A body is told apart from the others by a probe that maps it over every source of
// the context's values — `map_1(xs, …) + map_2(ys, …)` — on the train inputs. The entry's
// context has the productions map(seq, body), filter(seq, cond) and map over 0..n, each written
// out as a helper function (fn map_1(s_: [int], xs: [int]) -> [int] { … }) that takes the
// entry's parameters too, since Syn has no closures.
#include <optional>
#include <unordered_map>

#include "base/hash.h"
#include "search/enumeration_bank.h"
#include "search/enumeration_cursor.h"
#include "search/enumeration_goals.h"
#include "search/enumeration_grammar.h"
#include "search/enumeration_writer.h"
#include "search/generator.h"

namespace gs::search {

namespace {

using namespace enumeration;

u64 source_hash(const std::string& source) {
  return fnv1a64(reinterpret_cast<const u8*>(source.data()), source.size());
}

class EnumerateGenerator final : public Generator {
 public:
  EnumerateGenerator(const suites::Problem& problem, EnumerateSettings settings)
      : grammar_(problem, settings),
        bank_(grammar_),
        cursor_(grammar_, bank_),
        writer_(grammar_, bank_),
        goals_(problem, grammar_, bank_, writer_, settings),
        settings_(settings) {
    // A problem with several results has no candidates but assembled ones (goals): every
    // expression is a probe.
    if (problem.signature.results.size() == 1) result_ = problem.signature.results[0];
  }

  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }

  std::optional<Type> probe_result() const override {
    if (batch_type_ == kNone) return std::nullopt;
    const Type t = grammar_.types()[batch_type_];
    const Type returned = batch_context_ == 0 ? t : array_of(t);
    if (returned == result_) return std::nullopt;
    return returned;
  }

  std::vector<Proposal> propose(u32 count, u64) override {
    pending_.clear();
    std::vector<Proposal> out;
    std::vector<trees::Tree> assembled = goals_.take_assembled();
    if (!assembled.empty()) {  // candidates assembled from goals met, a batch of their own
      for (trees::Tree& p : assembled) {
        Proposal proposal;
        proposal.source = trees::to_source(p);
        proposal.tree = std::move(p);
        out.push_back(std::move(proposal));
      }
      batch_type_ = kNone;
      return out;
    }
    while (out.empty()) {
      if (cursor_.size() > settings_.max_size) return out;  // the enumeration is finished
      Node node;
      while (out.size() < count && cursor_.next(&node)) {
        Proposal p;
        p.tree =
            cursor_.context() == 0 ? writer_.program_of(node) : writer_.probe_of(node, cursor_.context());
        p.source = trees::to_source(*p.tree);
        if (cursor_.context() == 0 && banked_as_probe(node, p.source)) continue;
        out.push_back(std::move(p));
        pending_.push_back(node);
      }
      batch_context_ = cursor_.context();
      batch_type_ = cursor_.type_index();
      batch_size_ = cursor_.size();
      if (out.size() < count) cursor_.advance_type();  // this type's productions of this size are done
    }
    return out;
  }

  // Banks every expression of the batch that ran without a trap on every train input and whose
  // output hashes are new for its context and type.
  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& e, i64) override {
    const u32 c = batch_context_, t = batch_type_;
    if (t == kNone) return;  // assembled candidates: nothing to bank
    for (u32 i = 0; i < e.programs; ++i) {
      std::optional<u64> behaviour;
      bool trapped = e.status[i] != u8(pipeline::ProgramStatus::OK);
      for (u32 k = 0; k < e.cases && !trapped; ++k) trapped = e.trap[u64(i) * e.cases + k] != 0;
      const std::span<const u64> outputs =
          std::span<const u64>(e.output_hash).subspan(u64(i) * e.cases, e.cases);
      if (!trapped) behaviour = behaviour_of(outputs);
      if (c != 0 && i < proposals.size()) probed_[source_hash(proposals[i].source)] = behaviour;
      if (behaviour && bank_.first_of(c, t, *behaviour))
        goals_.reached(bank_.add(pending_[i], c, t, batch_size_), *behaviour, outputs);
    }
    goals_.split();
  }

 private:
  // A lambda body's probe over one source is the program that maps the body over it:
  // map_1(xs, xs) is both. Such a program of the entry's context is not proposed again but
  // banked (or not) by the probe's outputs.
  bool banked_as_probe(const Node& node, const std::string& source) {
    if (!is_lambda(grammar_.rules()[node.rule])) return false;
    const auto it = probed_.find(source_hash(source));
    if (it == probed_.end()) return false;
    const u32 t = cursor_.type_index();
    if (it->second && bank_.first_of(0, t, *it->second))
      goals_.reached(bank_.add(node, 0, t, cursor_.size()), *it->second, {});
    return true;
  }

  Grammar grammar_;
  Bank bank_;
  Cursor cursor_;
  Writer writer_;
  Goals goals_;
  EnumerateSettings settings_;
  Type result_ = Type::Unit;
  std::unordered_map<u64, std::optional<u64>>
      probed_;  // a lambda probe's source hash → its behaviour (none: it trapped)
  // The batch proposed last: its context, type and size, and nodes.
  u32 batch_context_ = 0, batch_type_ = kNone, batch_size_ = 0;
  std::vector<Node> pending_;
};

}  // namespace

std::unique_ptr<Generator> make_enumerate_generator(const suites::Problem& problem,
                                                    EnumerateSettings settings) {
  return std::make_unique<EnumerateGenerator>(problem, settings);
}

}  // namespace gs::search

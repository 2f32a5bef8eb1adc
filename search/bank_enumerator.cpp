#include "search/bank_enumerator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "base/hash.h"

namespace gs::search::bank {

namespace {

// A name, a non-negative number or a call stands without parentheses.
bool atomic(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && (std::isalnum(u8(text[i])) || text[i] == '_')) ++i;
  if (i == text.size()) return i > 0;
  if (i == 0 || text[i] != '(') return false;
  for (int depth = 0; i < text.size(); ++i) {  // the call's ')' must end the text
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0) return i + 1 == text.size();
  }
  return false;
}

// An operand between these stands alone: a call's argument, an index.
bool delimited(const std::string& text, size_t dollar) {
  size_t before = dollar;
  while (before > 0 && text[before - 1] == ' ') --before;
  const char after = dollar + 2 < text.size() ? text[dollar + 2] : '\0';
  return before > 0 && std::string_view("(,[").find(text[before - 1]) != std::string_view::npos &&
         std::string_view("),]").find(after) != std::string_view::npos;
}

// Every way to write `total` as an ordered sum of n parts of at least 1.
std::vector<std::vector<u32>> compositions(u32 total, u32 n) {
  if (n == 1) return {{total}};
  std::vector<std::vector<u32>> out;
  for (u32 first = 1; first + (n - 1) <= total; ++first)
    for (std::vector<u32>& rest : compositions(total - first, n - 1)) {
      rest.insert(rest.begin(), first);
      out.push_back(std::move(rest));
    }
  return out;
}

}  // namespace

std::string substitute(const std::string& text, const std::vector<const std::string*>& operands) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size()) {
      const std::string& operand = *operands[size_t(text[i + 1] - '0')];
      out += atomic(operand) || delimited(text, i) ? operand : "(" + operand + ")";
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::string production_key(const std::string& text, const std::vector<Type>& operands, Type result) {
  std::string key = text + " (";
  for (size_t i = 0; i < operands.size(); ++i) key += std::string(i ? ", " : "") + type_name(operands[i]);
  return key + ") -> " + type_name(result);
}

Production operation_production(std::vector<Type> operands, Type result, const std::string& text,
                                const std::string& helper, u64 fuel) {
  std::vector<std::string> names;
  for (size_t i = 0; i < operands.size(); ++i) names.push_back("a" + std::to_string(i));
  std::vector<const std::string*> pointers;
  for (const std::string& name : names) pointers.push_back(&name);
  Production p;
  p.operation.emplace(operands, result, substitute(text, pointers), helper, fuel);
  p.text = text;
  p.helper = helper;
  p.result = result;
  p.operands = std::move(operands);
  return p;
}

Production choose_production(Type t) {
  Production p;
  p.text = "choose($0, $1, $2)";
  p.choose = true;
  p.result = t;
  p.operands = {Type::Bool, t, t};
  return p;
}

BankEnumerator::BankEnumerator(Cases& cases, std::vector<Leaf> leaves, std::vector<Production> productions,
                               std::string parameters)
    : cases_(cases),
      parameters_(std::move(parameters)),
      productions_(std::move(productions)),
      by_type_level_(256),
      seen_(256) {
  // The helpers' call arguments: the parameters' names.
  for (size_t at = 0; at < parameters_.size();) {
    const size_t colon = parameters_.find(':', at);
    if (colon == std::string::npos) break;
    std::string name = parameters_.substr(at, colon - at);
    name.erase(0, name.find_first_not_of(' '));
    arguments_ += (arguments_.empty() ? "" : ", ") + name;
    const size_t comma = parameters_.find(',', colon);
    at = comma == std::string::npos ? parameters_.size() : comma + 1;
  }
  leaves_ = std::move(leaves);
  for (const Production& p : productions_) {
    if (p.cost == 0) throw std::invalid_argument("a production of cost 0: " + p.text);
    most_per_node_ = std::max(most_per_node_, p.cost);
  }
  for (u32 i = 0; i < leaves_.size(); ++i) {
    Leaf& leaf = leaves_[i];
    if (leaf.size == 0) throw std::invalid_argument("a leaf of size 0: " + leaf.text);
    if (leaf.cost == 0) leaf.cost = leaf.size;
    most_per_node_ = std::max(most_per_node_, (leaf.cost + leaf.size - 1) / leaf.size);
    if (leaf.cost > 1) {
      pending_.push_back(i);
      continue;
    }
    by_type_level_[u8(leaf.behaviour.type)].resize(2);
    bank(leaf.behaviour, leaf.size, 1, kLeaf, {&i, 1});
    leaf.behaviour = {};
  }
  std::stable_sort(pending_.begin(), pending_.end(),
                   [&](u32 a, u32 b) { return leaves_[a].cost < leaves_[b].cost; });
}

std::optional<u32> BankEnumerator::bank_pending(const std::function<bool(const Behaviour&)>& meets) {
  pending_banked_ = true;
  std::optional<u32> answer;
  for (u32 i : pending_) {
    Leaf& leaf = leaves_[i];
    if (leaf.cost != level_ || leaf.behaviour.words.empty()) continue;
    const bool banked = bank(leaf.behaviour, leaf.size, leaf.cost, kLeaf, {&i, 1});
    leaf.behaviour = {};
    if (banked && !answer && meets(entries_.back().behaviour)) answer = u32(entries_.size() - 1);
  }
  return answer;
}

std::vector<u32> BankEnumerator::banked(Type t) const {
  std::vector<u32> ids;
  for (const std::vector<u32>& at_level : by_type_level_[u8(t)])
    ids.insert(ids.end(), at_level.begin(), at_level.end());
  return ids;
}

void BankEnumerator::apply_on_device(vm::Op op, Type result, u32 arity, u32 count) {
  for (; kept_ < entries_.size(); ++kept_)
    if (is_word(entries_[kept_].type)) device_->keep(kept_, entries_[kept_].behaviour);
  chunk_hashes_.resize(count);
  device_->apply(op, result, arity, {chunk_ids_.data(), u64(count) * arity}, chunk_hashes_);
  // Only a behaviour whose hash is neither banked nor earlier in the chunk may be banked: its
  // outputs are fetched, the others are the duplicates bank() turns away by their hash alone.
  const HashSet64& seen = seen_[u8(result)];
  fetched_.clear();
  fresh_.clear();
  fetched_at_.assign(count, kNotFetched);
  for (u32 c = 0; c < count; ++c)
    if (!seen.contains(chunk_hashes_[c]) && fresh_.insert(chunk_hashes_[c])) {
      fetched_at_[c] = u32(fetched_.size());
      fetched_.push_back(c);
    }
  if (chunk_outs_.size() < fetched_.size()) chunk_outs_.resize(fetched_.size());
  device_->outputs(fetched_, {chunk_outs_.data(), fetched_.size()});
  duplicate_ = Behaviour{result, {}, {}};
}

const Behaviour& BankEnumerator::device_output(u32 c) {
  if (fetched_at_[c] != kNotFetched) return chunk_outs_[fetched_at_[c]];
  // A duplicate, unless the earlier tuple of its hash was not banked after all (it found a heap
  // full): then this one's outputs are fetched too.
  if (seen_[u8(duplicate_.type)].contains(chunk_hashes_[c])) return duplicate_;
  device_->outputs({&c, 1}, {&late_, 1});
  return late_;
}

void BankEnumerator::evaluate_on(std::unique_ptr<BankDevice> device) {
  if (device != nullptr && device->cases() != cases_.count())
    throw std::invalid_argument("bank enumerator: a device for " + std::to_string(device->cases()) +
                                " cases, the bank has " + std::to_string(cases_.count()));
  device_ = std::move(device);
  kept_ = 0;
}

bool BankEnumerator::bank(const Behaviour& b, u32 size, u32 cost, u32 production,
                          std::span<const u32> operands, u64* hash, const u64* known) {
  if (too_long(b)) return false;
  const bool keep = keep_hashes_ && known == nullptr && !is_word(b.type);
  const u64 h = known != nullptr ? *known : behaviour_hash(b, cases_, keep ? &hashing_ : nullptr);
  if (hash != nullptr) *hash = h;
  if (!seen_[u8(b.type)].insert(h)) return false;
  if (keep) {
    kept_at_.resize(entries_.size() - kept_from_ + 1, kLeaf);
    kept_at_.back() = u32(kept_hashes_.size());
    kept_hashes_.insert(kept_hashes_.end(), hashing_.begin(), hashing_.end());
  }
  std::vector<std::vector<u32>>& levels = by_type_level_[u8(b.type)];
  if (levels.size() <= cost) levels.resize(cost + 1);
  levels[cost].push_back(u32(entries_.size()));
  entries_.push_back({b.type, size, cost, production, {operands.begin(), operands.end()}, b});
  stats_.bytes += sizeof(Entry) + b.words.size() * (sizeof(u64) + sizeof(u8)) +
                  operands.size() * sizeof(u32) + 4 * sizeof(u64);  // the hash set's slots, at most
  return true;
}

bool BankEnumerator::too_long(const Behaviour& b) {
  if (b.too_long) return true;
  const bool list = is_array(b.type);
  if (!list && b.type != Type::Str) return false;
  const u32 bound = list ? cases_.longest_list() : cases_.longest_str();
  for (u32 k = 0; k < b.traps.size(); ++k)
    if (b.traps[k] == u8(vm::Trap::NONE) && cases_.machine(k).heap.header(u32(b.words[k]))->length > bound)
      return true;
  return false;
}

std::string BankEnumerator::render(u32 id, Helpers* helpers) const {
  const Entry& e = entries_[id];
  if (e.production == kLeaf) {
    const Leaf& leaf = leaves_[e.operands[0]];
    if (helpers != nullptr && leaf.helper) helpers->leaf_calls[e.operands[0]] = true;
    return leaf.text;
  }
  std::vector<std::string> texts;
  for (u32 o : e.operands) texts.push_back(render(o, helpers));
  const Production& p = productions_[e.production];
  if (p.choose && helpers != nullptr) {
    const std::string name = helpers->prefix + "choose_" + std::to_string(++helpers->choose_count);
    helpers->chooses += "fn " + name + "(" + parameters_ + ") -> " + type_name(e.type) + " {\n  if " +
                        texts[0] + " {\n    return " + texts[1] + ";\n  }\n  return " + texts[2] + ";\n}\n";
    return name + "(" + arguments_ + ")";
  }
  if (helpers != nullptr && !p.helper.empty()) helpers->calls[e.production] = true;
  std::vector<const std::string*> pointers;
  for (const std::string& t : texts) pointers.push_back(&t);
  return substitute(p.text, pointers);
}

std::string BankEnumerator::text(u32 id) const { return render(id, nullptr); }

std::optional<std::string> BankEnumerator::trap_cause(u32 id) const {
  std::vector<std::string> causes;
  if (!trap_causes(id, &causes)) return std::nullopt;
  if (causes.empty()) return "false";
  std::string out;
  for (const std::string& c : causes) out += (out.empty() ? "" : " || ") + c;
  return out;
}

bool BankEnumerator::trap_causes(u32 id, std::vector<std::string>* causes) const {
  const Entry& e = entries_[id];
  if (e.production == kLeaf) return true;
  const Production& p = productions_[e.production];
  if (p.choose) return false;
  for (u32 operand : e.operands)
    if (!trap_causes(operand, causes)) return false;
  if (p.traps_when.empty()) {
    // Its own traps, where its operands do not trap, have no condition written.
    for (u32 k = 0; k < cases_.count(); ++k)
      if (e.behaviour.traps[k] != u8(vm::Trap::NONE) &&
          std::all_of(e.operands.begin(), e.operands.end(),
                      [&](u32 o) { return entries_[o].behaviour.traps[k] == u8(vm::Trap::NONE); }))
        return false;
    return true;
  }
  std::vector<std::string> texts;
  for (u32 operand : e.operands) texts.push_back(text(operand));
  std::vector<const std::string*> operands;
  for (const std::string& t : texts) operands.push_back(&t);
  // Its clauses, each once; one over constants alone (`0 < 0` for `ys[0]` as `$0[$1]`) is left out:
  // were it true, the operation would trap on every case, and so would the expression.
  for (size_t at = 0; at < p.traps_when.size();) {
    size_t end = p.traps_when.find(" || ", at);
    if (end == std::string::npos) end = p.traps_when.size();
    std::string cause = substitute(p.traps_when.substr(at, end - at), operands);
    at = end + 4;
    if (std::none_of(cause.begin(), cause.end(), [](char c) { return std::isalpha(u8(c)) != 0; })) continue;
    if (std::find(causes->begin(), causes->end(), cause) == causes->end())
      causes->push_back(std::move(cause));
  }
  return true;
}

void BankEnumerator::uses(u32 id, std::vector<bool>* productions, std::vector<bool>* leaves) const {
  productions->assign(productions_.size(), false);
  leaves->assign(leaves_.size(), false);
  std::vector<u32> open = {id};
  while (!open.empty()) {
    const Entry& e = entries_[open.back()];
    open.pop_back();
    if (e.production == kLeaf) {
      (*leaves)[e.operands[0]] = true;
      continue;
    }
    (*productions)[e.production] = true;
    open.insert(open.end(), e.operands.begin(), e.operands.end());
  }
}

Written BankEnumerator::write(std::span<const u32> ids, const std::string& prefix) const {
  Helpers helpers;
  helpers.prefix = prefix;
  helpers.calls.assign(productions_.size(), false);
  helpers.leaf_calls.assign(leaves_.size(), false);
  Written w;
  for (u32 id : ids) w.expressions.push_back(render(id, &helpers));
  w.functions = helpers.chooses;
  for (u32 i = 0; i < productions_.size(); ++i)
    if (helpers.calls[i]) w.functions += productions_[i].helper;
  for (u32 i = 0; i < leaves_.size(); ++i)
    if (helpers.leaf_calls[i]) w.functions += leaves_[i].helper();
  return w;
}

std::string BankEnumerator::program(u32 id, const std::string& name) const {
  const Written w = write({&id, 1}, "");
  return "fn " + name + "(" + parameters_ + ") -> " + type_name(entries_[id].type) + " {\n  return " +
         w.expressions[0] + ";\n}\n" + w.functions;
}

u64 BankEnumerator::alike(u32 answer, u64 budget, EnumerationStats* stats, bool* complete) {
  // By value: search() below banks new entries, which may move entries_.
  const Type type = entries_[answer].type;
  const u32 level = entries_[answer].cost;
  twin_of_ = {type, behaviour_hash(entries_[answer].behaviour, cases_)};
  twins_ = 0;
  const bool was_finished = finished_;
  // A goal no new behaviour meets (the answer's is banked): the search runs to the end of the
  // answer's level or of the budget (an expression of that level has at most that many nodes).
  search_levels([](const Behaviour&) { return false; }, level, level, budget, stats);
  *complete = level_ > level || was_finished;
  finished_ = was_finished;  // only the answer's size was searched: the next search() goes on
  twin_of_.reset();
  return 1 + twins_;
}

std::optional<u32> BankEnumerator::search(Type goal_type, const std::vector<u64>& goal, u32 max_size,
                                          u64 budget, EnumerationStats* stats) {
  return search([&](const Behaviour& b) { return b.type == goal_type && output_hashes(b, cases_) == goal; },
                max_size, budget, stats);
}

std::optional<u32> BankEnumerator::search(const std::function<bool(const Behaviour&)>& meets, u32 max_size,
                                          u64 budget, EnumerationStats* stats, const MayMeet& may_meet) {
  // An expression of max_size nodes costs at most max_size times the most a node costs.
  return search_levels(meets, max_size, max_size * most_per_node_, budget, stats, may_meet);
}

const std::vector<u32>& BankEnumerator::derivation(u32 id) {
  for (const auto& [of, ids] : derivations_)
    if (of == id) return ids;
  auto& [of, ids] = derivations_[derivation_slot_];
  derivation_slot_ ^= 1;
  of = id;
  ids.clear();
  const Entry& top = entries_[id];
  std::vector<u32> open;
  if (top.production != kLeaf) open.assign(top.operands.rbegin(), top.operands.rend());
  while (!open.empty()) {
    const u32 at = open.back();
    open.pop_back();
    const Entry& e = entries_[at];
    if (e.production == kLeaf || std::find(ids.begin(), ids.end(), at) != ids.end()) continue;
    ids.push_back(at);
    open.insert(open.end(), e.operands.rbegin(), e.operands.rend());
  }
  return ids;
}

bool BankEnumerator::advance_shared(const Production& p, std::vector<u32>& odometer) {
  u32& side = odometer[0];
  u32& e = odometer[1];
  u32& d = odometer[2];
  for (++d;; d = 0) {
    const std::vector<u32>& pool = shared_pool(p, side);
    if (e < pool.size() && d < derivation(pool[e]).size()) return true;
    if (e + 1 < pool.size()) {
      ++e;
    } else if (side == 0) {
      side = 1;
      e = 0;
    } else {
      std::fill(odometer.begin(), odometer.end(), 0);
      return false;
    }
  }
}

bool BankEnumerator::shared_tuple(const Production& p, const std::vector<u32>& odometer, u32* ids) {
  const u32 side = odometer[0];
  const std::vector<u32>& pool = shared_pool(p, side);
  if (odometer[1] >= pool.size()) return false;
  const u32 e = pool[odometer[1]];
  const std::vector<u32>& within = derivation(e);
  if (odometer[2] >= within.size()) return false;
  const u32 d = within[odometer[2]];
  if (entries_[d].type != p.operands[side]) return false;
  ids[side] = d;
  ids[1 - side] = e;
  return true;
}

std::optional<u32> BankEnumerator::search_levels(const std::function<bool(const Behaviour&)>& meets,
                                                 u32 max_size, u32 last_level, u64 budget,
                                                 EnumerationStats* stats, const MayMeet& may_meet) {
  const u64 spent_before = stats_.evaluated;
  auto report = [&] {
    stats_.banked = entries_.size();
    if (stats != nullptr) *stats = stats_;
  };
  if (!leaves_checked_) {
    leaves_checked_ = true;
    for (u32 id = 0; id < entries_.size(); ++id) {
      if (meets(entries_[id].behaviour)) {
        report();
        return id;
      }
    }
    // A larger leaf that meets the goal is an answer now, before its size is reached: it was
    // made whole elsewhere, so finding it costs nothing more.
    for (u32 i : pending_) {
      Leaf& leaf = leaves_[i];
      if (!meets(leaf.behaviour)) continue;
      bank(leaf.behaviour, leaf.size, leaf.cost, kLeaf, {&i, 1});
      leaf.behaviour = {};
      report();
      return u32(entries_.size() - 1);
    }
  }
  while (!finished_ && level_ <= last_level) {
    stats_.level = level_;
    // Every type has a list for this level before any pointer into the lists is taken.
    for (std::vector<std::vector<u32>>& levels : by_type_level_)
      if (levels.size() <= level_) levels.resize(level_ + 1);
    if (!pending_banked_)
      if (const std::optional<u32> answer = bank_pending(meets)) {
        report();
        return answer;
      }
    for (; production_ < productions_.size(); ++production_, compositions_ready_ = false) {
      const Production& p = productions_[production_];
      const u32 n = u32(p.operands.size());
      const u32 digits = std::max(n, kSharedDigits);  // the odometer's: a shared pass has three
      if (!compositions_ready_) {
        compositions_ =
            level_ >= p.cost + n ? compositions(level_ - p.cost, n) : std::vector<std::vector<u32>>{};
        composition_ = 0;
        at_.assign(digits, 0);
        compositions_ready_ = true;
      }
      // After the compositions, where operands are shared (share_operands()), one pass more: the
      // pairs of an entry of the level less the production's cost and an entry of its derivation.
      const bool shares = sharing_ && n == 2 && !p.choose && level_ > p.cost;
      for (; composition_ < compositions_.size() + (shares ? 1 : 0); ++composition_, at_.assign(digits, 0)) {
        const bool shared = composition_ == compositions_.size();
        // A composition's operands come from one pool each; a shared pass's e from shared_pool().
        std::vector<const std::vector<u32>*> pools(shared ? 0 : n);
        bool empty = shared && shared_pool(p, 0).empty() && shared_pool(p, 1).empty();
        for (u32 j = 0; j < pools.size(); ++j) {
          pools[j] = &by_type_level_[u8(p.operands[j])][compositions_[composition_][j]];
          empty = empty || pools[j]->empty();
        }
        // The odometer's next tuple (false past the last: it is back at the first) and the tuple
        // at an odometer (false where there is none: a shared pass's entry of the other type).
        auto advance = [&](std::vector<u32>& o) {
          if (shared) return advance_shared(p, o);
          u32 j = n;
          while (j > 0 && ++o[j - 1] == pools[j - 1]->size()) o[--j] = 0;
          return j > 0;
        };
        auto tuple_at = [&](const std::vector<u32>& o, u32* ids) {
          if (shared) return shared_tuple(p, o, ids);
          for (u32 j = 0; j < n; ++j) ids[j] = (*pools[j])[o[j]];
          return true;
        };
        // An application that may leave arrays or strings in the heaps (an array or string made by
        // the interpreter) is evaluated alone, and given back when it is not banked; the others
        // (choose among them: it picks words already banked) go in chunks, evaluated at once
        // (Operation::apply_all: the cases shared out among the threads) and then banked one by
        // one in order, as if evaluated alone.
        const bool alone = !p.choose && !p.operation->makes_nothing();
        // A heap-free instruction over words goes to the device, if there is one.
        std::optional<vm::Op> on_device;
        if (device_ && !p.choose && !alone &&
            std::all_of(p.operands.begin(), p.operands.end(), [](Type t) { return is_word(t); }))
          on_device = p.operation->scalar_instruction(cases_);
        // Once a case's heap is full of banked values (all but its last sixteenth), an array or a
        // string made is no longer banked: it is tried as an answer in that last sixteenth and
        // given back, so that the lists one step past the banked ones are still reached — the
        // last step of deepcoder-neo100's pipelines, whose heaps fill at level 6 or 7 — and where
        // nothing of its type could meet the goal, it is not made at all; where it could not by
        // what it is on the key case, it is made there alone.
        const bool tried_only = alone && heaps_full_;
        if (tried_only && may_meet.type && !may_meet.type(p.result)) empty = true;
        const bool key_first = tried_only && may_meet.on_key_case && may_meet.key_case < cases_.count();
        std::vector<u32> ids(n);
        while (!empty) {
          // The next tuples in odometer order: a chunk, or the budget left if less.
          const u64 left =
              budget > stats_.evaluated - spent_before ? budget - (stats_.evaluated - spent_before) : 1;
          const u32 want = alone ? 1 : u32(std::min<u64>(on_device ? kDeviceChunk : kChunk, left));
          chunk_ids_.clear();
          chunk_operands_.clear();
          chunk_steps_.clear();
          odometer_ = at_;
          // Tuples whose expression would pass max_size nodes are stepped over: only past level
          // max_size can there be any (a node costs 1 at least), or where operands are shared
          // (a shared one is written twice). chunk_steps_[c]: the odometer steps from tuple c - 1
          // to tuple c; `skipped`, those after the last one taken.
          const bool check_size = level_ > max_size || sharing_;
          u32 count = 0, skipped = 0;
          for (bool more = true; more && count < want; more = advance(odometer_)) {
            u32 size = 1;
            const bool there = tuple_at(odometer_, ids.data());
            for (u32 j = 0; there && check_size && j < n; ++j) size += entries_[ids[j]].size;
            if (!there || size > max_size) {
              ++skipped;
              continue;
            }
            for (u32 j = 0; j < n; ++j) {
              chunk_ids_.push_back(ids[j]);
              chunk_operands_.push_back(&entries_[ids[j]].behaviour);
            }
            chunk_steps_.push_back(skipped + 1);
            skipped = 0;
            ++count;
          }
          // Turns at_ on by `steps` tuples; past the last, this composition is done.
          auto turn = [&](u32 steps) {
            for (u32 step = 0; step < steps; ++step)
              if (!advance(at_)) empty = true;
          };
          if (count == 0) {  // every tuple left in the composition is too large
            turn(skipped);
            continue;
          }
          if (chunk_outs_.size() < count) chunk_outs_.resize(count);
          bool hopeless = false;  // a key_first application that could meet nothing by its key case
          if (p.choose) {
            for (u32 c = 0; c < count; ++c)
              choose(*chunk_operands_[3 * c], *chunk_operands_[3 * c + 1], *chunk_operands_[3 * c + 2],
                     &chunk_outs_[c]);
          } else if (key_first) {
            // Made on the key case alone and given back there; made again on every case only where
            // it could meet a goal by what it is there.
            vm::Heap& key_heap = cases_.machine(may_meet.key_case).heap;
            const u32 key_used = key_heap.used;
            p.operation->apply_on(chunk_operands_, cases_, may_meet.key_case, &chunk_outs_[0]);
            hopeless = !may_meet.on_key_case(chunk_outs_[0]);
            key_heap.used = key_used;
            if (!hopeless) {
              cases_.mark(&mark_);
              p.operation->apply(chunk_operands_, cases_, &chunk_outs_[0]);
            }
          } else if (alone) {
            cases_.mark(&mark_);
            p.operation->apply(chunk_operands_, cases_, &chunk_outs_[0]);
          } else if (on_device) {
            apply_on_device(*on_device, p.result, n, count);
          } else {
            p.operation->apply_all(chunk_operands_, cases_, {chunk_outs_.data(), count});
          }
          // A chunk of words is hashed before any is banked, and the lines of the set where each
          // hash would be are asked for at once: one at a time, each waits for memory in turn.
          const bool hashed = !on_device && !alone && is_word(p.result);
          if (hashed) {
            chunk_hashes_.resize(count);
            for (u32 c = 0; c < count; ++c) {
              chunk_hashes_[c] = behaviour_hash(chunk_outs_[c], cases_);
              seen_[u8(p.result)].prefetch(chunk_hashes_[c]);
            }
          }
          // Every pointer into entries_ is used by now: banking may move them.
          for (u32 c = 0; c < count; ++c) {
            const Behaviour& b = on_device ? device_output(c) : chunk_outs_[c];
            ++stats_.evaluated;
            const std::span<const u32> operands(chunk_ids_.data() + u64(c) * n, n);
            u32 size = 1;
            for (u32 id : operands) size += entries_[id].size;
            u64 hash = 0;
            // Nor is an application that found a heap full: the trap is the bank's. A heap
            // 255/256 full that an application found too small is full: the lists still to be
            // made are of the same sizes as those banked.
            // (memchr first: most have no such trap; a device's duplicate has no traps at all)
            bool exhausted = false;
            const bool any_exhausted =
                !hopeless && !b.traps.empty() &&
                std::memchr(b.traps.data(), u8(vm::Trap::HEAP_EXHAUSTED), b.traps.size()) != nullptr;
            for (u32 k = 0; k < b.traps.size() && any_exhausted; ++k) {
              if (b.traps[k] != u8(vm::Trap::HEAP_EXHAUSTED)) continue;
              exhausted = true;
              if (cases_.heap_nearly_full(k)) stats_.heaps_full = heaps_full_ = true;
            }
            const bool banked = !hopeless && !exhausted && !b.too_long && (!tried_only || meets(b)) &&
                                bank(b, size, level_, production_, operands, &hash,
                                     on_device || hashed ? &chunk_hashes_[c] : nullptr);
            if (banked && alone && !heaps_full_)
              for (u32 k = 0; k < b.traps.size() && !heaps_full_; ++k)
                if (cases_.heap_in_reserve(k)) stats_.heaps_full = heaps_full_ = true;
            if (!banked) {
              if (alone && !hopeless) cases_.rollback(mark_);
              if (twin_of_ && twin_of_->first == b.type && twin_of_->second == hash) ++twins_;
            }
            const bool answer = banked && meets(b);
            turn(chunk_steps_[c]);  // the odometer turns on before any return, so that the next call goes on
            if (answer || stats_.evaluated - spent_before >= budget) {
              if (empty) {  // step past the finished composition
                ++composition_;
                at_.assign(digits, 0);
              }
              report();
              if (answer) return u32(entries_.size() - 1);
              return std::nullopt;
            }
          }
          turn(skipped);
        }
      }
    }
    ++level_;
    production_ = 0;
    compositions_ready_ = false;
    pending_banked_ = false;
  }
  finished_ = true;
  report();
  return std::nullopt;
}

}  // namespace gs::search::bank

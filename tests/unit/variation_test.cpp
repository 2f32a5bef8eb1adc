// Genetic operators (trees/variation.h) and simplification (trees/simplify.h): a property test
// over random parents from the generator — every offspring compiles with gpusynth's compiler,
// keeps the entry signature, respects the size limits and keeps the generator's termination
// patterns — plus hand-made cases for crossover's fitting rule and for simplify's steps.
#include "trees/variation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/rng.h"
#include "compiler/compiler.h"
#include "suites/problem.h"
#include "trees/random_program.h"
#include "trees/simplify.h"
#include "trees/syntax.h"

namespace gs::trees {
namespace {

suites::Signature signature(const std::string& text) {
  suites::Signature s;
  std::string error;
  EXPECT_TRUE(suites::parse_signature(text, &s, &error)) << error;
  return s;
}

// The signature of a program's own entry (for parents with a random entry).
suites::Signature entry_signature(const trees::Tree& p, const std::string& entry) {
  const trees::Function* f = p.find(entry);
  suites::Signature s;
  s.entry = entry;
  s.text = "fn " + entry + "(...)";
  for (const trees::Param& param : f->params) {
    s.param_names.push_back(param.name);
    s.params.push_back(param.type);
  }
  s.results = f->results;
  return s;
}

trees::RandomProgramConfig config_for(const suites::Signature& s) {
  trees::RandomProgramConfig c;
  c.entry = s.entry;
  c.fixed_entry = true;
  c.entry_params = s.params;
  c.entry_results = s.results;
  return c;
}

::testing::AssertionResult compiles(const trees::Tree& p) {
  std::string source = trees::to_source(p);
  compiler::Output out = compiler::compile(source);
  if (out.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << compiler::render(out.diagnostics, "offspring.syn", source) << source;
}

// ---- the generator's termination patterns, checked independently of variation.cpp --------

// Whether b assigns the variable `name` visible at its start (not one that shadows it).
bool assigns(const trees::Block& b, const std::string& name) {
  for (const trees::Stmt& s : b) {
    if ((s.kind == trees::StmtKind::Assign || s.kind == trees::StmtKind::ElementAssign) && s.name == name)
      return true;
    bool loop_var =
        (s.kind == trees::StmtKind::ForRange || s.kind == trees::StmtKind::ForIn) && s.name == name;
    for (const trees::Block& inner : s.blocks)
      if (!loop_var && assigns(inner, name)) return true;
    bool shadows = (s.kind == trees::StmtKind::Let && s.name == name) ||
                   (s.kind == trees::StmtKind::LetTuple &&
                    std::find(s.names.begin(), s.names.end(), name) != s.names.end());
    if (shadows) return false;
  }
  return false;
}

// Every while loop is `let c = 0; while c < K [&& x] { c = c + 1; ... }` and nothing else in
// its body assigns c.
::testing::AssertionResult counters_kept(const trees::Block& b) {
  for (size_t i = 0; i < b.size(); ++i) {
    const trees::Stmt& s = b[i];
    if (s.kind == trees::StmtKind::While) {
      const trees::Expr& cond = s.exprs[0];
      const trees::Expr& lt = cond.kind == trees::ExprKind::Binary && cond.binary_op() == trees::BinaryOp::And
                                  ? cond.children[0]
                                  : cond;
      bool test = lt.kind == trees::ExprKind::Binary && lt.binary_op() == trees::BinaryOp::Lt &&
                  lt.children[0].kind == trees::ExprKind::Name &&
                  lt.children[1].kind == trees::ExprKind::IntLit && lt.children[1].int_value <= 8;
      if (!test) return ::testing::AssertionFailure() << "while condition " << trees::to_source(cond);
      const std::string& c = lt.children[0].text;
      bool let = i > 0 && b[i - 1].kind == trees::StmtKind::Let && b[i - 1].name == c &&
                 b[i - 1].exprs[0].kind == trees::ExprKind::IntLit && b[i - 1].exprs[0].int_value == 0;
      if (!let) return ::testing::AssertionFailure() << "no `let " << c << " = 0;` before its while";
      const trees::Block& body = s.blocks[0];
      trees::Block rest(body.begin() + (body.empty() ? 0 : 1), body.end());
      bool step = !body.empty() && body[0].kind == trees::StmtKind::Assign && body[0].name == c &&
                  trees::to_source(body[0].exprs[0]) == c + " + 1";
      if (!step || assigns(rest, c)) return ::testing::AssertionFailure() << "counter " << c << " changed";
    }
    for (const trees::Block& inner : s.blocks) {
      auto r = counters_kept(inner);
      if (!r) return r;
    }
  }
  return ::testing::AssertionSuccess();
}

void self_calls(const trees::Expr& e, const std::string& f, std::vector<const trees::Expr*>& out) {
  if (e.kind == trees::ExprKind::Call && e.text == f) out.push_back(&e);
  for (const trees::Expr& c : e.children) self_calls(c, f, out);
}
void self_calls(const trees::Block& b, const std::string& f, std::vector<const trees::Expr*>& out) {
  for (const trees::Stmt& s : b) {
    for (const trees::Expr& e : s.exprs) self_calls(e, f, out);
    for (const trees::Block& inner : s.blocks) self_calls(inner, f, out);
  }
}

// A recursive function's depth d is never assigned and each self-call passes d - 1, d - 2,
// d / 2, d or d + 1, as the generator wrote it.
::testing::AssertionResult depths_kept(const trees::Tree& p) {
  for (const trees::Function& f : p.functions) {
    std::vector<const trees::Expr*> calls;
    self_calls(f.body, f.name, calls);
    if (calls.empty()) continue;
    const std::string& d = f.params[0].name;
    if (assigns(f.body, d)) return ::testing::AssertionFailure() << f.name << " assigns its depth";
    for (const trees::Expr* call : calls) {
      std::string arg = trees::to_source(call->children[0]);
      if (arg != d + " - 1" && arg != d + " - 2" && arg != d + " / 2" && arg != d && arg != d + " + 1")
        return ::testing::AssertionFailure() << f.name << " recurses with depth " << arg;
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult patterns_kept(const trees::Tree& p) {
  for (const trees::Function& f : p.functions) {
    auto r = counters_kept(f.body);
    if (!r) return r << " in " << f.name << "\n" << trees::to_source(p);
  }
  auto r = depths_kept(p);
  if (!r) return r << "\n" << trees::to_source(p);
  return r;
}

const char* const kSignatures[] = {
    "fn solve(xs: [int], n: int) -> int",
    "fn solve(s: str) -> str",
    "fn solve(a: float, b: float) -> (float, bool)",
    "fn solve(words: [str], flag: bool) -> [int]",
};

struct Parents {
  trees::Tree a, b;
  suites::Signature signature;
  trees::RandomProgramConfig config;
};

// Parent k: one of the fixed signatures, or (every fifth) a random entry as the generator
// makes by default.
Parents parents(u64 k) {
  Parents p;
  if (k % 5 == 4) {
    p.config.entry = "solve";
    Rng ra(2024, k);
    p.a = trees::random_program(p.config, ra);
    p.signature = entry_signature(p.a, "solve");
    p.config = config_for(p.signature);  // b shares a's entry
  } else {
    p.signature = signature(kSignatures[k % 4]);
    p.config = config_for(p.signature);
    switch (k % 13) {                          // switches of the generator, which new code must respect too
      case 1: p.config.arrays = false; break;  // str -> str
      case 2: p.config.max_helpers = 6, p.config.p_builtin_named_helper = 0.5; break;
      case 3: p.config.disabled_builtins = {"len", "min", "max", "push", "slice", "split"}; break;
      case 6: p.config.max_block_depth = 5, p.config.max_expr_depth = 6; break;
      case 8: p.config.tuples = p.config.recursion = false; break;
      case 10: p.config.p_risky = 1; break;
    }
    Rng ra(2024, k);
    p.a = trees::random_program(p.config, ra);
  }
  Rng rb(2024, k + 1000000);
  p.b = trees::random_program(p.config, rb);
  return p;
}

TEST(Variation, EveryOffspringCompilesKeepsTheSignatureAndTheLimits) {
  const u64 kParents = 300;
  u32 made = 0, changed = 0, copied = 0, mutated = 0, mutated_changed = 0;
  u32 op_made[3] = {0, 0, 0}, op_changed[3] = {0, 0, 0}, op_copied[3] = {0, 0, 0};
  u32 parents_over = 0;
  for (u64 k = 0; k < kParents; ++k) {
    Parents p = parents(k);
    ASSERT_TRUE(trees::has_entry(p.a, p.signature));
    ASSERT_TRUE(patterns_kept(p.a));
    trees::VariationConfig vc;
    vc.generator = p.config;
    parents_over += trees::node_count(p.a) > vc.max_nodes || trees::syntax_depth(p.a) > vc.max_depth;
    Rng rng(99, k);
    trees::Offspring offspring[3] = {trees::subtree_mutation(p.a, p.signature, vc, rng),
                                     trees::point_mutation(p.a, p.signature, vc, rng),
                                     crossover(p.a, p.b, p.signature, vc, rng)};
    std::string parent_source = trees::to_source(p.a);
    for (int op = 0; op < 3; ++op) {
      const trees::Offspring& o = offspring[op];
      ASSERT_TRUE(compiles(o.program)) << "operator " << op << ", parent " << k << ":\n" << parent_source;
      ASSERT_TRUE(trees::has_entry(o.program, p.signature));
      ASSERT_TRUE(patterns_kept(o.program)) << "operator " << op << ", parent " << k << ":\n"
                                            << parent_source;
      for (const std::string& name : p.config.disabled_builtins)
        ASSERT_EQ(trees::to_source(o.program).find(name + "("), std::string::npos)
            << "disabled " << name << " used";
      ASSERT_GE(o.attempts, 1u);
      ASSERT_LE(o.attempts, vc.max_attempts);
      if (!o.copied) {
        ASSERT_LE(trees::node_count(o.program), vc.max_nodes);
        ASSERT_LE(trees::syntax_depth(o.program), vc.max_depth);
      } else {
        ASSERT_EQ(trees::to_source(o.program), parent_source);
      }
      bool differs = trees::to_source(o.program) != parent_source;
      ++made;
      ++op_made[op];
      changed += differs;
      op_changed[op] += differs;
      copied += o.copied;
      op_copied[op] += o.copied;
      if (op < 2) {
        ++mutated;
        mutated_changed += differs;
      }
    }
  }
  const char* names[3] = {"subtree mutation", "point mutation", "crossover"};
  for (int op = 0; op < 3; ++op)
    std::printf("%-16s %u offspring: %.1f%% changed, %.1f%% copies of the parent\n", names[op], op_made[op],
                100.0 * op_changed[op] / op_made[op], 100.0 * op_copied[op] / op_made[op]);
  std::printf("%u of %llu parents are over the default size limits (their offspring are copies)\n",
              parents_over, static_cast<unsigned long long>(kParents));
  RecordProperty("changed_percent", int(100.0 * changed / made));
  RecordProperty("copied_percent", int(100.0 * copied / made));
  // Mutation must actually change the program most of the time.
  EXPECT_GT(double(mutated_changed) / mutated, 0.9);
  EXPECT_GT(double(op_changed[2]) / op_made[2], 0.6);
}

// Evolved programs are parents too: chains of offspring of offspring (a small population bred
// for many generations) stay compilable and keep the patterns.
TEST(Variation, OffspringOfOffspringStillCompile) {
  const u32 kChains = 12, kGenerations = 40;
  for (u64 k = 0; k < kChains; ++k) {
    Parents p = parents(k);
    trees::VariationConfig vc;
    vc.generator = p.config;
    std::vector<trees::Tree> population = {p.a, p.b};
    Rng rng(31, k);
    for (u32 g = 0; g < kGenerations; ++g) {
      const trees::Tree& x = population[rng.below(u32(population.size()))];
      const trees::Tree& y = population[rng.below(u32(population.size()))];
      trees::Offspring o =
          rng.bernoulli(0.5) ? crossover(x, y, p.signature, vc, rng) : mutation(x, p.signature, vc, rng);
      ASSERT_TRUE(compiles(o.program)) << "chain " << k << ", generation " << g;
      ASSERT_TRUE(trees::has_entry(o.program, p.signature));
      ASSERT_TRUE(patterns_kept(o.program)) << "chain " << k << ", generation " << g;
      if (population.size() < 8) {
        population.push_back(std::move(o.program));
      } else {
        population[rng.below(8)] = std::move(o.program);
      }
    }
  }
}

TEST(Variation, IsDeterministicForASeed) {
  for (u64 k = 0; k < 20; ++k) {
    Parents p = parents(k);
    trees::VariationConfig vc;
    vc.generator = p.config;
    auto run = [&](u64 stream) {
      Rng rng(5, stream);
      std::string out = trees::to_source(mutation(p.a, p.signature, vc, rng).program);
      out += trees::to_source(trees::subtree_mutation(p.a, p.signature, vc, rng).program);
      out += trees::to_source(crossover(p.a, p.b, p.signature, vc, rng).program);
      return out;
    };
    EXPECT_EQ(run(k), run(k));
  }
}

// Guided (VariationConfig::weight), the new code leans toward what the guide weighs: a guide that
// likes `%` puts it in several times as many offspring as the generator alone does, and a point
// mutation of `a + b` turns it into `a % b` most of the time rather than one time in ten. Every
// guided offspring still compiles, and the same seed breeds the same one.
size_t count_mods(const trees::Tree& p) {
  size_t n = 0;
  std::function<void(const trees::Expr&)> visit = [&](const trees::Expr& e) {
    n += e.kind == trees::ExprKind::Binary && e.binary_op() == trees::BinaryOp::Mod;
    for (const trees::Expr& c : e.children) visit(c);
  };
  std::function<void(const trees::Block&)> block = [&](const trees::Block& b) {
    for (const trees::Stmt& st : b) {
      for (const trees::Expr& e : st.exprs) visit(e);
      for (const trees::Block& inner : st.blocks) block(inner);
    }
  };
  for (const trees::Function& f : p.functions) block(f.body);
  return n;
}

TEST(Variation, AGuideDrawsTheNewCodeItWeighs) {
  const trees::NodeWeight likes_mod = [](const trees::Expr& e) {
    return e.kind == trees::ExprKind::Binary && e.binary_op() == trees::BinaryOp::Mod ? 20.0 : 1.0;
  };
  size_t gained[2] = {0, 0};  // offspring with more % than their parent: unguided, guided
  for (u64 k = 0; k < 300; ++k) {
    Parents p = parents(k);
    for (int guided = 0; guided < 2; ++guided) {
      trees::VariationConfig vc;
      vc.generator = p.config;
      if (guided) vc.weight = likes_mod;
      Rng rng(11, k);
      const trees::Offspring o = trees::subtree_mutation(p.a, p.signature, vc, rng);
      EXPECT_TRUE(compiles(o.program)) << k;
      gained[guided] += count_mods(o.program) > count_mods(p.a);
      Rng again(11, k);
      EXPECT_EQ(trees::to_source(trees::subtree_mutation(p.a, p.signature, vc, again).program),
                trees::to_source(o.program));
    }
  }
  EXPECT_GT(gained[0], 5u);
  EXPECT_GT(gained[1], 2 * gained[0]) << gained[0] << " unguided, " << gained[1] << " guided";

  // Point mutation of a + b: the ten other int operators, % weighed 20 times any of them.
  const suites::Signature sig = signature("fn solve(a: int, b: int) -> int");
  trees::Tree parent;
  trees::Function f;
  f.name = "solve";
  f.params = {{"a", Type::Int}, {"b", Type::Int}};
  f.results = {Type::Int};
  trees::Stmt ret;
  ret.kind = trees::StmtKind::Return;
  ret.exprs.push_back(trees::Expr::binary(trees::BinaryOp::Add, trees::Expr::name("a", Type::Int),
                                          trees::Expr::name("b", Type::Int)));
  f.body.push_back(ret);
  parent.functions.push_back(f);
  ASSERT_TRUE(compiles(parent));
  size_t mods[2] = {0, 0}, changed[2] = {0, 0};
  for (int guided = 0; guided < 2; ++guided) {
    trees::VariationConfig vc;
    vc.generator = config_for(sig);
    if (guided) vc.weight = likes_mod;
    for (u64 k = 0; k < 400; ++k) {
      Rng rng(12, k);
      const trees::Offspring o = trees::point_mutation(parent, sig, vc, rng);
      const trees::Expr& e = o.program.functions[0].body[0].exprs[0];
      if (e.kind != trees::ExprKind::Binary || e.binary_op() == trees::BinaryOp::Add) continue;
      ++changed[guided];
      mods[guided] += e.binary_op() == trees::BinaryOp::Mod;
    }
  }
  ASSERT_GT(changed[0], 100u);
  ASSERT_GT(changed[1], 100u);
  EXPECT_LT(mods[0] * 4, changed[0]);  // 1 in 10 expected
  EXPECT_GT(mods[1] * 2, changed[1]);  // 20 in 29 expected
}

// An offspring over the limits is retried, then the parent is copied. With no room to grow,
// some offspring still fit (point mutations, smaller subtrees); with the parent itself over the
// limit, none can.
TEST(Variation, SizeLimitsRetryThenCopyTheParent) {
  u32 made = 0, copied = 0;
  for (u64 k = 0; k < 60; ++k) {
    Parents p = parents(k);
    trees::VariationConfig vc;
    vc.generator = p.config;
    vc.max_nodes = trees::node_count(p.a);
    vc.max_depth = trees::syntax_depth(p.a);
    Rng rng(17, k);
    for (int r = 0; r < 3; ++r) {
      trees::Offspring o =
          r == 2 ? crossover(p.a, p.b, p.signature, vc, rng) : mutation(p.a, p.signature, vc, rng);
      ASSERT_TRUE(compiles(o.program));
      ASSERT_LE(trees::node_count(o.program), vc.max_nodes);
      ASSERT_LE(trees::syntax_depth(o.program), vc.max_depth);
      ++made;
      copied += o.copied;
    }
    vc.max_nodes = 5;  // no one step takes a generated program down to that
    trees::Offspring o = trees::subtree_mutation(p.a, p.signature, vc, rng);
    EXPECT_TRUE(o.copied);
    EXPECT_EQ(o.attempts, vc.max_attempts);
    EXPECT_EQ(trees::to_source(o.program), trees::to_source(p.a));
  }
  std::printf("no room to grow: %u of %u offspring were copies of the parent (%.1f%%)\n", copied, made,
              100.0 * copied / made);
  EXPECT_LT(copied, made);
}

TEST(Variation, RejectsAParentWithoutTheEntry) {
  Parents p = parents(0);
  suites::Signature other = signature("fn solve(x: int) -> int");
  trees::VariationConfig vc;
  Rng rng(1);
  EXPECT_THROW(mutation(p.a, other, vc, rng), std::invalid_argument);
  EXPECT_THROW(crossover(p.a, p.b, other, vc, rng), std::invalid_argument);
  EXPECT_THROW(trees::simplifications(p.a, other), std::invalid_argument);
}

// fn solve(x: int) -> int { return x + 1; }  and  fn solve(x: int) -> int { let q = x * 3; return q - 7; }
TEST(Crossover, TakesOnlySubtreesWhoseVariablesAreVisible) {
  suites::Signature s = signature("fn solve(x: int) -> int");
  trees::Tree a, b;
  a.functions.push_back({"solve", {{"x", Type::Int}}, {Type::Int}, {}});
  a.functions[0].body.push_back(trees::Stmt::ret({trees::Expr::binary(
      trees::BinaryOp::Add, trees::Expr::name("x", Type::Int), trees::Expr::int_lit(1))}));
  b.functions.push_back({"solve", {{"x", Type::Int}}, {Type::Int}, {}});
  b.functions[0].body.push_back(trees::Stmt::let(
      "q",
      trees::Expr::binary(trees::BinaryOp::Mul, trees::Expr::name("x", Type::Int), trees::Expr::int_lit(3))));
  b.functions[0].body.push_back(trees::Stmt::ret({trees::Expr::binary(
      trees::BinaryOp::Sub, trees::Expr::name("q", Type::Int), trees::Expr::int_lit(7))}));
  trees::VariationConfig vc;
  vc.generator = config_for(s);
  vc.p_statement = 0;  // expressions only
  u32 took_product = 0;
  for (u64 k = 0; k < 200; ++k) {
    Rng rng(3, k);
    trees::Offspring o = crossover(a, b, s, vc, rng);
    std::string source = trees::to_source(o.program);
    ASSERT_TRUE(compiles(o.program));
    EXPECT_EQ(source.find('q'), std::string::npos) << source;
    took_product += source.find("x * 3") != std::string::npos;
  }
  EXPECT_GT(took_product, 10u);
  // Statements: `let q = x * 3;` may come over (q is new to a), `return q - 7;` may not alone.
  vc.p_statement = 1;
  for (u64 k = 0; k < 200; ++k) {
    Rng rng(4, k);
    trees::Offspring o = crossover(a, b, s, vc, rng);
    ASSERT_TRUE(compiles(o.program)) << trees::to_source(o.program);
  }
}

// ---- simplify -------------------------------------------------------------------------------

// fn solve(x: int) -> int { let y = x * 2; let z = 3; return y + 0; }  fn unused(a: int) -> int { return a; }
TEST(Simplify, OffersEachKindOfStep) {
  suites::Signature s = signature("fn solve(x: int) -> int");
  trees::Tree p;
  trees::Function solve{"solve", {{"x", Type::Int}}, {Type::Int}, {}};
  solve.body.push_back(trees::Stmt::let(
      "y",
      trees::Expr::binary(trees::BinaryOp::Mul, trees::Expr::name("x", Type::Int), trees::Expr::int_lit(2))));
  solve.body.push_back(trees::Stmt::let("z", trees::Expr::int_lit(3)));
  solve.body.push_back(trees::Stmt::ret({trees::Expr::binary(
      trees::BinaryOp::Add, trees::Expr::name("y", Type::Int), trees::Expr::int_lit(0))}));
  p.functions.push_back(solve);
  p.functions.push_back({"unused", {{"a", Type::Int}}, {Type::Int}, {}});
  p.functions[1].body.push_back(trees::Stmt::ret({trees::Expr::name("a", Type::Int)}));
  std::vector<std::string> variants;
  for (const trees::Tree& v : trees::simplifications(p, s)) {
    ASSERT_TRUE(compiles(v));
    ASSERT_LT(trees::node_count(v), trees::node_count(p));
    variants.push_back(trees::to_source(v));
  }
  const std::string body_prefix = "fn solve(x: int) -> int {\n";
  auto offered = [&](const std::string& source) {
    return std::find(variants.begin(), variants.end(), source) != variants.end();
  };
  // The helper dropped.
  EXPECT_TRUE(offered(body_prefix + "  let y = x * 2;\n  let z = 3;\n  return y + 0;\n}\n"));
  // The unused let deleted; the used one and the return never.
  std::string both = "fn unused(a: int) -> int {\n  return a;\n}\n";
  EXPECT_TRUE(offered(body_prefix + "  let y = x * 2;\n  return y + 0;\n}\n" + both));
  for (const std::string& v : variants) {
    EXPECT_NE(v.find("let y"), std::string::npos) << v;
    EXPECT_NE(v.find("return"), std::string::npos) << v;
  }
  // Expressions by a child and by a literal.
  EXPECT_TRUE(offered(body_prefix + "  let y = x;\n  let z = 3;\n  return y + 0;\n}\n" + both));
  EXPECT_TRUE(offered(body_prefix + "  let y = x * 2;\n  let z = 3;\n  return y;\n}\n" + both));
  EXPECT_TRUE(offered(body_prefix + "  let y = 0;\n  let z = 3;\n  return y + 0;\n}\n" + both));
}

TEST(Simplify, EveryVariantIsSmallerAndCompiles) {
  u32 programs = 0, variants = 0;
  for (u64 k = 0; k < 10; ++k) {
    Parents p = parents(k);
    std::vector<trees::Tree> all = trees::simplifications(p.a, p.signature);
    ++programs;
    variants += u32(all.size());
    EXPECT_FALSE(all.empty());
    // Every variant for the first programs; a sample of them after that (compiling is the cost).
    for (size_t v = 0; v < all.size(); v += k < 3 ? 1 : 17) {
      ASSERT_LT(trees::node_count(all[v]), trees::node_count(p.a));
      ASSERT_TRUE(trees::has_entry(all[v], p.signature));
      ASSERT_TRUE(compiles(all[v])) << "variant " << v << " of parent " << k << ":\n"
                                    << trees::to_source(p.a);
      ASSERT_TRUE(patterns_kept(all[v]));
    }
  }
  std::printf("%u programs: %.1f one-step simplifications each\n", programs, double(variants) / programs);
}

// Greedy shrinking, as the search loop does it, with "still passes" replaced by "the entry still
// calls len": ends at a small program whose entry does.
TEST(Simplify, ShrinksGreedilyToAFixedPoint) {
  Parents p = parents(7);
  trees::Tree current = p.a;
  auto keeps = [](const trees::Tree& x) {
    trees::Tree entry_only;
    entry_only.functions.push_back(*x.find("solve"));
    return trees::to_source(entry_only).find("len(") != std::string::npos;
  };
  if (!keeps(current)) GTEST_SKIP() << "parent 7 does not call len";
  for (int steps = 0; steps < 10000; ++steps) {
    std::vector<trees::Tree> next = trees::simplifications(current, p.signature);
    auto it = std::find_if(next.begin(), next.end(), keeps);
    if (it == next.end()) break;
    current = std::move(*it);
  }
  EXPECT_TRUE(compiles(current));
  EXPECT_TRUE(keeps(current));
  EXPECT_LT(trees::node_count(current), trees::node_count(p.a));
  std::printf("shrunk from %u to %u nodes:\n%s", trees::node_count(p.a), trees::node_count(current),
              trees::to_source(current).c_str());
}

}  // namespace
}  // namespace gs::trees

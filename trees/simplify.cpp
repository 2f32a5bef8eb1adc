#include "trees/simplify.h"

#include <stdexcept>

#include "trees/variation.h"

namespace gs::trees {

namespace {

enum class StepKind : u8 { DropHelper, DropUnreachable, DeleteStatement, InlineArm, Child, Literal };

// One simplification, named by indices into the sites of the program (find_edit_sites is
// deterministic, so they name the same node in every copy).
struct Step {
  StepKind kind;
  u32 site = 0;  // function, statement site or expression site
  u32 arg = 0;   // arm or child
};

u32 expr_nodes(const Expr& e) {
  u32 n = 1;
  for (const Expr& c : e.children) n += expr_nodes(c);
  return n;
}

bool is_literal(const Expr& e) {
  return e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit || e.kind == ExprKind::BoolLit ||
         e.kind == ExprKind::StrLit;
}

// The smallest literal of a type: 0, 0.0, false, "", or an array of one of those.
Expr zero_literal(Type t) {
  switch (t) {
    case Type::Int: return Expr::int_lit(0);
    case Type::Float: return Expr::float_lit(0.0);
    case Type::Bool: return Expr::bool_lit(false);
    case Type::Str: return Expr::str_lit("");
    default: return Expr::array_lit(t, {zero_literal(element_of(t))});
  }
}

bool calls(const Block& b, const std::string& name) {
  for (const Stmt& s : b) {
    for (const Expr& e : s.exprs) {
      bool found = false;
      auto visit = [&](auto& self, const Expr& x) -> void {
        found |= x.kind == ExprKind::Call && x.text == name;
        for (const Expr& c : x.children) self(self, c);
      };
      visit(visit, e);
      if (found) return true;
    }
    for (const Block& inner : s.blocks)
      if (calls(inner, name)) return true;
  }
  return false;
}

std::vector<Step> plan(Tree& p, const suites::Signature& signature) {
  EditSites sites = find_edit_sites(p, signature, RandomProgramConfig{});
  std::vector<Step> steps;
  u32 unreachable = 0;
  for (u32 g = 0; g < p.functions.size(); ++g) {
    if (g == sites.entry || sites.reaches[sites.entry][g]) continue;
    ++unreachable;
    bool called = false;  // by another function, which would lose its callee
    for (u32 h = 0; h < p.functions.size(); ++h)
      called |= h != g && calls(p.functions[h].body, p.functions[g].name);
    if (!called) steps.push_back({StepKind::DropHelper, g});
  }
  if (unreachable > 1) steps.push_back({StepKind::DropUnreachable});
  for (u32 k = 0; k < sites.stmts.size(); ++k)
    if (sites.stmts[k].removable) steps.push_back({StepKind::DeleteStatement, k});
  for (u32 k = 0; k < sites.stmts.size(); ++k) {
    const StmtSite& s = sites.stmts[k];
    if (!s.removable || (*s.block)[s.index].kind != StmtKind::If) continue;
    for (u32 arm = 0; arm < (*s.block)[s.index].blocks.size(); ++arm)
      steps.push_back({StepKind::InlineArm, k, arm});
  }
  for (u32 k = 0; k < sites.exprs.size(); ++k) {
    const Expr& e = *sites.exprs[k].expr;
    for (u32 c = 0; c < e.children.size(); ++c) {
      const Expr& child = e.children[c];
      bool untyped = child.kind == ExprKind::ArrayLit && child.children.empty();  // [] needs its context
      if (child.type == e.type && !untyped) steps.push_back({StepKind::Child, k, c});
    }
  }
  for (u32 k = 0; k < sites.exprs.size(); ++k) {
    const Expr& e = *sites.exprs[k].expr;
    if (!is_literal(e) && expr_nodes(e) > expr_nodes(zero_literal(e.type)))
      steps.push_back({StepKind::Literal, k});
  }
  return steps;
}

void apply(Tree& p, const suites::Signature& signature, const Step& step) {
  if (step.kind == StepKind::DropHelper) {
    p.functions.erase(p.functions.begin() + step.site);
    return;
  }
  EditSites sites = find_edit_sites(p, signature, RandomProgramConfig{});
  switch (step.kind) {
    case StepKind::DropUnreachable: {
      std::vector<Function> kept;
      for (u32 g = 0; g < p.functions.size(); ++g)
        if (g == sites.entry || sites.reaches[sites.entry][g]) kept.push_back(std::move(p.functions[g]));
      p.functions = std::move(kept);
      return;
    }
    case StepKind::DeleteStatement: {
      const StmtSite& s = sites.stmts[step.site];
      s.block->erase(s.block->begin() + s.index);
      return;
    }
    case StepKind::InlineArm: {
      const StmtSite& s = sites.stmts[step.site];
      Stmt& chain = (*s.block)[s.index];
      Block arm = std::move(chain.blocks[step.arg]);
      chain = Stmt::block(std::move(arm));  // its own scope, as the arm had
      return;
    }
    case StepKind::Child: {
      Expr& e = *sites.exprs[step.site].expr;
      Expr child = std::move(e.children[step.arg]);
      e = std::move(child);
      return;
    }
    default: {
      Expr& e = *sites.exprs[step.site].expr;
      e = zero_literal(e.type);
    }
  }
}

}  // namespace

std::vector<Tree> simplifications(const Tree& p, const suites::Signature& signature) {
  if (!has_entry(p, signature))
    throw std::invalid_argument("simplifications: the program has no entry function matching '" +
                                signature.text + "'");
  Tree scratch = p;
  std::vector<Step> steps = plan(scratch, signature);
  std::vector<Tree> out;
  out.reserve(steps.size());
  for (const Step& step : steps) {
    Tree variant = p;
    apply(variant, signature, step);
    out.push_back(std::move(variant));
  }
  return out;
}

}  // namespace gs::trees

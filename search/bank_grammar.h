// The value bank's grammar: the productions the enumeration applies over the types a problem has
// (its signature's, their elements', its constants'), and the name each has wherever productions
// are counted, learnt or weighed (the search policy's vocabulary).
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "search/bank_enumerator.h"
#include "suites/problem.h"
#include "trees/syntax.h"
#include "vm/value.h"

namespace gs::search::bank {

// The types a bank over these holds: int and bool always, `used` (a signature's parameters and
// results, a problem's constants), the elements of the arrays among them, and [str] with str
// (split and join).
std::set<Type> grammar_types(std::span<const Type> used);
// The grammar_types of a problem: its signature's and its constants' that a literal can write.
std::set<Type> grammar_types(const suites::Problem& problem);

// The constants every bank over `types` has as leaves: 0 1 2, true false, and "" " " with str.
std::vector<vm::Value> small_constants(const std::set<Type>& types);

// The productions over `types` (int and bool always among them): the operators and builtins of
// those types, the loops of search/bank_loops.h when `loops` is set, a lazy choose per type when
// `choose` is, DeepCoder's one-node list forms (list_language_form) when `list_forms` is. Each at
// cost 1.
std::vector<Production> grammar(const std::set<Type>& types, bool loops, bool choose,
                                bool list_forms = false);

// Whether p is one of DeepCoder's one-node forms (Balog et al. 2017): head (`$0[0]`), a map by
// +1, -1, *2, /2, *3, /3, *4 or /4, a filter or a count by > 0, < 0, even or odd, a scanl1 by +,
// -, max or min (search/bank_loops.h) — the grammar's larger spellings made one node, as in that
// language (map_mul(xs, 3) is five nodes, map_triple(xs) two). The enumeration takes them where
// a parameter is an [int], after a while without them by default (search/list_forms_restart.h).
bool list_language_form(const Production& p);

// Whether p is a function of DeepCoder's list language: a list_language_form, or one of the rest
// as the grammar spells them — last (`$0[len($0) - 1]`), access (`$0[$1]`), max, min, sum, sort,
// reverse, take (`slice($0, 0, $1)`), drop (`slice($0, $1, len($0))`), map by negation and square,
// zipwith by +, -, *, max and min.
bool list_language_function(const Production& p);
// DeepCoder's list language alone over `types` (those of grammar() that are
// list_language_function), each at kListLanguageCost: a function costs as much as 8 leaves, so
// that the enumeration goes function by function (level 8·F + the leaves), as DeepCoder's search
// does by program length, and a program of three functions over the parameters comes before any
// of four (search/list_forms_restart.h).
inline constexpr u32 kListLanguageCost = 8;
std::vector<Production> list_language(const std::set<Type>& types);

// Whether p is a production of lambda bodies (search/bank_lambdas.h), over one element: one that
// makes an int, a bool or a str, but of the loops only those over an int's digits or comparing a
// list's elements with a value (count_where_eq(xs, x): how often x occurs) — the folds of a list
// and over 1..n give the same on each of a case's elements, as sum(xs) does; or one that builds an
// [int] from ints — [x], push, repeat, range_to, range_by: a flat map's bodies.
bool body_production(const Production& p);

// A production's name: its text and signature, e.g. "$0 + $1 (int, int) -> int",
// "fold_add($0, $1) ([int], int) -> int", "choose($0, $1, $2) (bool, str, str) -> str".
std::string production_key(const Production& p);  // (the other form: search/bank_enumerator.h)
// A constant leaf's name, in the same form: "2 () -> int", "\" \" () -> str".
std::string constant_key(const vm::Value& constant);
// A lambda form's name (search/bank_lambdas.h), in the same form, by the form's name, the sequence
// it goes over, its body's type and its result: "map($0, x -> int) ([int]) -> [int]",
// "filter($0, x -> bool) (str) -> str".
std::string form_key(const std::string& form, Type sequence, Type body, Type result);

// The name of a syntax tree's node in the same form, what GP's guide weighs (search/gp_guide.h):
// an operator's, an index's or a builtin call's by its text over its operands' types ("$0 + $1 (int,
// int) -> int", "len($0) ([int]) -> int"), a literal's as constant_key's. None for a variable, a call
// of the program's own function and an array literal other than [x]. A key no grammar holds
// ("$0 > $1 (int, int) -> bool") is still a name; a policy gives it what it gives any key it lacks.
std::optional<std::string> node_key(const trees::Expr& node);

// The constants of lambda bodies: 0 1 2 3 and 10 (the base of decimal digits), and the problem's
// others (its ints beyond those, its strs and tables), each with its literal.
std::vector<std::pair<std::string, vm::Value>> body_constants(std::span<const vm::Value> constants);
// The productions of lambda bodies over `types` (body_production), a lazy choose per type when
// `choose` is; the loops among them cost kBodyLoopCost, so that they do not crowd out the smaller
// bodies within the bodies' budget.
inline constexpr u32 kBodyLoopCost = 2;
std::vector<Production> body_grammar(const std::set<Type>& types, bool choose, bool list_forms = false);

}  // namespace gs::search::bank

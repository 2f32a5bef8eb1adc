// Candidate generators: where a search's programs come from. A generator proposes a batch of
// Syn sources, the search loop (search/search_loop.h) compiles, runs and tests them in one pipeline
// call, and the generator observes the results before it proposes again — so a generator that
// learns (genetic programming, enumeration with observational equivalence) and one that does
// not (random programs, a file of samples) share one interface.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/batch_results.h"
#include "pipeline/pipeline.h"
#include "search/generator_kind.h"
#include "search/policy.h"
#include "suites/problem.h"
#include "trees/random_program.h"
#include "trees/syntax.h"

namespace gs::search {

// One proposed program. parents: ids (observe()'s first_id numbering) of the programs it was
// bred from, -1 for none.
struct Proposal {
  std::string source;
  // When the generator built it as a syntax tree: shared, never changed (GP keeps the judged batch
  // as its population without copying it).
  std::shared_ptr<const trees::Tree> tree;
  i64 parents[2] = {-1, -1};
};

// Programs of a solution's size that no train case tells apart from it (search/bank_enumerator.h
// alike()): how many, itself included, and whether every program of that size was looked at.
struct Alike {
  u64 programs = 1;
  u32 size = 0;  // expression nodes
  bool complete = false;
};

class Generator {
 public:
  virtual ~Generator() = default;
  virtual GeneratorKind kind() const = 0;
  // Up to `count` new programs for `iteration` (0, 1, …). Fewer, or none, when the generator has
  // run out (a file of samples, a finished enumeration): the search then stops.
  virtual std::vector<Proposal> propose(u32 count, u64 iteration) = 0;
  // The pipeline's results for the proposals just made, in order (per-pair arrays included);
  // proposal i has the id first_id + i.
  virtual void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& results,
                       i64 first_id) = 0;
  // Expressions the last propose() evaluated on the train cases itself, without the pipeline (the
  // value-bank enumeration computes every expression's outputs in its own bank and proposes only
  // those that meet the goal). The loop counts them against the budget and in the iteration's
  // candidates; only the proposals are judged and recorded. A propose() that returns no proposal
  // but evaluated some does not end the search.
  virtual u64 evaluated_internally() const { return 0; }
  // Of the expressions evaluated internally so far, those that prepared the generator once rather
  // than sought an answer (the value bank's lambda bodies, search/bank_lambdas.h): a portfolio
  // counts them against the budget but keeps them out of the generator's share.
  virtual u64 evaluated_preparing() const { return 0; }
  // Asked once after `solution`, a proposal of the last batch, passed every train case: the
  // programs of its size no train case tells apart from it, where the generator counts them (the
  // value bank does, after the search, like the shrinking: not counted as candidates).
  virtual std::optional<Alike> alike(const Proposal& /*solution*/) { return std::nullopt; }
  // Asked with alike(): the names (search/bank_grammar.h keys, sorted) of the productions and
  // constants `solution` is made of, where the generator built it from them (the value bank's
  // answers, whole or assembled: those of every expression it was assembled from): what the search
  // policy learns from a solved problem (search/policy.h). Empty otherwise.
  virtual std::vector<std::string> uses(const Proposal& /*solution*/) const { return {}; }
  // Asked once when the search ends: what the user should know about how the generator's run
  // went where it limited the search (the value bank's case heaps or memory filled), one
  // sentence each. Empty otherwise.
  virtual std::vector<std::string> notes() const { return {}; }
};

enum class Selection : u8 { Lexicase, DownsampledLexicase, Tournament };
const char* selection_name(Selection s);  // "lexicase", "downsampled", "tournament"
std::optional<Selection> parse_selection(std::string_view name);

// What lexicase compares on a case: the graded error of the outputs (pipeline/output_error.h: how far
// a wrong answer is from the right one), or only whether the case passed. Errors let lexicase
// prefer the nearer of two failing programs — the signal GP needs while no program passes a case.
enum class CaseScores : u8 { Error, Pass };
const char* case_scores_name(CaseScores s);  // "error", "pass"
std::optional<CaseScores> parse_case_scores(std::string_view name);

// Genetic programming (search/selection.h, trees/variation.h).
struct GpSettings {
  Selection selection = Selection::Lexicase;
  double downsample = 0.25;              // DownsampledLexicase: the fraction of cases each generation
  u32 tournament = 7;                    // Tournament: its size
  CaseScores scores = CaseScores::Pass;  // lexicase and down-sampled lexicase (docs/results.md)
  double p_crossover = 0.5;              // else mutation
  u32 max_nodes = 1000;                  // offspring size limits
  u32 max_depth = 40;
  // On a problem of at most kHoldoutCases train cases, this fraction of them (one at least) is
  // held back from selection, drawn once from the seed: a program that passes them has passed
  // cases nothing selected it for, so fewer solutions fit the few cases by chance (0: none).
  double holdout = 0.25;
  static constexpr u32 kHoldoutCases = 20;
  // With a policy: fresh subtrees a mutation draws to keep one by the policy's weights
  // (trees::VariationConfig::guided_draws; search/gp_guide.h); 0: GP does not follow the policy.
  u32 policy_draws = 4;
};

// The random program generator's settings for search: smaller programs than its defaults (which
// are made to exercise the compiler and VM in tests) — one helper at most, short blocks, shallow
// expressions, few unguarded traps, no deep recursion — since a search's first programs should
// be near the small programs that solve problems.
trees::RandomProgramConfig search_program_config();

// EnumerateSettings::body_goal_budget without a bound.
inline constexpr u64 kUnboundedBodyGoals = ~u64(0);

// EnumerateSettings::list_forms_after: never; and by default, four million expressions — beyond
// PushGP's budget of 300,000, so that searches bounded by it go without the forms, and about ten
// seconds of one core on a list problem, after which a search bounded by time goes on with them.
// With the forms from the start, listfunctions loses five problems at 10 s a problem (each found
// at 0.5–2.4 million without them) and deepcoder-neo100 gains twelve at 30 s (docs/results.md).
inline constexpr u64 kNoListForms = ~u64(0);
inline constexpr u64 kListFormsAfter = 4'000'000;
// EnumerateSettings::list_language: by default, twenty million expressions of DeepCoder's list
// language alone after the whole grammar's list_forms_after (search/list_forms_restart.h): about
// twenty seconds of one core, in which it reaches most of DeepCoder's five-function programs
// (deepcoder-098 at 19 million into it; at 8 million it was lost), and after which the whole
// grammar with the forms still finds listfunctions' c102 within a minute (35 s).
inline constexpr u64 kListLanguage = 20'000'000;

// Bottom-up enumeration over the value bank (search/enumerate_generator.cpp).
struct EnumerateSettings {
  u32 max_size = 12;          // expression nodes; the enumeration ends after this size
  bool choose = true;         // the lazy choose(c, a, b) as a production
  bool lambdas = true;        // map, filter, count and find with enumerated bodies over sequence parameters
  u64 lambda_budget = 50000;  // … their bodies: expressions evaluated first (0: none; lambda_budget_within)
  // … and more while a map's or filter's body that meets a result is sought (0: none;
  // kUnboundedBodyGoals: until the bodies end, or the search does)
  u64 body_goal_budget = 100000;
  bool splits = true;         // goals met case by case: decision lists under bool expressions
  u32 last_steps = 3;         // an answer's last steps, up to this many (search/last_steps.h; 0: none)
  bool forward_steps = true;  // … and those each banked [int] is taken on (search/forward_steps.h)
  // DeepCoder's one-node list forms (bank::list_language_form) where a parameter is an [int]: the
  // enumeration evaluates this many expressions without them, or ends sooner, and then begins
  // again with them (search/list_forms_restart.h); 0: with them from the start; kNoListForms:
  // never.
  u64 list_forms_after = kListFormsAfter;
  // … and between the two, where list_forms_after is neither 0 nor kNoListForms, this many
  // expressions of DeepCoder's list language alone (bank::list_language; 0: none).
  u64 list_language = kListLanguage;
  u32 threads = 1;                // the cases are shared out among these (0: every CPU): --threads
  bool bank_interpreter = false;  // every production through the interpreter (the reference evaluator)
  // Where the bank's heap-free productions over ints, bools and floats run (search/bank_device.h):
  // Cuda, on CUDA device `gpu`; Cpu (and Auto, which the caller resolves) with the rest.
  pipeline::Device device = pipeline::Device::Cpu;
  u32 gpu = 0;
  u64 memory = u64(2) << 30;  // bytes the bank may fill; the enumeration ends there
  // The bank holds this many of the train cases, grown by the cases a proposal fails
  // (search/case_sample.h); 0: every train case. At 50, PSB1 (200 cases) solves the same 19 at
  // 300,000 in 28.5 s against 62.1 s (docs/results.md).
  u32 sample_cases = 50;
  // The productions' and constants' costs from a trained policy (search/policy.h: --policy);
  // none: every one costs 1, so the enumeration goes by size. GP and the portfolio's GP take
  // their guide from it too (search/gp_guide.h).
  std::shared_ptr<const Policy> policy;
  double policy_temperature = 6;  // its costs' temperature (search/policy.h policy_cost)
};

// The portfolio: the enumeration for its first candidates, then GP (search/portfolio_generator.cpp).
struct PortfolioSettings {
  // Expressions the enumeration may evaluate: enumerate_share of the default budget (search_loop.cpp
  // checks it), and fit_to_budget's share of any other.
  u64 enumerate_candidates = 200000;
};

// What every generator that builds programs needs: the random program generator's settings,
// the seed, and for GP, the enumeration and the portfolio their settings.
struct GeneratorSettings {
  trees::RandomProgramConfig programs = search_program_config();  // entry and signature set from the problem
  u64 seed = 1;
  GpSettings gp;
  EnumerateSettings enumerate;
  PortfolioSettings portfolio;
};

// The lambda bodies a search of `candidates` (0: no candidate budget) evaluates: `lambda_budget`,
// at most half the budget. They are evaluated before the first batch and counted as candidates:
// uncapped, a search of 20,000 evaluated 51,000. With the cap PSB1 at 50,000 a problem solves 18,
// without it 17; the default budget (300,000) leaves the default 50,000 as it is.
inline u64 lambda_budget_within(u64 lambda_budget, u64 candidates) {
  return candidates == 0 ? lambda_budget : std::min(lambda_budget, candidates / 2);
}

// The enumeration's share of a portfolio's candidate budget: two thirds of it (200,000 of PushGP's
// 300,000), and without one (0: time or iterations bound the search) no bound, the enumeration
// going on until it ends (its bank full or its largest size done) and GP having the rest. A fixed
// 200,000 whatever the budget left a search of 60 s to GP after its first second: GP makes ~1/50
// of the enumeration's candidates a second, and at 60 s a problem the portfolio solved 4 of
// deepcoder-neo100's first 22 where the enumeration alone solved 9 (docs/results.md).
constexpr u64 enumerate_share(u64 candidates) {
  return candidates == 0 ? ~u64(0) : candidates - candidates / 3;
}

// EnumerateSettings::body_goal_budget for a search of `candidates`: a third of them, at least the
// enumeration's default (100,000), and no bound without a candidate budget (time or iterations
// bound the search).
inline u64 body_goals_within(u64 candidates) {
  return candidates == 0 ? kUnboundedBodyGoals
                         : std::max(EnumerateSettings{}.body_goal_budget, candidates / 3);
}

// Fits the settings that follow the candidate budget to a search of `candidates` (0: none): caps
// the lambda bodies (lambda_budget_within) and sets the body goals (body_goals_within) and the
// portfolio's enumeration (enumerate_share). The one place both front ends take them from: the
// command (jobs/search_options.cpp, before --body-goal-budget and --enumerate-first give numbers)
// and Python's search.
inline void fit_to_budget(GeneratorSettings* s, u64 candidates) {
  s->enumerate.lambda_budget = lambda_budget_within(s->enumerate.lambda_budget, candidates);
  s->enumerate.body_goal_budget = body_goals_within(candidates);
  s->portfolio.enumerate_candidates = enumerate_share(candidates);
}

// Random programs with the problem's signature: candidate k of iteration t is a pure function
// of (seed, t, k).
std::unique_ptr<Generator> make_random_generator(const suites::Signature& signature,
                                                 GeneratorSettings settings);

// Genetic programming: iteration 0 is random programs; each later iteration breeds a new
// population from the last one's results — parents by the settings' selection over the cases'
// errors or pass bits (lexicase) or the rewards (tournament), children by crossover or mutation.
// With a policy (settings.enumerate.policy, which guides the enumeration too), the mutations draw
// their new code from its probabilities for the problem (search/gp_guide.h).
std::unique_ptr<Generator> make_gp_generator(const suites::Problem& problem, GeneratorSettings settings);

// Bottom-up enumeration with observational equivalence over a value bank (search/value_bank.h,
// search/bank_enumerator.h; docs/search.md "Enumeration"): every expression over the problem's
// parameters, a few constants, the operators and builtins of the signature's types, loops with
// state (search/bank_loops.h), lambdas over the sequence parameters (search/bank_lambdas.h) and a
// lazy choose, smallest first, is evaluated on the train cases in the bank from its operands'
// outputs, partial ones (traps on some cases) included; two expressions with the same outputs and
// traps on every case are one. Every expression evaluated counts as a candidate; a program is
// proposed, and judged by the pipeline, only when every result's goal is met (search/goal_shapes.h:
// its outputs, the part of a string between common affixes, an int under chr or str, lines),
// each by one expression or case by case (search/case_split.h). Where a parameter is an [int], it
// begins again in DeepCoder's list language alone after settings.list_forms_after expressions,
// and with the whole grammar and that language's forms after settings.list_language more
// (search/list_forms_restart.h). Deterministic; the seed is not used.
std::unique_ptr<Generator> make_enumerate_generator(const suites::Problem& problem,
                                                    EnumerateSettings settings);
// The enumeration, then GP: the enumeration evaluates up to settings.portfolio.enumerate_candidates
// expressions (its lambda bodies besides), then GP searches.
std::unique_ptr<Generator> make_portfolio_generator(const suites::Problem& problem,
                                                    GeneratorSettings settings);

// Sources read from a file of candidates (suites/candidates.h), proposed in file order until
// they run out; the file's malformed entries are skipped (the caller has reported them).
std::unique_ptr<Generator> make_external_generator(std::vector<std::string> sources);

// Which generator a search uses, with its settings: what `--generator` and its options choose.
struct GeneratorChoice {
  GeneratorKind kind = GeneratorKind::Gp;
  GeneratorSettings settings;
  std::vector<std::string> sources;  // External: the candidate programs, in file order
};

// The chosen generator for a problem.
std::unique_ptr<Generator> make_generator(const GeneratorChoice& choice, const suites::Problem& problem);
// Puts the enumeration's bank beside the pipeline that judges the proposals: on `device` as the
// user gave it (Auto resolved as make_pipeline resolves it), CUDA device `gpu` there.
void place_bank_beside(GeneratorChoice* choice, pipeline::Device device, u32 gpu = 0);

// The random generator's settings for a problem: the entry's name and types fixed.
trees::RandomProgramConfig generator_config_for(const suites::Signature& signature,
                                                trees::RandomProgramConfig base = {});

}  // namespace gs::search

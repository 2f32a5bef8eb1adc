#include "jobs/search_options.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>

#include "jobs/compile_options.h"
#include "suites/candidates.h"

namespace gs::jobs {

po::options_description search_options(SearchOptions* o) {
  po::options_description d("Search");
  const std::string list_forms_help =
      "enumerate: where a parameter is an [int], DeepCoder's list language as one-node forms too: xs[0], "
      "map_triple(xs) (x * 3; +1, -1, *2, /2, /3, *4, /4), filter_odd(xs) and count_where_odd(xs) (> 0, < 0, "
      "even), scanl1_max(xs) (+, -, min): from the start (1), never (0), or auto: after " +
      std::to_string(search::kListFormsAfter) +
      " expressions without them, or when the enumeration without them ends, it begins again in DeepCoder's "
      "list language alone (--list-language), then with the whole grammar and the forms";
  d.add_options()(
      "generator,g", defaulted(&o->generator),
      "where candidates come from: random, gp, enumerate (bottom-up over a value bank), portfolio "
      "(enumerate, then gp) or external")(
      "selection", defaulted(&o->selection),
      "GP parent selection: lexicase, downsampled (lexicase) or tournament")(
      "case-scores", defaulted(&o->case_scores),
      "what lexicase compares per case: error (graded: how far the output is from the expected one) or pass")(
      "downsample", bounded(&o->settings.gp.downsample, 0.001, 1),
      "downsampled lexicase: fraction of the train cases per generation")(
      "tournament-size", bounded(&o->settings.gp.tournament, 1, 1u << 20),
      "tournament selection: individuals per tournament")("crossover",
                                                          bounded(&o->settings.gp.p_crossover, 0, 1),
                                                          "GP: probability of crossover (else mutation)")(
      "holdout", bounded(&o->settings.gp.holdout, 0, 0.5),
      "GP: on a problem of at most 20 train cases, the fraction of them held back from selection (a "
      "solution must still pass them)")("max-size", bounded(&o->settings.enumerate.max_size, 1, 64),
                                        "enumerate: largest expression (nodes)")(
      "choose", defaulted(&o->settings.enumerate.choose),
      "enumerate: the lazy choose(c, a, b) as a production (1), or not (0)")(
      "lambdas", defaulted(&o->settings.enumerate.lambdas),
      "enumerate: map, filter, count and find with enumerated bodies over the sequence parameters (1), or "
      "not "
      "(0)")(
      "lambda-budget", bounded(&o->settings.enumerate.lambda_budget, 0, 10'000'000),
      "enumerate: the lambdas' body expressions, evaluated first and counted as candidates, at most half of "
      "--budget (0: none)")(
      "body-goal-budget", defaulted(&o->body_goal_budget),
      "enumerate: more body expressions while the body of a map or filter that gives a result's outputs is "
      "not found: a number (0: no such goals), or auto: a third of --budget, at least 100000, and as long as "
      "the search runs without one (--budget 0 with --seconds or --iterations)")(
      "bank-interpreter", defaulted(&o->settings.enumerate.bank_interpreter),
      "enumerate: run every production through the interpreter, as the reference evaluator (for measuring "
      "the direct paths against it)")(
      "splits", defaulted(&o->settings.enumerate.splits),
      "enumerate: meet a goal case by case, by a decision list of expressions under conditions (1), or not "
      "(0)")("last-steps", bounded(&o->settings.enumerate.last_steps, 0, 3),
             "enumerate: a list result's goals up to this many steps before it (its outputs reversed, "
             "sorted, differenced, divided, less a parameter: reverse(e), map_mul(e, 2)); 0: none")(
      "forward-steps", defaulted(&o->settings.enumerate.forward_steps),
      "enumerate: also take each banked [int] one step on against the goals (filter_gt(e, 0), sum(e), "
      "scan_max(e, ...), map_square(e)) (1), or not (0)")("list-forms", defaulted(&o->list_forms),
                                                          list_forms_help.c_str())(
      "list-language", at_least(&o->settings.enumerate.list_language, 0),
      "enumerate: with --list-forms auto, the expressions of DeepCoder's list language alone (its forms, "
      "last, access, max, min, sum, sort, reverse, take, drop, map by negation and square, zipwith by +, -, "
      "*, "
      "max and min; a function a level; the parameters the only leaves; no lambdas) between the grammar "
      "without the forms and the grammar with them (0: none)")(
      "sample-cases", bounded(&o->settings.enumerate.sample_cases, 0, 1u << 20),
      "enumerate: the value bank holds this many of the train cases (the first half of them, the rest spread "
      "over the others), and the cases a proposal fails join them (the pipeline judges every proposal on all "
      "of them); 0: every train case")(
      "bank-memory", bounded(&o->bank_memory_mib, 16, 1u << 20),
      "enumerate: MiB the value bank may fill (its expressions' outputs and traps); the enumeration ends "
      "there")(
      "policy", po::value(&o->policy_path),
      "enumerate, gp, portfolio: order the enumeration by the costs of a trained search policy, a file "
      "gpusynth train-policy wrote (needs libtorch), and draw GP's new code by its probabilities")(
      "policy-temperature", bounded(&o->settings.enumerate.policy_temperature, 0.1, 100),
      "--policy: a production of probability p costs 1 + round(-log2(p) / this); higher is flatter")(
      "policy-draws", bounded(&o->settings.gp.policy_draws, 0, 64),
      "gp, portfolio with --policy: fresh subtrees a guided mutation draws, keeping one by the policy's "
      "weights (0: GP does not follow the policy)")(
      "enumerate-first", defaulted(&o->enumerate_first),
      "portfolio: expressions the enumeration may evaluate before GP takes over (its lambda bodies "
      "besides): a number (0: GP only), or auto: two thirds of --budget, and with --budget 0 until the "
      "enumeration ends (its bank full or its largest size done)")(
      "candidates,c", po::value(&o->candidates_path),
      "--generator external: a file of candidate programs (JSON Lines or '---'-separated text)")(
      "batch,b", bounded(&o->search.batch, 1, 1u << 20), "candidates per iteration (the GP population)")(
      "budget", at_least(&o->search.budget.candidates, 0), "most candidates to evaluate (0: no bound)")(
      "iterations", at_least(&o->search.budget.iterations, 0), "most iterations (0: no bound)")(
      "seconds", bounded(&o->search.budget.seconds, 0, 1e9), "most wall-clock seconds (0: no bound)")(
      "seed,s", at_least(&o->settings.seed, 0), "random seed: the same seed gives the same search")(
      "no-simplify", po::bool_switch()->notifier([o](bool off) { o->search.simplify = !off; }),
      "keep the first solution as found")("device,d", defaulted(&o->device),
                                          "cpu, cuda or auto (CUDA when a GPU is present)")(
      "threads", bounded(&o->pipeline.threads, 0, max_threads()),
      "CPU worker threads (0: every CPU this process may use: its affinity, e.g. taskset or Slurm)")(
      "config", po::value(&o->config_path),
      "ini file of these options (key = value); the command line overrides it")(
      "quiet,q", po::bool_switch(&o->quiet), "no progress lines");
  d.add(compile_mode_options(&o->pipeline.neural));
  d.add(run_limit_options(&o->pipeline.limits)).add(compile_limit_options(&o->pipeline.compile));
  return d;
}

namespace {

constexpr u64 kMostBodyGoals = 1'000'000'000;
constexpr u64 kMostEnumerateFirst = 1'000'000'000'000'000'000;

// The value of an option that takes auto or a number of [0, most]: the number as it is, or
// auto_value for auto; nullopt with *error for anything else.
std::optional<u64> auto_or_number(const std::string& option, const std::string& text, u64 auto_value,
                                  u64 most, std::string* error) {
  if (text == "auto") return auto_value;
  u64 v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v > most) {
    *error = option + " takes auto or a number in [0, " + std::to_string(most) + "], not '" + text + "'";
    return std::nullopt;
  }
  return v;
}

// EnumerateSettings::list_forms_after for --list-forms: 1 (from the start), 0 (never) or auto;
// nullopt with *error for anything else.
std::optional<u64> list_forms_after(const std::string& text, std::string* error) {
  if (text == "1") return 0;
  if (text == "0") return search::kNoListForms;
  if (text == "auto") return search::kListFormsAfter;
  *error = "--list-forms takes 0, 1 or auto, not '" + text + "'";
  return std::nullopt;
}

// The generator settings the candidate budget fits (search::fit_to_budget), with the numbers
// --body-goal-budget and --enumerate-first give in place of auto, and --list-forms' choice; nullopt
// with *error where one is none of these.
std::optional<search::GeneratorSettings> budget_settings(const SearchOptions& o, std::string* error) {
  search::GeneratorSettings s = o.settings;
  search::fit_to_budget(&s, o.search.budget.candidates);
  const std::optional<u64> goals = auto_or_number("--body-goal-budget", o.body_goal_budget,
                                                  s.enumerate.body_goal_budget, kMostBodyGoals, error);
  if (!goals) return std::nullopt;
  const std::optional<u64> first = auto_or_number(
      "--enumerate-first", o.enumerate_first, s.portfolio.enumerate_candidates, kMostEnumerateFirst, error);
  if (!first) return std::nullopt;
  const std::optional<u64> forms = list_forms_after(o.list_forms, error);
  if (!forms) return std::nullopt;
  s.enumerate.list_forms_after = *forms;
  s.enumerate.body_goal_budget = *goals;
  s.portfolio.enumerate_candidates = *first;
  return s;
}

}  // namespace

bool check_search_options(const SearchOptions& o, std::string* error) {
  if (!pipeline::parse_device(o.device)) {
    *error = "--device must be cpu, cuda or auto, not '" + o.device + "'";
    return false;
  }
  auto kind = search::parse_generator(o.generator);
  if (!kind) {
    *error = "--generator must be random, gp, enumerate, portfolio or external, not '" + o.generator + "'" +
             (o.generator == "bank" ? " (the value bank is now enumerate's engine)" : "");
    return false;
  }
  if (!search::parse_selection(o.selection)) {
    *error = "--selection must be lexicase, downsampled or tournament, not '" + o.selection + "'";
    return false;
  }
  if (!search::parse_case_scores(o.case_scores)) {
    *error = "--case-scores must be error or pass, not '" + o.case_scores + "'";
    return false;
  }
  if ((*kind == search::GeneratorKind::External) != !o.candidates_path.empty()) {
    *error = "--candidates FILE goes with --generator external, and only with it";
    return false;
  }
  if (!o.candidates_path.empty() && !std::ifstream(o.candidates_path)) {
    *error = o.candidates_path + ": cannot read file";
    return false;
  }
  if (!o.policy_path.empty() && *kind != search::GeneratorKind::Enumerate &&
      *kind != search::GeneratorKind::Gp && *kind != search::GeneratorKind::Portfolio) {
    *error = "--policy guides the enumeration and GP: it goes with --generator enumerate, gp or portfolio";
    return false;
  }
  if (!budget_settings(o, error)) return false;
  if (!check_compile_mode_options(o.pipeline.neural, error)) return false;
  const search::SearchBudget& b = o.search.budget;
  if (b.candidates == 0 && b.iterations == 0 && b.seconds <= 0) {
    *error = "give a budget: --budget, --iterations or --seconds";
    return false;
  }
  return true;
}

pipeline::PipelineConfig pipeline_config(const SearchOptions& o) {
  pipeline::PipelineConfig c = o.pipeline;
  const auto kind = search::parse_generator(o.generator);
  c.grade = (kind == search::GeneratorKind::Gp || kind == search::GeneratorKind::Portfolio) &&
            search::parse_case_scores(o.case_scores) == search::CaseScores::Error;
  return c;
}

std::optional<search::GeneratorChoice> generator_choice(const SearchOptions& o, std::string* error) {
  search::GeneratorChoice c;
  c.kind = *search::parse_generator(o.generator);
  std::optional<search::GeneratorSettings> settings = budget_settings(o, error);
  if (!settings) return std::nullopt;
  c.settings = std::move(*settings);
  c.settings.gp.selection = *search::parse_selection(o.selection);
  c.settings.gp.scores = *search::parse_case_scores(o.case_scores);
  c.settings.enumerate.threads = o.pipeline.threads;
  c.settings.enumerate.memory = u64(o.bank_memory_mib) << 20;
  if (!o.policy_path.empty()) {
    try {
      c.settings.enumerate.policy = search::load_policy(o.policy_path);
    } catch (const std::exception& e) {
      *error = e.what();
      return std::nullopt;
    }
  }
  if (c.kind == search::GeneratorKind::External) {
    auto text = read_file(o.candidates_path, kMaxCandidateBytes);
    if (!text) {
      *error = o.candidates_path + ": cannot read file";
      return std::nullopt;
    }
    suites::CandidateFile file = suites::parse_candidates(*text, o.candidates_path);
    for (const std::string& e : file.errors) std::cerr << e << "\n";
    for (suites::Candidate& candidate : file.candidates) c.sources.push_back(std::move(candidate.source));
  }
  return c;
}

void print_outcome(std::ostream& out, const suites::Problem& p, const search::SearchOutcome& r) {
  out << p.name << ": " << (r.solved ? "solved" : "not solved") << " after " << r.candidates
      << " candidates in " << r.iterations << " iterations, " << r.seconds << " s ("
      << (r.seconds > 0 ? double(r.candidates) / r.seconds : 0) << " candidates/s)\n";
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
  if (r.neural.samples > 0)
    out << "neural compiler: " << r.neural.routed << " candidates sent to the model, " << r.neural.accepted
        << " ran its bytecode; " << r.neural.samples << " samples, " << r.neural.valid << " valid\n";
  if (!r.solved) {
    out << "best: " << r.best_passed << "/" << p.train.size() << " train cases, reward " << r.best_reward
        << "\n"
        << r.best_source << "\n";
    return;
  }
  out << "first solution: candidate " << r.solution_id << " (iteration " << r.solution_iteration << ")\n";
  if (r.test_cases > 0)
    out << "test cases: " << r.test_passed << "/" << r.test_cases << " passed"
        << (r.generalises ? " (generalises)" : " (does not generalise)") << "\n";
  if (r.alike && r.alike->programs > 1)
    out << "alike: " << (r.alike->complete ? "" : "at least ") << r.alike->programs << " programs of size "
        << r.alike->size
        << " pass every train case with the same outputs (this one was found first): more train cases would "
           "tell them apart\n";
  out << "simplified:\n" << r.simplified << "\n";
}

}  // namespace gs::jobs

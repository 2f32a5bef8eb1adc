// The data-parallel batch lexer (docs/pipeline.md "Data-parallel lexing"): every program of a
// batch lexed at once, one byte per thread, with the result lex() gives for each program.
//
//   1. flags     per byte: first / last byte of its program (lex_mark_program)
//   2. states    per byte: the lexer context after it and the event at it (a token starts, or
//                an invalid byte is skipped) — an inclusive scan, in map_compose, of the
//                per-byte transition maps (byte_map); a program's first byte has a constant
//                map, so the scan restarts at every program with no segment bookkeeping
//   3. counts    per byte: (tokens, diagnostics) that begin there (lex_count_byte), then an
//                inclusive prefix sum: a token's index and its first diagnostic's index
//   4. write     per event byte: scan_token (compiler/lexer.h, the sequential scanner) scans
//                the token and its diagnostics into place, and the scan's next stop is checked
//                to be the DFA's next event (lex_write_byte)
//   5. finish    per program: the END token, the counts, the check of the first event; a
//                program whose check failed anywhere is lexed again by lex() (lex_finish_program)
//
// The DFA is built to agree with scan_token byte for byte, so the fallback of step 5 is a safety
// net that cases count (and expect never to see). The CPU backend (cpu_batch_lexer.h) and the
// CUDA backend (cuda_batch_lexer.h) run these same functions; only the loops and scans differ.
#pragma once

#include "compiler/lexer.h"
#include "pipeline/compile_stage.h"

namespace gs::pipeline {

// Lexical diagnostics kept per program (the first ones, in lex() order; the count says how many
// there were). compile_stage_lexed lexes again a program that had more.
inline constexpr u32 kLexDiagnostics = 8;

// ---- the DFA over lexer contexts ----------------------------------------------------------------

// Where the lexer stands after a byte: what decides whether the next byte begins a token.
enum LexState : u8 {
  kGap,       // between tokens: the next byte is looked at afresh, as scan_token does
  kSkip1,     // inside an operator whose last byte is next
  kSkip2,     // inside ">>>" with two bytes to go
  kWord,      // identifier, or the letter/digit tail of a number (all of it one token)
  kInt,       // a number's leading digits
  kFrac,      // a number's digits after its point
  kExponent,  // right after a number's e or E (a sign may follow)
  kString,
  kEscape,  // after a backslash in a string
  kComment,
  kLexStates
};

// What a byte begins.
enum LexEvent : u8 {
  kNoEvent,
  kTokenEvent,    // a token starts here
  kInvalidEvent,  // a byte no token can start with: INVALID_CHARACTER, skipped
};

// Per-byte flags.
inline constexpr u8 kFirstByte = 1;  // first byte of its program
inline constexpr u8 kLastByte = 2;   // last byte of its program

// One byte with what the transition may look at: up to two bytes after it in its program.
struct ByteWindow {
  u8 c, next, next2;  // next / next2: 0 where the program has ended
  u8 ahead;           // bytes of the program after c, at most 2
  bool first;         // c is its program's first byte: the lexer starts afresh
};

struct LexStep {
  u8 state;  // LexState after the byte
  u8 event;  // LexEvent at the byte
};

// The byte looked at afresh (the lexer between tokens): what it begins.
GS_HD inline LexStep step_fresh(const ByteWindow& w) {
  switch (compiler::char_class(w.c)) {
    case compiler::kSpace: return {kGap, kNoEvent};
    case compiler::kLetter: return {kWord, kTokenEvent};
    case compiler::kDigit: return {kInt, kTokenEvent};
    case compiler::kQuote: return {kString, kTokenEvent};
    case compiler::kPunct: {
      if (w.c == '/' && w.ahead >= 1 && w.next == '/') return {kComment, kNoEvent};
      const char window[3] = {char(w.c), char(w.next), char(w.next2)};
      u32 len;
      compiler::punctuation(window, 1u + w.ahead, 0, &len);  // the lexer's own longest match
      return {u8(len == 1 ? kGap : len == 2 ? kSkip1 : kSkip2), kTokenEvent};
    }
    default: return {kGap, kInvalidEvent};
  }
}

// True when the byte continues what state q is inside (no token boundary before it), with the
// state after it in *next. A newline ends strings and comments: it is then space, seen afresh.
GS_HD inline bool continues(u32 q, const ByteWindow& w, u8* next) {
  const u8 c = w.c;
  const compiler::CharClass k = compiler::char_class(c);
  const bool word = k == compiler::kLetter || k == compiler::kDigit;
  switch (q) {
    case kSkip1: *next = kGap; return true;
    case kSkip2: *next = kSkip1; return true;
    case kString: *next = c == '"' ? kGap : c == '\\' ? kEscape : kString; return c != '\n';
    case kEscape: *next = kString; return c != '\n';
    case kComment: *next = kComment; return c != '\n';
    case kWord: *next = kWord; return word;
    case kInt:
      if (k == compiler::kDigit) return *next = kInt, true;
      if (c == '.' && w.ahead >= 1 && compiler::char_class(w.next) == compiler::kDigit)
        return *next = kFrac, true;
      [[fallthrough]];
    case kFrac:
      if (k == compiler::kDigit) return *next = kFrac, true;
      if (c == 'e' || c == 'E') return *next = kExponent, true;
      *next = kWord;
      return word;
    case kExponent: *next = kWord; return word || c == '+' || c == '-';
    default: return false;  // kGap
  }
}

// The transition of one byte from state q.
GS_HD inline LexStep step(u32 q, const ByteWindow& w) {
  u8 next;
  if (!w.first && continues(q, w, &next)) return {next, kNoEvent};
  return step_fresh(w);
}

// A step packed in a byte, as the states array holds it: the state after a byte in the low 4
// bits, the event at the byte above them.
GS_HD inline u8 pack_step(LexStep t) { return u8(t.state | (t.event << 4)); }
GS_HD inline u32 packed_state(u8 packed) { return packed & 15u; }
GS_HD inline u32 packed_event(u8 packed) { return packed >> 4; }

// A byte's transition as a map from the state before it to its packed step, 6 bits per state
// (the scan's element type). Composing maps keeps the last byte's event, so the scan gives every
// byte its event along with its state.
using StateMap = u64;
static_assert(kLexStates * 6 <= 64, "a StateMap holds 10 packed steps");

GS_HD inline u8 map_apply(StateMap f, u32 q) { return u8(f >> (6 * q)) & 63u; }

GS_HD constexpr StateMap constant_map(u8 packed) {
  StateMap r = 0;
  for (u32 q = 0; q < kLexStates; ++q) r |= StateMap(packed) << (6 * q);
  return r;
}
GS_HD constexpr StateMap identity_map() {
  StateMap r = 0;
  for (u32 q = 0; q < kLexStates; ++q) r |= StateMap(q) << (6 * q);  // (no event)
  return r;
}

// First f, then g. Associative: the scan may group the bytes any way.
GS_HD inline StateMap map_compose(StateMap f, StateMap g) {
  StateMap r = 0;
  for (u32 q = 0; q < kLexStates; ++q) r |= StateMap(map_apply(g, packed_state(map_apply(f, q)))) << (6 * q);
  return r;
}

struct ComposeStateMaps {
  GS_HD StateMap operator()(StateMap f, StateMap g) const { return map_compose(f, g); }
};

GS_HD inline StateMap byte_map(const ByteWindow& w) {
  const u8 fresh = pack_step(step_fresh(w));
  if (w.first) return constant_map(fresh);
  StateMap r = 0;
  for (u32 q = 0; q < kLexStates; ++q) {
    u8 next;
    r |= StateMap(continues(q, w, &next) ? next : fresh) << (6 * q);  // (continuing: no event)
  }
  return r;
}

// ---- the batch's per-byte arrays -----------------------------------------------------------------

// Scratch for a batch of text_bytes = offsets[count] bytes, indexed by text position. (Bytes before
// offsets[0] belong to no program and are ignored.)
struct LexScratch {
  u8* flags = nullptr;    // kFirstByte | kLastByte
  u8* states = nullptr;   // the byte's packed step: LexState after it, LexEvent at it
  u64* counts = nullptr;  // (tokens, diagnostics) beginning at or before the byte: pack_counts
};

// Counts packed in one word so that one prefix sum carries both: tokens in the low 32 bits,
// diagnostics in the high 32 (a batch holds less than 4 GiB of text).
GS_HD inline u64 pack_counts(u32 tokens, u32 diagnostics) { return (u64(diagnostics) << 32) | tokens; }
GS_HD inline u32 count_tokens(u64 c) { return u32(c); }
GS_HD inline u32 count_diagnostics(u64 c) { return u32(c >> 32); }

// The lexer's output, the same layout on host and device. Program i's tokens lie in its slot,
// tokens[token_slot(s, i) ..], which holds len_i + 1 tokens, as many as lex() can make for it: the
// batch lexer and the fallback lex() both write in place, so one pass is enough.
struct LexedBatch {
  compiler::Token* tokens = nullptr;            // offsets[count] + count
  u32* token_count = nullptr;                   // count: tokens of program i, END included
  compiler::Diagnostic* diagnostics = nullptr;  // count × kLexDiagnostics
  u32* diagnostic_count = nullptr;              // count: all of program i's lexical diagnostics, kept or not
  u8* fallback = nullptr;  // count: 1 when program i was lexed by lex() after a check failed
};

GS_HD inline u64 token_slot(const SourceBatch& s, u32 i) { return s.offsets[i] + i; }
GS_HD inline u64 token_capacity(const SourceBatch& s) { return s.offsets[s.count] + s.count; }

// Program i's result as compile_stage_lexed takes it.
GS_HD inline LexedProgram lexed_program(const SourceBatch& s, const LexedBatch& out, u32 i) {
  LexedProgram p;
  p.tokens = out.tokens + token_slot(s, i);
  p.token_count = out.token_count[i];
  p.diagnostics = out.diagnostics + u64(i) * kLexDiagnostics;
  p.diagnostic_count = out.diagnostic_count[i];
  p.diagnostics_kept = p.diagnostic_count < kLexDiagnostics ? p.diagnostic_count : kLexDiagnostics;
  return p;
}

// Diagnostic sinks for scan_token / lex (compiler/lexer.h) in place of Diagnostics.
struct CountDiagnostics {
  u32 count = 0;
  GS_HD void add(compiler::Code, u32, u32, u32 = 0, u32 = 0) { ++count; }
};
// Keeps the program's diagnostics first, first + 1, ... below end (and below kLexDiagnostics):
// a token's own range, so that a token the DFA got wrong cannot write into its neighbour's.
struct KeepDiagnostics {
  compiler::Diagnostic* items = nullptr;  // the program's kLexDiagnostics slots
  u32 first = 0;
  u32 end = kLexDiagnostics;
  u32 count = 0;
  GS_HD void add(compiler::Code code, u32 pos, u32 len, u32 a = 0, u32 b = 0) {
    u32 k = first + count++;
    if (k < end && k < kLexDiagnostics) items[k] = {code, pos, len, a, b};
  }
};

// The program holding text position i (offsets[0] <= i < offsets[count]). hint: a guess, no
// later than the answer (a CPU worker walking its bytes in order passes the last answer; the
// binary search takes over after a few programs).
GS_HD inline u32 program_of(const SourceBatch& s, u64 i, u32 hint = 0) {
  for (u32 k = 0; k < 4 && hint < s.count && s.offsets[hint] <= i; ++k, ++hint)
    if (i < s.offsets[hint + 1]) return hint;
  u32 lo = 0, hi = s.count;  // offsets[lo] <= i < offsets[hi]
  while (hi - lo > 1) {
    u32 mid = lo + (hi - lo) / 2;
    if (s.offsets[mid] <= i)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Step 1 (per program; flags zeroed first).
GS_HD inline void lex_mark_program(const SourceBatch& s, u8* flags, u32 i) {
  u64 begin = s.offsets[i], end = s.offsets[i + 1];
  if (begin == end) return;
  flags[begin] |= kFirstByte;
  flags[end - 1] |= kLastByte;
}

GS_HD inline ByteWindow byte_window(const SourceBatch& s, const u8* flags, u64 i) {
  ByteWindow w{};
  u8 f = flags[i];
  w.c = u8(s.text[i]);
  w.first = (f & kFirstByte) != 0;
  if (f & kLastByte) return w;
  w.next = u8(s.text[i + 1]);
  w.ahead = 1;
  if (flags[i + 1] & kLastByte) return w;
  w.next2 = u8(s.text[i + 2]);
  w.ahead = 2;
  return w;
}

// Step 2's element for byte i (text positions before offsets[0] belong to no program: kGap,
// no event).
GS_HD inline StateMap lex_byte_map(const SourceBatch& s, const u8* flags, u64 i) {
  if (i < s.offsets[0]) return constant_map(kGap);
  return byte_map(byte_window(s, flags, i));
}

// What byte i begins, once the states are in.
GS_HD inline u32 lex_event_at(const LexScratch& x, u64 i) { return packed_event(x.states[i]); }

// Whether a token starting with c can report diagnostics: identifiers and operators other than a
// lone '.' never do (lex_write_byte checks the count).
GS_HD inline bool token_may_report(u8 c) {
  compiler::CharClass k = compiler::char_class(c);
  return k == compiler::kDigit || k == compiler::kQuote || c == '.';
}

// Step 3 (per byte): the counts beginning at byte i, before the prefix sum. *program: in, a
// hint for program_of; out, the program of byte i when it had to be found.
GS_HD inline u64 lex_count_byte(const SourceBatch& s, const LexScratch& x, u64 i, u32* program) {
  if (i < s.offsets[0]) return 0;
  const u32 event = lex_event_at(x, i);
  if (event == kNoEvent) return 0;
  if (event == kInvalidEvent) return pack_counts(0, 1);
  if (!token_may_report(u8(s.text[i]))) return pack_counts(1, 0);
  const u32 p = *program = program_of(s, i, *program);
  const char* src = s.text + s.offsets[p];
  CountDiagnostics d;
  compiler::Token t;
  compiler::scan_token(src, u32(s.offsets[p + 1] - s.offsets[p]), u32(i - s.offsets[p]), &t,
                       d);  // (just the token at i)
  return pack_counts(1, d.count);
}

// Inclusive counts before text position i (0 before the first byte).
GS_HD inline u64 counts_before(const LexScratch& x, u64 i) { return i == 0 ? 0 : x.counts[i - 1]; }

// True when the event lex() meets next after stopping at pos (program-relative, in program p)
// is the DFA's next event: no DFA event in (from, next stop), and one at the stop (or the end).
GS_HD inline bool next_event_agrees(const SourceBatch& s, const LexScratch& x, u32 p, u32 from, u32 pos) {
  const u64 base = s.offsets[p];
  const u32 n = u32(s.offsets[p + 1] - base);
  const u32 stop = compiler::skip_gap(s.text + base, n, pos);
  for (u32 j = from; j < stop; ++j)
    if (lex_event_at(x, base + j) != kNoEvent) return false;
  return stop == n || lex_event_at(x, base + stop) != kNoEvent;
}

// Step 4 (per byte, counts summed): writes the token or diagnostic beginning at byte i into its
// program's slots. *program: in, a hint for program_of; out, the byte's program (when the byte
// begins something). The result is false when the sequential scanner disagrees with the DFA
// there: the program must then be lexed by lex().
GS_HD inline bool lex_write_byte(const SourceBatch& s, const LexScratch& x, u64 i, const LexedBatch& out,
                                 u32* program) {
  if (i < s.offsets[0] || lex_event_at(x, i) == kNoEvent) return true;
  const u32 p = *program = program_of(s, i, *program);
  const u64 base = s.offsets[p];
  const u64 program_start = counts_before(x, base), before = counts_before(x, i);
  KeepDiagnostics d;
  d.items = out.diagnostics + u64(p) * kLexDiagnostics;
  d.first = count_diagnostics(before) - count_diagnostics(program_start);
  d.end = d.first + count_diagnostics(x.counts[i] - before);
  compiler::Token t;
  const char* src = s.text + base;
  const u32 pos = u32(i - base);
  if (lex_event_at(x, i) == kInvalidEvent) {
    // scan_token reports the byte and skips it; cut off after it, it then stops (END).
    compiler::scan_token(src, pos + 1, pos, &t, d);
    if (t.kind != compiler::Tok::END || x.counts[i] - before != pack_counts(0, d.count)) return false;
    return next_event_agrees(s, x, p, pos + 1, pos + 1);
  }
  const u32 end = compiler::scan_token(src, u32(s.offsets[p + 1] - base), pos, &t, d);
  out.tokens[token_slot(s, p) + count_tokens(before) - count_tokens(program_start)] = t;
  if (t.pos != pos || t.kind == compiler::Tok::END || x.counts[i] - before != pack_counts(1, d.count))
    return false;
  return next_event_agrees(s, x, p, pos + 1, end);
}

// Step 5 (per program, after step 4): the END token, the counts and the first event's check;
// lexes the program with lex() when disagreed (set by step 4) or the check fails. Returns false
// when it did.
GS_HD inline bool lex_finish_program(const SourceBatch& s, const LexScratch& x, u32 p, bool disagreed,
                                     const LexedBatch& out) {
  const u64 base = s.offsets[p];
  const u32 n = u32(s.offsets[p + 1] - base);
  compiler::Token* slot = out.tokens + token_slot(s, p);
  if (n == 0) {
    slot[0] = {0, 0, compiler::Tok::END};
    out.token_count[p] = 1;
    out.diagnostic_count[p] = 0;
    return true;
  }
  const u64 counted = x.counts[base + n - 1] - counts_before(x, base);  // (no borrow: both halves grow)
  if (!disagreed && next_event_agrees(s, x, p, 0, 0)) {
    slot[count_tokens(counted)] = {n, 0, compiler::Tok::END};
    out.token_count[p] = count_tokens(counted) + 1;
    out.diagnostic_count[p] = count_diagnostics(counted);
    return true;
  }
  KeepDiagnostics d;
  d.items = out.diagnostics + u64(p) * kLexDiagnostics;
  out.token_count[p] = compiler::lex(s.text + base, n, slot, n + 1, d);  // (n + 1 tokens always fit)
  out.diagnostic_count[p] = d.count;
  return false;
}

}  // namespace gs::pipeline

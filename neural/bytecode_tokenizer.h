// Bytecode container <-> token ids for the neural compiler's decoder (docs/neural.md
// "Bytecode tokens"). The sequence holds exactly what a container holds beyond what can be
// computed from it (offsets, sizes, padding, max_stack, the checksum):
//
//   BOS
//   constants, in pool order:   CONST_INT [NEG] number        (an int's value)
//                               CONST_FLOAT bytes LIT_END     (a float's shortest text)
//   string literals, in order:  LIT_STR bytes LIT_END
//   functions, in order:        FUNC F<i> param-types RESULTS result-types LOCALS number
//                               [MAX_STACK number]
//                               then its instructions: OPCODE [operand]
//   EOS
//
// An operand follows only opcodes whose operand kind is not NONE: LOAD_INT's as [NEG] number,
// every other as a number (vocabulary.h append_number). A constant is written as a float when
// its bits read back exactly from a shorter text than the int's, else as an int: either way
// lossless. MAX_STACK appears only where the record's max_stack is not the deepest stack the
// verifier's analysis finds (the compiler counts unreachable code too, e.g. after a return):
// otherwise decoding computes it. F<i> names the function by index into a name table that the caller supplies
// (the source's function names, source_tokenizer.h), so the model never spells a name.
//
// decode(encode(c)) == c byte for byte for every container in the compiler's canonical layout
// (names packed in function order, zero padding); encode
// refuses any other container. decode fails cleanly, with a reason, on any token sequence that
// does not describe a container: its result always passes the verifier.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "neural/vocabulary.h"

namespace gs::neural {

struct BytecodeTokens {
  TokenSeq ids;       // BOS ... EOS
  std::string error;  // why encoding failed; empty on success
  bool ok() const { return error.empty(); }
};

struct DecodedBytecode {
  std::vector<u8> bytecode;  // a verified container; empty on failure
  std::string error;         // "token 17 (LOAD_VAR): operand expected", "verifier: ..."
  bool ok() const { return error.empty(); }
};

// The tokens of a container; every function's name must be in function_names.
BytecodeTokens encode_bytecode(std::span<const u8> bytecode, std::span<const std::string> function_names);
// The container a token sequence describes (BOS optional, EOS or the end of ids closes it),
// verified by vm::verify_program.
DecodedBytecode decode_bytecode(const TokenSeq& ids, std::span<const std::string> function_names);

// A container's own function names, in order (empty when it is not a container).
std::vector<std::string> function_names_of(std::span<const u8> bytecode);

}  // namespace gs::neural

#include "neural/model_config.h"

#include <sstream>

namespace gs::neural {

std::string ModelConfig::to_text() const {
  std::ostringstream out;
  out.precision(17);
  out << "vocab=" << vocab << " d_model=" << d_model << " heads=" << heads
      << " encoder_layers=" << encoder_layers << " decoder_layers=" << decoder_layers << " ff=" << ff
      << " max_source=" << max_source << " max_bytecode=" << max_bytecode << " dropout=" << dropout;
  return out.str();
}

bool ModelConfig::from_text(const std::string& text, std::string* error) {
  std::istringstream in(text);
  std::string item;
  ModelConfig c;
  u32 seen = 0;
  while (in >> item) {
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    std::istringstream v(value);
    bool ok = true;
    if (key == "vocab")
      ok = bool(v >> c.vocab);
    else if (key == "d_model")
      ok = bool(v >> c.d_model);
    else if (key == "heads")
      ok = bool(v >> c.heads);
    else if (key == "encoder_layers")
      ok = bool(v >> c.encoder_layers);
    else if (key == "decoder_layers")
      ok = bool(v >> c.decoder_layers);
    else if (key == "ff")
      ok = bool(v >> c.ff);
    else if (key == "max_source")
      ok = bool(v >> c.max_source);
    else if (key == "max_bytecode")
      ok = bool(v >> c.max_bytecode);
    else if (key == "dropout")
      ok = bool(v >> c.dropout);
    else
      ok = false;
    if (!ok) {
      *error = "bad model setting '" + item + "'";
      return false;
    }
    ++seen;
  }
  if (seen != 9) {
    *error = "model settings incomplete (" + std::to_string(seen) + " of 9)";
    return false;
  }
  *this = c;
  return true;
}

std::string ModelConfig::problem() const {
  if (vocab < 0) return "vocab must not be negative";
  if (d_model < 2 || heads < 1 || d_model % heads != 0 || d_model % 2 != 0)
    return "d_model must be an even, positive multiple of heads";
  if (encoder_layers < 1 || decoder_layers < 1)
    return "there must be at least one encoder and one decoder layer";
  if (ff < 1) return "ff must be positive";
  if (max_source < 2 || max_bytecode < 4) return "max lengths too small (source >= 2, bytecode >= 4)";
  if (max_source > 65536 || max_bytecode > 65536) return "max lengths above 65536";
  if (!(dropout >= 0 && dropout < 1)) return "dropout must be in [0, 1)";
  return "";
}

}  // namespace gs::neural

#include "cluster/rank_output.h"

#include <iostream>
#include <sstream>

namespace gs::cluster {

Mute::Mute(bool on) : on_(on) {
  if (!on_) return;
  out_ = std::cout.rdbuf(&null_);
  err_ = std::cerr.rdbuf(&null_);
}

Mute::~Mute() {
  if (!on_) return;
  std::cout.rdbuf(out_);
  std::cerr.rdbuf(err_);
}

void say(const std::string& text) { std::cerr << text << std::flush; }

void say_as_rank(const std::string& text, const std::string& command, const WorkQueue& queue) {
  const std::string prefix = command + ": ";
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (queue.ranks() > 1) {
      if (line.starts_with(prefix)) line.erase(0, prefix.size());
      line = command + " (" + queue.where() + "): " + line;
    }
    out += line + "\n";
  }
  say(out);
}

}  // namespace gs::cluster

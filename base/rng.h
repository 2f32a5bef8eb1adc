// A counter-based random generator (Philox4x32-10, Salmon et al., SC'11) for host and device.
//
// A draw is a pure function of (seed, stream, position): the seed is the Philox key, the stream
// and a block counter form the 128-bit Philox counter. So the numbers a candidate sees depend
// only on who it is (docs/design.md "Determinism": seed, problem, iteration, candidate packed into
// the stream), never on which thread, rank or GPU draws them. There is no global generator:
// every function that needs randomness takes an Rng&.
#pragma once

#include "base/hd.h"

namespace gs {

struct Philox4x32 {
  u32 v[4];
};

// One Philox4x32-10 block: ten rounds of two 32x32->64 multiplies, key bumped between rounds.
GS_HD inline Philox4x32 philox4x32_10(Philox4x32 ctr, u32 key0, u32 key1) {
  constexpr u32 kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;  // multipliers
  constexpr u32 kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;  // Weyl key increments
  for (int round = 0; round < 10; ++round) {
    u64 p0 = u64(kM0) * ctr.v[0];
    u64 p1 = u64(kM1) * ctr.v[2];
    ctr = Philox4x32{{u32(p1 >> 32) ^ ctr.v[1] ^ key0, u32(p1), u32(p0 >> 32) ^ ctr.v[3] ^ key1, u32(p0)}};
    key0 += kW0;
    key1 += kW1;
  }
  return ctr;
}

class Rng {
 public:
  // Stream `stream` of generator `seed`, starting at block `block` (4 u32 draws per block).
  GS_HD explicit Rng(u64 seed, u64 stream = 0, u64 block = 0) : seed_(seed), stream_(stream), block_(block) {}

  // An independent generator for a sub-task (a candidate of an iteration, an input of a
  // program): its stream is a hash of this stream and `child`, its position the start.
  GS_HD Rng derive(u64 child) const {
    Philox4x32 h = philox4x32_10({{u32(child), u32(child >> 32), u32(stream_), u32(stream_ >> 32)}},
                                 u32(seed_) ^ 0x5bd1e995u, u32(seed_ >> 32) ^ 0x1b873593u);
    return Rng(seed_, u64(h.v[0]) | (u64(h.v[1]) << 32));
  }

  GS_HD u32 next_u32() {
    if (used_ == 4) refill();
    return buffer_.v[used_++];
  }
  GS_HD u64 next_u64() {
    u64 lo = next_u32();
    return lo | (u64(next_u32()) << 32);
  }
  // Uniform in [lo, hi], both included; unbiased (rejection of the short last interval).
  GS_HD i64 uniform_int(i64 lo, i64 hi) {
    u64 range = u64(hi) - u64(lo) + 1;  // 0 means all 2^64 values
    if (range == 0) return i64(next_u64());
    u64 threshold = (0 - range) % range;  // 2^64 mod range
    u64 x = next_u64();
    while (x < threshold) x = next_u64();
    return i64(u64(lo) + x % range);
  }
  // Uniform in [0, n), n > 0.
  GS_HD u32 below(u32 n) { return u32(uniform_int(0, i64(n) - 1)); }
  // Uniform in [0, 1) with 53 random bits.
  GS_HD double uniform01() { return double(next_u64() >> 11) * (1.0 / 9007199254740992.0); }
  GS_HD bool bernoulli(double p) { return uniform01() < p; }

  GS_HD u64 seed() const { return seed_; }
  GS_HD u64 stream() const { return stream_; }

 private:
  GS_HD void refill() {
    buffer_ = philox4x32_10({{u32(block_), u32(block_ >> 32), u32(stream_), u32(stream_ >> 32)}}, u32(seed_),
                            u32(seed_ >> 32));
    ++block_;
    used_ = 0;
  }

  u64 seed_;
  u64 stream_;
  u64 block_;
  Philox4x32 buffer_{};
  u32 used_ = 4;
};

}  // namespace gs

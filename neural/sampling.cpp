#include "neural/sampling.h"

#include <algorithm>
#include <numeric>

#include "base/rng.h"

namespace gs::neural {
namespace {

// Puts the model in evaluation mode (no dropout) and without gradients for a scope.
class Inference {
 public:
  explicit Inference(Seq2Seq& model) : model_(model), was_training_(model->is_training()) { model_->eval(); }
  ~Inference() { model_->train(was_training_); }

 private:
  Seq2Seq& model_;
  bool was_training_;
  torch::NoGradGuard no_grad_;
};

// A token drawn from probabilities p[0..n) restricted to their top-p nucleus.
TokenId draw(const float* p, i64 n, double top_p, Rng& rng) {
  std::vector<i32> order;
  double mass = 0;
  if (top_p >= 1.0) {
    for (i64 i = 0; i < n; ++i) mass += p[i];
  } else {
    order.resize(size_t(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [p](i32 a, i32 b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    size_t keep = 0;
    while (keep < order.size() && (keep == 0 || mass < top_p)) mass += p[order[keep++]];
    order.resize(keep);
  }
  double u = rng.uniform01() * mass, seen = 0;
  if (order.empty()) {
    for (i64 i = 0; i < n; ++i)
      if ((seen += p[i]) > u && p[i] > 0) return TokenId(i);
    for (i64 i = n - 1; i >= 0; --i)
      if (p[i] > 0) return TokenId(i);  // rounding left u at the very end
    return TokenId(Special::EOS);
  }
  for (i32 i : order)
    if ((seen += p[i]) > u) return TokenId(i);
  return TokenId(order.back());
}

// Decodes one batch of rows; rngs (one per row) are used only when sampling. compact: rows that
// ended leave the batch (Seq2SeqImpl::keep_rows), so each step runs only the rows still open.
std::vector<TokenSeq> decode_rows(Seq2Seq& model, const std::vector<TokenSeq>& sources, torch::Device device,
                                  double temperature, double top_p, std::vector<Rng>* rngs, u32 max_length,
                                  bool compact) {
  const Vocabulary& v = Vocabulary::get();
  Inference inference(model);
  const i64 rows = i64(sources.size());
  i64 limit = model->config().max_bytecode;
  if (max_length > 0) limit = std::min<i64>(limit, max_length);
  std::vector<TokenSeq> out(size_t(rows), TokenSeq{v.bos()});
  if (rows == 0) return out;
  std::vector<char> done(size_t(rows), 0);
  i64 open = rows;

  Seq2SeqImpl::Decoding d = model->start(pad_batch(sources, device));
  // Position p of the batch decodes row row_of[p]; last[p] is its latest token.
  std::vector<i64> row_of(static_cast<size_t>(rows)), last(size_t(rows), v.bos());
  for (i64 r = 0; r < rows; ++r) row_of[size_t(r)] = r;
  for (i64 t = 1; t < limit && open > 0; ++t) {
    const i64 width = i64(row_of.size());
    torch::Tensor input = torch::tensor(last, torch::kLong).to(device);
    torch::Tensor logits = model->step(d, input);
    logits.narrow(1, 0, 2).fill_(-1e9);  // never PAD or BOS
    std::vector<TokenId> next(static_cast<size_t>(width));
    if (temperature <= 0) {
      torch::Tensor best = logits.argmax(1).to(torch::kCPU).to(torch::kLong).contiguous();
      const i64* b = best.data_ptr<i64>();
      for (i64 p = 0; p < width; ++p) next[size_t(p)] = TokenId(b[p]);
    } else {
      torch::Tensor probabilities =
          torch::softmax(logits.to(torch::kFloat) / temperature, 1).to(torch::kCPU).contiguous();
      const float* base = probabilities.data_ptr<float>();
      const i64 n = probabilities.size(1);
      for (i64 p = 0; p < width; ++p) {
        const i64 r = row_of[size_t(p)];
        if (!done[size_t(r)]) next[size_t(p)] = draw(base + p * n, n, top_p, (*rngs)[size_t(r)]);
      }
    }
    bool ended = false;
    for (i64 p = 0; p < width; ++p) {
      const i64 r = row_of[size_t(p)];
      if (done[size_t(r)]) continue;
      out[size_t(r)].push_back(next[size_t(p)]);
      last[size_t(p)] = next[size_t(p)];
      if (next[size_t(p)] == v.eos()) done[size_t(r)] = 1, --open, ended = true;
    }
    if (compact && ended && open > 0) {
      std::vector<i64> keep, kept_rows, kept_last;
      for (i64 p = 0; p < width; ++p)
        if (!done[size_t(row_of[size_t(p)])]) {
          keep.push_back(p);
          kept_rows.push_back(row_of[size_t(p)]);
          kept_last.push_back(last[size_t(p)]);
        }
      model->keep_rows(d, torch::tensor(keep, torch::kLong));
      row_of = std::move(kept_rows);
      last = std::move(kept_last);
    }
  }
  return out;
}

}  // namespace

torch::Tensor pad_batch(const std::vector<TokenSeq>& rows, torch::Device device) {
  size_t width = 1;
  for (const TokenSeq& r : rows) width = std::max(width, r.size());
  std::vector<i64> flat(rows.size() * width, i64(Special::PAD));
  for (size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i].begin(), rows[i].end(), flat.begin() + i64(i * width));
  return torch::tensor(flat, torch::kLong).view({i64(rows.size()), i64(width)}).to(device);
}

std::vector<std::vector<TokenSeq>> sample(Seq2Seq& model, const std::vector<TokenSeq>& sources,
                                          const SamplingOptions& o, torch::Device device) {
  const u32 k = std::max<u32>(1, o.samples);
  const size_t total = sources.size() * k, chunk = std::max<u32>(1, o.batch_rows);
  std::vector<std::vector<TokenSeq>> out(sources.size());
  for (size_t first = 0; first < total; first += chunk) {
    std::vector<TokenSeq> batch;
    std::vector<Rng> rngs;
    for (size_t r = first; r < std::min(total, first + chunk); ++r) {
      batch.push_back(sources[r / k]);
      rngs.push_back(Rng(o.seed, o.stream).derive(r / k).derive(r % k));
    }
    std::vector<TokenSeq> decoded =
        decode_rows(model, batch, device, o.temperature, o.top_p, &rngs, o.max_length, o.compact);
    for (size_t i = 0; i < decoded.size(); ++i) out[(first + i) / k].push_back(std::move(decoded[i]));
  }
  return out;
}

std::vector<TokenSeq> greedy(Seq2Seq& model, const std::vector<TokenSeq>& sources, torch::Device device,
                             u32 max_length, bool compact) {
  std::vector<TokenSeq> out;
  const size_t chunk = 256;
  for (size_t first = 0; first < sources.size(); first += chunk) {
    std::vector<TokenSeq> batch(sources.begin() + i64(first),
                                sources.begin() + i64(std::min(sources.size(), first + chunk)));
    for (TokenSeq& s : decode_rows(model, batch, device, 0.0, 1.0, nullptr, max_length, compact))
      out.push_back(std::move(s));
  }
  return out;
}

std::vector<DecodedBytecode> decode_candidates(std::span<const TokenSeq> sequences,
                                               std::span<const std::string> function_names) {
  std::vector<DecodedBytecode> out;
  out.reserve(sequences.size());
  for (const TokenSeq& s : sequences) out.push_back(decode_bytecode(s, function_names));
  return out;
}

}  // namespace gs::neural

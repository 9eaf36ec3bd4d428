#include "policies/value_net.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace carc {
namespace {

// The built-in net's text: CMake writes its bytes from policies/value/default.net.
constexpr char kBuiltinNetBytes[] = {
#include "value_default_net.inc"
};
constexpr std::string_view kBuiltinNet{kBuiltinNetBytes, sizeof kBuiltinNetBytes};

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("value net: " + what);
}

// The text's lines, one at a time, split into words.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  std::size_t offset() const { return at_; }
  bool next(std::vector<std::string_view>& words) {
    words.clear();
    if (at_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) bad("the file is truncated (its last line has no newline)");
    std::string_view line = text_.substr(at_, end - at_);
    at_ = end + 1;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && line[i] == ' ') ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ') ++j;
      if (j > i) words.push_back(line.substr(i, j - i));
      i = j;
    }
    return true;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

int to_int(std::string_view w) {
  int v = 0;
  const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  if (r.ec != std::errc() || r.ptr != w.data() + w.size()) bad("not a whole number: " + std::string(w));
  return v;
}

// A float32 written as its bit pattern: 8 hex digits.
float to_float(std::string_view w) {
  std::uint32_t bits = 0;
  const auto r = std::from_chars(w.data(), w.data() + w.size(), bits, 16);
  if (w.size() != 8 || r.ec != std::errc() || r.ptr != w.data() + w.size())
    bad("not a float32 bit pattern (8 hex digits): " + std::string(w));
  return std::bit_cast<float>(bits);
}

// The next line, `key` followed by `n` finite floats (a NaN or an infinity would play on,
// quietly worse: refused like any other damage).
std::vector<float> floats(Lines& lines, std::string_view key, std::size_t n) {
  std::vector<std::string_view> words;
  if (!lines.next(words)) bad("the file is truncated: it ends before the line `" + std::string(key) + "`");
  if (words.empty() || words[0] != key) bad("expected the line `" + std::string(key) + "`");
  if (words.size() != n + 1)
    bad("`" + std::string(key) + "` has " + std::to_string(words.size() - 1) + " values, expected " +
        std::to_string(n));
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = to_float(words[i + 1]);
    if (!std::isfinite(v[i]))
      bad("`" + std::string(key) + "` value " + std::to_string(i + 1) + " (" + std::string(words[i + 1]) +
          ") is " + (std::isnan(v[i]) ? "NaN" : "infinite") + ", not a finite number");
  }
  return v;
}

}  // namespace

ValueNet ValueNet::parse(std::string_view text) {
  ValueNet net;
  Lines lines(text);
  std::vector<std::string_view> w;
  if (!lines.next(w) || w.size() != 1 || w[0] != "carcsolo-value/1")
    bad("not a carcsolo-value/1 file (its first line must be `carcsolo-value/1`)");
  // `info` lines (what made the net) may come first; they are hashed like the rest.
  while (lines.next(w) && !w.empty() && w[0] == "info") {
  }
  if (w.size() < 3 || w[0] != "layers") bad("expected `layers INPUTS WIDTH... OUTPUTS`");
  net.layers_ = int(w.size()) - 2;
  if (net.layers_ > kMaxLayers) bad("more than " + std::to_string(kMaxLayers) + " weight layers");
  for (int l = 0; l <= net.layers_; ++l) {
    net.sizes_[std::size_t(l)] = to_int(w[std::size_t(l) + 1]);
    if (net.sizes_[std::size_t(l)] < 1 || net.sizes_[std::size_t(l)] > kMaxWidth)
      bad("a layer size outside 1.." + std::to_string(kMaxWidth));
  }
  // The inputs are a feature set's columns (policies/afterstate_features.hpp): the first
  // 74, or those and the board block's 35.
  if (net.sizes_[0] != 74 && net.sizes_[0] != 109)
    bad("the net takes " + std::to_string(net.sizes_[0]) +
        " inputs: a feature set has 74 (the afterstate's) or 109 (with the board block)");
  if (!lines.next(w) || w.size() != 2 || w[0] != "activation" || w[1] != "relu")
    bad("expected `activation relu`");
  const std::size_t in = std::size_t(net.sizes_[0]);
  net.shift_ = floats(lines, "input_shift", in);
  net.scale_ = floats(lines, "input_scale", in);
  const std::vector<float> out = floats(lines, "output", 2);
  net.out_scale_ = out[0];
  net.out_shift_ = out[1];
  for (int l = 0; l < net.layers_; ++l) {
    const std::size_t a = std::size_t(net.sizes_[std::size_t(l)]), b = std::size_t(net.sizes_[std::size_t(l) + 1]);
    net.weights_[std::size_t(l)] = floats(lines, "weights", a * b);
    net.biases_[std::size_t(l)] = floats(lines, "bias", b);
  }
  const std::size_t hashed = lines.offset();
  if (!lines.next(w)) bad("the file is truncated: it ends before the `hash` line");
  if (w.size() != 2 || w[0] != "hash") bad("expected `hash HEX` after the last layer");
  net.hash_ = fnv1a64_hex(text.substr(0, hashed));
  if (w[1] != net.hash_)
    bad("the hash does not match the contents (file says " + std::string(w[1]) + ", contents give " +
        net.hash_ + ")");
  if (lines.next(w)) bad("text after the `hash` line");
  return net;
}

const ValueNet& ValueNet::builtin() {
  static const ValueNet net = parse(kBuiltinNet);
  return net;
}


float ValueNet::evaluate(const float* features, Scratch& scratch) const {
  float* x = scratch.a.data();
  float* y = scratch.b.data();
  const int in = sizes_[0];
  for (int i = 0; i < in; ++i) x[i] = (features[i] - shift_[std::size_t(i)]) * scale_[std::size_t(i)];
  for (int l = 0; l < layers_; ++l) {
    const int a = sizes_[std::size_t(l)], b = sizes_[std::size_t(l) + 1];
    const float* wl = weights_[std::size_t(l)].data();
    std::copy_n(biases_[std::size_t(l)].data(), b, y);
    // Input by input, over every output: each output's sum runs in input order. Four inputs
    // a pass, so each output is loaded and stored a quarter as often (same sums, same order).
    int i = 0;
    for (; i + 4 <= a; i += 4) {
      const float x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
      const float* r0 = wl + std::size_t(i) * std::size_t(b);
      const float* r1 = r0 + b;
      const float* r2 = r1 + b;
      const float* r3 = r2 + b;
      for (int o = 0; o < b; ++o) y[o] = (((y[o] + x0 * r0[o]) + x1 * r1[o]) + x2 * r2[o]) + x3 * r3[o];
    }
    for (; i < a; ++i) {
      const float xi = x[i];
      const float* row = wl + std::size_t(i) * std::size_t(b);
      for (int o = 0; o < b; ++o) y[o] += xi * row[o];
    }
    if (l + 1 < layers_)
      for (int o = 0; o < b; ++o) y[o] = std::max(y[o], 0.0f);
    std::swap(x, y);
  }
  return x[0] * out_scale_ + out_shift_;
}

}  // namespace carc

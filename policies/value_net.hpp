// A learned afterstate value: a small multilayer perceptron over the features of
// policies/afterstate_features.hpp, trained by scripts/train on `carcsolo positions` data to
// predict the game's result. The weights file is docs/value-format.md (`carcsolo-value/1`);
// the program carries one net built in (policies/value/default.net, compiled into the
// engine), so a game stays a pure function of (seed, game, spec).
//
// evaluate() runs in float32 with plain loops: no framework, no allocation, about 7,000
// multiply-adds for the built-in net (74 x 64 + 64 x 32 + 32 x 7), 2.7 microseconds measured
// on a busy 2-core machine (4 inputs a pass; one at a time took 6.1 there). The sums run in
// input order, output by output, so a value is the same on every run of a build.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ruleset.hpp"  // fnv1a64_hex, the weights file's hash

namespace carc {

class ValueNet {
 public:
  static constexpr int kMaxLayers = 4;    // weight layers
  static constexpr int kMaxWidth = 256;   // units of any layer, inputs included

  // Reads a `carcsolo-value/1` text. Throws std::invalid_argument, with one line saying what
  // is wrong, for anything else (a bad header, wrong counts, a truncated file, a NaN or
  // infinite number, a hash that does not match).
  static ValueNet parse(std::string_view text);
  // The built-in net (policies/value/default.net), parsed once.
  static const ValueNet& builtin();

  int inputs() const { return sizes_[0]; }
  // The FNV-1a 64 hash the file names (of its text before the `hash` line), 16 hex digits.
  const std::string& hash() const { return hash_; }

  // Scratch for evaluate(): one per thread.
  struct Scratch {
    std::array<float, kMaxWidth> a{}, b{};
  };
  // The value of `inputs()` raw features (the columns as `positions` writes them): the
  // last layer's first output (the others are heads trained beside it, unused here).
  float evaluate(const float* features, Scratch& scratch) const;

 private:
  ValueNet() = default;
  int layers_ = 0;                            // weight layers
  std::array<int, kMaxLayers + 1> sizes_{};   // sizes_[0] inputs ... sizes_[layers_] outputs
  std::vector<float> shift_, scale_;          // x' = (x - shift) * scale
  float out_scale_ = 1, out_shift_ = 0;       // value = y * out_scale + out_shift
  // Layer l's weights, input-major (w[i * out + o]), then its biases.
  std::array<std::vector<float>, kMaxLayers> weights_, biases_;
  std::string hash_;
};

}  // namespace carc

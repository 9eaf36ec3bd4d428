// The trainer's golden outputs (scripts/train --golden: `carcsolo-value-golden/1`, fixed
// feature vectors with the value the trainer computed for each) against the C++ inference.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "policies/value_net.hpp"

namespace carc::test {

struct GoldenCase {
  std::vector<float> features;
  float value = 0;
};

struct Golden {
  std::string net_hash;
  std::vector<GoldenCase> cases;
};

inline float golden_float(const std::string& w) {
  if (w.size() != 8) throw std::invalid_argument("golden: not a float32 bit pattern: " + w);
  return std::bit_cast<float>(std::uint32_t(std::stoul(w, nullptr, 16)));
}

inline Golden read_golden(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("golden: cannot read " + path);
  std::string line, word;
  Golden g;
  if (!std::getline(in, line) || line != "carcsolo-value-golden/1")
    throw std::invalid_argument("golden: " + path + " is not a carcsolo-value-golden/1 file");
  while (std::getline(in, line)) {
    std::istringstream words(line);
    words >> word;
    if (word == "net") {
      words >> g.net_hash;
    } else if (word == "case") {
      GoldenCase c;
      while (words >> word && word != "value") c.features.push_back(golden_float(word));
      if (word != "value" || !(words >> word)) throw std::invalid_argument("golden: a case without its value");
      c.value = golden_float(word);
      g.cases.push_back(std::move(c));
    } else {
      throw std::invalid_argument("golden: unknown line: " + line);
    }
  }
  return g;
}

// The largest |C++ - trainer| / max(1, |trainer|) over the cases.
inline double golden_error(const ValueNet& net, const Golden& g) {
  ValueNet::Scratch scratch;
  double worst = 0;
  for (const GoldenCase& c : g.cases) {
    if (int(c.features.size()) != net.inputs()) throw std::invalid_argument("golden: a case of the wrong width");
    const double v = net.evaluate(c.features.data(), scratch);
    worst = std::max(worst, std::abs(v - c.value) / std::max(1.0, std::abs(double(c.value))));
  }
  return worst;
}

inline std::string read_net_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `text` (a carcsolo-value/1 net) with `edit` applied before its hash line, and the hash
// line made again, so that the reader takes it.
template <class Edit>
std::string rehashed_net(std::string text, Edit edit) {
  text.erase(text.rfind("hash "));
  edit(text);
  return text + "hash " + fnv1a64_hex(text) + "\n";
}

// The built-in net with one `info` line more: the same weights (the same games), another
// hash.
inline std::string renamed_builtin_net(const std::string& source_dir) {
  return rehashed_net(read_net_text(source_dir + "/policies/value/default.net"), [](std::string& t) {
    t.insert(t.find('\n') + 1, "info renamed by a test\n");
  });
}

}  // namespace carc::test

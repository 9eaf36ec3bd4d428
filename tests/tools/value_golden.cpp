// carcsolo_value_golden NET GOLDEN: loads a weights file (docs/value-format.md) and checks
// that the C++ inference gives the trainer's golden outputs (relative error at most 1e-5).
// ctest `train_smoke` runs it on a net scripts/train has just written. Exit 0 when they
// agree, 1 when they do not, 2 for unreadable or malformed files.
#include <cstdio>
#include <stdexcept>

#include "tests/value_golden.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: carcsolo_value_golden NET GOLDEN\n");
    return 2;
  }
  try {
    const carc::ValueNet net = carc::ValueNet::parse(carc::test::read_net_text(argv[1]));
    const carc::test::Golden g = carc::test::read_golden(argv[2]);
    if (g.net_hash != net.hash()) {
      std::printf("golden is of net %s, the file is net %s\n", g.net_hash.c_str(), net.hash().c_str());
      return 1;
    }
    if (g.cases.empty()) {
      std::printf("golden has no cases\n");
      return 1;
    }
    const double err = carc::test::golden_error(net, g);
    std::printf("net %s: %zu golden cases, largest relative error %.3g\n", net.hash().c_str(),
                g.cases.size(), err);
    return err <= 1e-5 ? 0 : 1;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "carcsolo_value_golden: %s\n", e.what());
    return 2;
  }
}

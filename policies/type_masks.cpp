#include "policies/type_masks.hpp"

namespace carc {

static_assert(kMaxTiles < 256, "UnseenCounts sums counts in a byte");

const NoFreeTable& no_free_table() {
  static const NoFreeTable table = [] {
    NoFreeTable m{};
    for (int code = 0; code < kCodes; ++code)
      for (int occ = 0; occ < 16; ++occ) {
        TypeMask mask = 0;
        for (int t = 0; t < kTileTypes; ++t) {
          if (kMonasterySeg[t] >= 0) continue;
          for (int r = 0; r < 4; ++r) {
            if (!(kFits[code][t] >> r & 1)) continue;
            bool ok = true;
            for (int sg = 0; sg < kTiles[t].nseg; ++sg)
              ok &= (kOriented[t][r].seg_edges[sg] & occ) != 0;
            if (ok) {
              mask |= TypeMask(1) << t;
              break;
            }
          }
        }
        m.set(std::size_t(code * 16 + occ), mask);
      }
    return m;
  }();
  return table;
}

}  // namespace carc

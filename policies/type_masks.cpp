#include "policies/type_masks.hpp"

namespace carc {

static_assert(kMaxTiles < 256, "UnseenCounts sums counts in a byte");

namespace {

// A function, not a lambda: a lambda is implicitly constexpr, and a compiler may then
// evaluate the whole table while compiling (half a minute of it), where building it at the
// first call takes milliseconds.
template <MaskWidth M>
NoFreeTable<M> build_no_free_table() {
  NoFreeTable<M> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int occ = 0; occ < 16; ++occ)
      for (int t = 0; t < kMaskTypes<M>; ++t) {
        if (kMonasterySeg[t] >= 0) continue;
        for (int r = 0; r < 4; ++r) {
          if (!(kFits[code][t] >> r & 1)) continue;
          bool ok = true;
          for (int sg = 0; sg < kTiles[t].nseg; ++sg)
            ok &= (kOriented[t][r].seg_edges[sg] & occ) != 0;
          if (ok) {
            m[std::size_t(code * 16 + occ)] |= M(1) << t;
            break;
          }
        }
      }
  return m;
}

}  // namespace

template <MaskWidth M>
const NoFreeTable<M>& no_free_table() {
  static const NoFreeTable<M> table = build_no_free_table<M>();
  return table;
}

template const NoFreeTable<BaseMask>& no_free_table<BaseMask>();
template const NoFreeTable<TypeMask>& no_free_table<TypeMask>();

}  // namespace carc

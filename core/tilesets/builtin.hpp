// The built-in tile sets, as data in the tile-set format (docs/tileset-format.md): the
// base game (rules.md, "Base tile set"), Inns & Cathedrals and The River (I)
// (../spec/expansions.md, sections 1 and 2). `carcsolo tiles SET --text` prints each as a
// file; core/tileset.hpp reads them, the engine's base table at compile time.
#pragma once
#include <string_view>

namespace carc::tilesets {

inline constexpr std::string_view kBase = R"TILES(carcsolo-tiles/1
name base
start D
# type | count | edges N E S W | segments
| A | 2 | F F R F | monastery; road {S} |
| B | 4 | F F F F | monastery |
| C | 1 | C C C C | city* {N,E,S,W} |
| D | 4 (one is the start tile) | C R F R | city {N}; road {E,W} |
| E | 5 | C F F F | city {N} |
| F | 2 | F C F C | city* {E,W} |
| G | 1 | F C F C | city {E,W} |
| H | 3 | F C F C | city {E}; city {W} |
| I | 2 | F C C F | city {E}; city {S} |
| J | 3 | C R R F | city {N}; road {E,S} |
| K | 3 | C F R R | city {N}; road {S,W} |
| L | 3 | C R R R | city {N}; road {E}; road {S}; road {W} |
| M | 2 | C F F C | city* {N,W} |
| N | 3 | C F F C | city {N,W} |
| O | 2 | C R R C | city* {N,W}; road {E,S} |
| P | 3 | C R R C | city {N,W}; road {E,S} |
| Q | 1 | C C F C | city* {N,E,W} |
| R | 3 | C C F C | city {N,E,W} |
| S | 2 | C C R C | city* {N,E,W}; road {S} |
| T | 1 | C C R C | city {N,E,W}; road {S} |
| U | 8 | R F R F | road {N,S} |
| V | 9 | F F R R | road {S,W} |
| W | 4 | F R R R | road {E}; road {S}; road {W} |
| X | 1 | R R R R | road {N}; road {E}; road {S}; road {W} |
)TILES";

inline constexpr std::string_view kInns = R"TILES(carcsolo-tiles/1
name inns
# type | count | edges N E S W | segments
| I1 | 2 | C C C C | city[cathedral] {N,E,S,W} |
| I2 | 1 | F F R R | road[inn] {S,W} |
| I3 | 1 | F R F R | road[inn] {E,W} |
| I4 | 1 | F R R R | road[inn] {E}; road {S}; road {W} |
| I5 | 1 | C F R R | city {N}; road[inn] {S,W} |
| I6 | 1 | C F R C | city {N,W}; road[inn] {S} |
| I7 | 1 | C R R C | city* {N,W}; road[inn] {E,S} |
| I8 | 1 | F R F R | monastery; road {E}; road {W} |
| I9 | 1 | R R R R | road {N,W}; road {E,S} |
| I10 | 1 | C F F F | city {N} |
| I11 | 1 | C F R F | city {N}; road {S} |
| I12 | 1 | C R F C | city {N,W}; road {E} |
| I13 | 1 | R C R C | city* {E,W}; road {N}; road {S} |
| I14 | 1 | C R C R | city {N}; road {E}; city {S}; road {W} |
| I15 | 1 | C F C C | city* {N,W}; city {S} |
| I16 | 1 | C C F C | city {N}; city {E}; city {W} |
| I17 | 1 | C C C C | city {N}; city {E}; city {S}; city {W} |
)TILES";

inline constexpr std::string_view kRiver = R"TILES(carcsolo-tiles/1
name river
start R0
last R9
# type | count | edges N E S W | segments
| R0 | 1 (spring; the start tile) | F A F F | — |
| R1 | 1 | C A C A | city {N}; city {S} |
| R2 | 1 | C A R A | city {N}; road {S} |
| R3 | 1 | F A R A | monastery; road {S} |
| R4 | 1 | R A R A | road {N,S} |
| R5 | 2 | F A F A | — |
| R6 | 1 | C C A A | city {N,E} |
| R7 | 1 | R R A A | road {N,E} |
| R8 | 2 | F F A A | — |
| R9 | 1 (lake; always the last river tile) | F F F A | — |
)TILES";

}  // namespace carc::tilesets

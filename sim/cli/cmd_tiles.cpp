// carcsolo tiles: a tile set read and checked, by name or from a file (docs/tileset-format.md).
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "sim/cli/cli.hpp"
#include "sim/driver/tilesets.hpp"

namespace carc::sim {

int cmd_tiles(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  po::options_description d("carcsolo tiles: read a tile set (base, base+inns, base+river, base+inns+river, or a\n"
                            "file in the format of docs/tileset-format.md), check it, and say what it holds\n\n"
                            "usage: carcsolo tiles [SET|FILE] [--colors N] [--text]\n\nOptions");
  std::string colors = "3";
  d.add_options()
      ("help,h", "show this help")
      ("colors", po::value(&colors)->default_value(colors), "colours to deal for: the stacks' sizes, and a set too small for them is refused")
      ("text", "print the set in the format (canonical: one row per type), nothing else");
  std::vector<std::string> given;
  const auto vm = parse_with_files(d, args, given, "set");
  if (given.size() > 1) throw UsageError("one tile set at a time (got '" + given[0] + "' and '" + given[1] + "')");
  const std::string spec = given.empty() ? "base" : given[0];
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo tiles base+inns+river --colors 4\n";
    return 0;
  }
  const int k = int(parse_count("colors", colors, kMinColors, kMaxColors));
  LoadedTileSet set;
  try {
    set = load_tileset(spec);
    check_colors(set, k);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (vm.count("text")) {
    std::cout << canonical_text(set.set);
    return 0;
  }
  const int land = set.land_tiles();
  std::cout << "tile set " << set.name << " (" << set.source << ", hash " << set.hash << "): "
            << set.set.ntypes << " types, " << set.set.tiles() << " tiles; start tile "
            << set.set.types[set.set.start].name_view() << "\n";
  std::cout << "  " << land << " land tiles dealt to " << k << " colours:";
  for (int c = 0; c < k; ++c) std::cout << " " << land / k + (c < land % k ? 1 : 0);
  std::cout << "\n";
  if (set.river_stack() > 0)
    std::cout << "  river stack: " << set.river_stack() << " tiles"
              << (set.set.last >= 0 ? ", " + std::string(set.set.types[set.set.last].name_view()) + " last" : std::string())
              << "\n";
  if (set.playable()) {
    std::cout << "  played by every command (--tileset " << (set.source == "file" ? "FILE" : set.name) << ")\n";
  } else {
    try {
      set.counts();
    } catch (const std::invalid_argument& e) {
      std::cout << "  read and checked, but not played: " << e.what() << "\n";
    }
  }
  return 0;
}

}  // namespace carc::sim

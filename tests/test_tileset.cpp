// Tile sets as data (core/tileset.hpp, docs/tileset-format.md): the built-in sets read as
// the rules' tables give them, the engine's base table is the base set's data, and a bad
// file is one line and exit status 2 (`carcsolo tiles`).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "core/tilesets/builtin.hpp"
#include "sim/driver/tilesets.hpp"
#include "tests/process.hpp"

namespace {

using namespace carc;

int count_marked(const tileset::Set& s, std::uint8_t mark) {
  int n = 0;
  for (int t = 0; t < s.ntypes; ++t)
    for (int g = 0; g < s.types[t].nseg; ++g)
      if (s.types[t].segs[g].marks & mark) n += s.types[t].count;
  return n;
}

int count_pennants(const tileset::Set& s) {
  int n = 0;
  for (int t = 0; t < s.ntypes; ++t)
    for (int g = 0; g < s.types[t].nseg; ++g)
      if (s.types[t].segs[g].pennant) n += s.types[t].count;
  return n;
}

int lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("tile sets: the engine's base table is the base set's data, as rules.md lists it") {
  const tileset::Set base = tileset::parse(tilesets::kBase);
  REQUIRE(base.ok());
  CHECK(base.ntypes == kBaseTypes);
  CHECK(base.tiles() == 72);
  CHECK(base.types[base.start].name_view() == "D");
  // The engine's catalogue is the three built-in sets' types in order: base, Inns &
  // Cathedrals, The River.
  int t = 0;
  for (const std::string_view text : {tilesets::kBase, tilesets::kInns, tilesets::kRiver}) {
    const tileset::Set part = tileset::parse(text);
    REQUIRE(part.ok());
    for (int i = 0; i < part.ntypes; ++i, ++t) {
      const tileset::Type& x = part.types[i];
      const TileDef& d = kTiles[t];
      CAPTURE(x.name_view());
      CHECK(x.name_view() == tile_name(t));
      CHECK(x.count == d.count);
      CHECK(x.nseg == d.nseg);
      for (int e = 0; e < 4; ++e) CHECK(tileset::kLetterName[int(x.edges[e])] == "?CRFA"[d.edges[e]]);
      for (int g = 0; g < x.nseg; ++g) {
        CHECK(x.segs[g].kind == d.segs[g].kind);
        CHECK(x.segs[g].edges == d.segs[g].edges);
        CHECK(x.segs[g].pennant == d.segs[g].pennant);
        CHECK(x.segs[g].marks == d.segs[g].marks);
      }
    }
  }
  CHECK(t == kTileTypes);
  // rules.md's figures: pennants on C, F, M, O, Q, S (10 tiles), monasteries on A and B (6).
  int monasteries = 0;
  for (int t = 0; t < base.ntypes; ++t)
    for (int g = 0; g < base.types[t].nseg; ++g)
      if (base.types[t].segs[g].kind == SegKind::monastery) monasteries += base.types[t].count;
  CHECK(monasteries == 6);
  CHECK(count_pennants(base) == 1 + 2 + 2 + 2 + 1 + 2);
  // Written back and read again: the same set, the same hash.
  const auto loaded = sim::load_tileset("base");
  const tileset::Set again = tileset::parse(sim::canonical_text(loaded.set));
  REQUIRE(again.ok());
  CHECK(sim::canonical_text(again) == sim::canonical_text(loaded.set));
  CHECK(loaded.playable());
}

TEST_CASE("tile sets: Inns & Cathedrals and The River as the expansions' tables give them") {
  const tileset::Set inns = tileset::parse(tilesets::kInns);
  REQUIRE(inns.ok());
  CHECK(inns.ntypes == 17);
  CHECK(inns.tiles() == 18);
  CHECK(count_marked(inns, tileset::kInn) == 6);        // I2..I7
  CHECK(count_marked(inns, tileset::kCathedral) == 2);  // I1, two of them
  CHECK(count_pennants(inns) == 3);                     // I7, I13, I15
  const tileset::Type& i4 = inns.types[inns.find("I4")];  // the inn on road {E} only
  for (int g = 0; g < i4.nseg; ++g) CHECK(bool(i4.segs[g].marks & tileset::kInn) == (i4.segs[g].edges == 0b0010));
  const tileset::Set river = tileset::parse(tilesets::kRiver);
  REQUIRE(river.ok());
  CHECK(river.ntypes == 10);
  CHECK(river.tiles() == 12);
  CHECK(river.river_tiles() == 12);
  CHECK(river.types[river.start].name_view() == "R0");
  CHECK(river.types[river.last].name_view() == "R9");

  // The set-up table of the expansions' rules: land tiles dealt and the stacks' sizes.
  struct Row { const char* name; int land, river_stack; const char* start; };
  for (const Row& r : {Row{"base", 71, 0, "D"}, Row{"base+inns", 89, 0, "D"}, Row{"base+river", 72, 11, "R0"},
                       Row{"base+inns+river", 90, 11, "R0"}}) {
    CAPTURE(r.name);
    const auto s = sim::load_tileset(r.name);
    CHECK(s.land_tiles() == r.land);
    CHECK(s.river_stack() == r.river_stack);
    CHECK(s.set.types[s.set.start].name_view() == r.start);
    CHECK(s.playable());  // every built-in combination plays
    CHECK_NOTHROW(sim::check_colors(s, 6));
  }
  // Different sets, different hashes; the same tiles under another name, the same hash.
  std::vector<std::string> hashes;
  for (const char* n : {"base", "base+inns", "base+river", "base+inns+river"}) hashes.push_back(sim::load_tileset(n).hash);
  std::sort(hashes.begin(), hashes.end());
  CHECK(std::unique(hashes.begin(), hashes.end()) == hashes.end());
}

TEST_CASE("carcsolo tiles: built-in sets and a file, and a bad file is one line and exit status 2") {
  test::TempDir d;
  const auto ok = test::run_carcsolo({"tiles", "base+inns+river", "--colors", "4"}, d.path());
  CHECK(ok.status == 0);
  CHECK(ok.out.find("90 land tiles dealt to 4 colours: 23 23 22 22") != std::string::npos);
  CHECK(ok.out.find("river stack: 11 tiles, R9 last") != std::string::npos);
  // The base set written out and read back as a file: the same hash as the built-in set.
  const auto text = test::run_carcsolo({"tiles", "base", "--text"}, d.path());
  REQUIRE(text.status == 0);
  std::string renamed = text.out;
  renamed.replace(renamed.find("name base"), 9, "name mine");
  test::write_text(d / "mine.tiles", renamed);
  const auto mine = test::run_carcsolo({"tiles", "mine.tiles"}, d.path());
  CHECK(mine.status == 0);
  CHECK(mine.out.find("tile set mine (file, hash " + sim::load_tileset("base").hash + ")") != std::string::npos);
  CHECK(mine.out.find("played by every command") != std::string::npos);

  const std::string head = "carcsolo-tiles/1\nname bad\nstart D\n| D | 4 | C R F R | city {N}; road {E,W} |\n";
  struct Bad { const char* what; std::string text; const char* says; std::vector<std::string> extra; };
  const std::vector<Bad> bad = {
      {"a type with no segments", head + "| Z | 1 | F F F F | — |\n", "a type with no segments", {}},
      {"edges that contradict its segments", head + "| Z | 1 | C F F F | road {N} |\n", "edges contradict", {}},
      {"a road edge no segment touches", head + "| Z | 1 | R F R F | road {N} |\n", "edges contradict", {}},
      {"a count of 0", head + "| Z | 0 | C F F F | city {N} |\n", "a count of 0", {}},
      {"an unknown mark", head + "| Z | 1 | R F R F | road[bridge] {N,S} |\n", "an unknown mark", {}},
      {"an inn on a city", head + "| Z | 1 | C F F F | city[inn] {N} |\n", "an inn only on a road", {}},
      {"a set too small for the colours", head, "too few for 4 colours", {"--colors", "4"}},
      {"a set too small for 6 colours", head + "| E | 2 | C F F F | city {N} |\n", "too few for 6 colours", {"--colors", "6"}},
      {"not a tile set", "hello\n", "not a tile set", {}},
      {"a type listed twice", head + "| D | 1 | C R F R | city {N}; road {E,W} |\n", "a type listed twice", {}},
      {"an unknown edge letter", head + "| Z | 1 | C X F F | city {N} |\n", "edges are four letters", {}},
      {"no start tile", "carcsolo-tiles/1\nname x\n| E | 5 | C F F F | city {N} |\n", "no start tile", {}},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.what);
    test::write_text(d / "bad.tiles", b.text);
    std::vector<std::string> args = {"tiles", "bad.tiles"};
    args.insert(args.end(), b.extra.begin(), b.extra.end());
    const auto r = test::run_carcsolo(args, d.path());
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(b.says) != std::string::npos);
    CHECK(r.out.empty());
  }
  // The row's line and type are named.
  test::write_text(d / "bad.tiles", head + "| Z | 1 | C F F F | road {N} |\n");
  CHECK(test::run_carcsolo({"tiles", "bad.tiles"}, d.path()).err.find("line 5, type Z") != std::string::npos);
  const auto missing = test::run_carcsolo({"tiles", "no-such.tiles"}, d.path());
  CHECK(missing.status == 2);
  CHECK(missing.err.find("cannot be read") != std::string::npos);
}

TEST_CASE("--tileset on a command that plays: a file of the engine's types plays, a bad set is one line and exit 2") {
  test::TempDir d;
  const std::string head = "carcsolo-tiles/1\nname small\nstart D\n| D | 4 | C R F R | city {N}; road {E,W} |\n";
  // A file of the engine's types with other counts plays, and its name and hash are recorded.
  test::write_text(d / "small.tiles", head + "| U | 8 | R F R F | road {N,S} |\n| E | 5 | C F F F | city {N} |\n");
  const auto ok = test::run_carcsolo({"run", "--tileset", "small.tiles", "--games", "20", "-q", "--out", "s.json",
                                      "--log", "s.jsonl", "--log-games", "2"}, d.path());
  REQUIRE(ok.status == 0);
  const nlohmann::json s = nlohmann::json::parse(test::read_text(d / "s.json"));
  CHECK(s["config"]["tileset"] == "small");
  CHECK(s["config"]["tileset_hash"] == sim::load_tileset((d / "small.tiles").string()).hash);
  CHECK(s["config"]["large_meeple"] == false);
  CHECK(s["tiles_placed"]["mean"].get<double>() <= 16.0);  // 16 tiles dealt
  struct Bad { const char* what; std::vector<std::string> args; const char* says; };
  test::write_text(d / "alien.tiles", head + "| Z | 3 | C F F F | city {N} |\n");
  test::write_text(d / "changed.tiles", head + "| E | 5 | C F F F | city* {N} |\n");
  test::write_text(d / "tiny.tiles", head);
  const std::vector<Bad> bad = {
      {"an unknown name", {"run", "--tileset", "base+farmers"}, "not a built-in set"},
      {"a type the engine does not know", {"run", "--tileset", "alien.tiles"}, "type Z is none the engine plays"},
      {"a type defined otherwise", {"compare", "--placement", "random", "--placement", "greedy", "--tileset", "changed.tiles"},
       "type E differs from the engine's E"},
      {"a set too small for the colours", {"sweep", "--tileset", "tiny.tiles", "--colors", "4"}, "too few for 4 colours"},
      {"the learned value on another set", {"run", "--placement", "value", "--tileset", "base+inns"}, "knows the base game only"},
      {"search's leaf with the large meeple", {"run", "--placement", "search:leaf=1", "--large-meeple"}, "knows the base game only"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.what);
    std::vector<std::string> args = b.args;
    for (const char* a : {"--games", "2", "-q", "--out", "x.json"}) args.push_back(a);
    const auto r = test::run_carcsolo(args, d.path());
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(b.says) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d / "x.json"));
  }
  // merge refuses two sets.
  REQUIRE(test::run_carcsolo({"run", "--games", "5", "-q", "--out", "a.json"}, d.path()).status == 0);
  REQUIRE(test::run_carcsolo({"run", "--games", "5", "--tileset", "base+river", "-q", "--out", "b.json"}, d.path()).status == 0);
  REQUIRE(test::run_carcsolo({"run", "--games", "5", "--large-meeple", "-q", "--out", "c.json"}, d.path()).status == 0);
  const auto m = test::run_carcsolo({"merge", "a.json", "b.json", "--out", "ab.json"}, d.path());
  CHECK(m.status == 2);
  CHECK(m.err.find("config.tileset differs") != std::string::npos);
  const auto m2 = test::run_carcsolo({"merge", "a.json", "c.json", "--out", "ac.json"}, d.path());
  CHECK(m2.status == 2);
  CHECK(m2.err.find("config.large_meeple differs") != std::string::npos);
}

TEST_CASE("a set of its own travels with its logs: verify replays them and analyse values them, no built-in name involved") {
  test::TempDir d;
  // base+inns written out under another name: the same tiles, a set the program does not know by name.
  const auto text = test::run_carcsolo({"tiles", "base+inns", "--text"}, d.path());
  REQUIRE(text.status == 0);
  std::string renamed = text.out;
  renamed.replace(renamed.find("name base+inns"), 14, "name my-inns");
  test::write_text(d / "my-inns.tiles", renamed);
  const auto run = test::run_carcsolo({"run", "--tileset", "my-inns.tiles", "--large-meeple", "--placement", "heuristic",
                                       "--games", "3", "-q", "--out", "r.json", "--log", "r.jsonl"}, d.path());
  REQUIRE(run.status == 0);
  const std::string log = test::read_text(d / "r.jsonl");
  const nlohmann::json first = nlohmann::json::parse(log.substr(0, log.find('\n')));
  CHECK(first["config"]["tileset"] == "my-inns");
  CHECK(first["config"]["tileset_hash"] == sim::load_tileset("base+inns").hash);  // the hash leaves the name out
  CHECK(first["config"]["tileset_text"] == renamed);
  const auto verified = test::run_carcsolo({"verify", "r.jsonl"}, d.path());
  CHECK(verified.status == 0);
  const auto analysed = test::run_carcsolo({"analyse", "r.jsonl", "--games", "1", "--analyser", "heuristic", "--rollouts", "2", "--candidates", "2",
                                            "-q", "--out", "a.json"}, d.path());
  CHECK(analysed.status == 0);
  CHECK(std::filesystem::exists(d / "a.json"));
  // A log whose text was changed (one tile fewer) no longer matches its hash.
  nlohmann::json tampered = first;
  std::string t = tampered["config"]["tileset_text"];
  t.replace(t.find("| I1 | 2 |"), 10, "| I1 | 1 |");
  tampered["config"]["tileset_text"] = t;
  test::write_text(d / "bad.jsonl", tampered.dump() + "\n");
  const auto bad = test::run_carcsolo({"verify", "bad.jsonl"}, d.path());
  CHECK(bad.status != 0);
  CHECK(bad.out.find("tileset_hash") + bad.err.find("tileset_hash") != 2 * std::string::npos);
}

TEST_CASE("a ruleset is one value: the set's name, text, hash, tiles and the large meeple, made once") {
  const Rules base = Ruleset::base();
  CHECK(base->name() == "base");
  CHECK(base->built_in());
  CHECK(base->base_game());
  CHECK(base->tiles() == kBaseCounts);
  CHECK(base->hash() == sim::load_tileset("base").hash);
  CHECK(tileset::parse(base->text()).ok());
  CHECK(sim::load_ruleset("base", false) == base);  // the base game is one value
  const Rules inns = sim::load_ruleset("base+inns", true);
  CHECK(inns->name() == "base+inns");
  CHECK(inns->large_meeple());
  CHECK_FALSE(inns->base_game());
  CHECK_FALSE(inns->base_tiles());
  CHECK(inns->tiles() == sim::load_tileset("base+inns").counts());
  CHECK(inns->land_tiles() == 89);  // 72 + 18 less the start tile
  CHECK(inns->river_stack() == 0);
  const Rules plain = inns->with_large_meeple(false);
  CHECK_FALSE(plain->large_meeple());
  CHECK(plain->hash() == inns->hash());
  CHECK(inns->large_meeple());  // unchanged: a ruleset is immutable
  const Rules river = sim::load_ruleset("base+river", false);
  CHECK(river->river());
  CHECK(river->river_stack() == 11);
  CHECK(river->land_tiles() == 72);
  // The large meeple on the base set is not the base game, yet its tiles are the base set's.
  const Rules large = sim::load_ruleset("base", true);
  CHECK_FALSE(large->base_game());
  CHECK(large->tiles() == kBaseCounts);
  // A file's set made from its text: the same as the file read, the same hash as the built-in copy.
  const Rules copy = sim::ruleset_from_text(inns->text(), true);
  CHECK(copy->hash() == inns->hash());
  CHECK(copy->same_game(*inns));
  CHECK_FALSE(copy->built_in());
  // As a results file records it: comparable, never played.
  CHECK_FALSE(Ruleset::recorded("mine", "0123456789abcdef", false)->playable());
  CHECK(Ruleset::recorded("base", "", false)->base_game());
  CHECK(Ruleset::recorded("base", "", false)->hash() == base->hash());  // a base game's file records none
  CHECK(Ruleset::recorded("base", base->hash(), true)->tiles() == kBaseCounts);
  CHECK_FALSE(Ruleset::recorded("base", "0123456789abcdef", false)->base_game());  // a set of its own named base
  CHECK_FALSE(Ruleset::recorded("base", "0123456789abcdef", false)->playable());
}

TEST_CASE("a tile-set file whose type carries other inn or cathedral marks than the engine's is refused, not played with the engine's marks") {
  test::TempDir d;
  const std::string head = "carcsolo-tiles/1\nname marks\nstart D\n| D | 4 | C R F R | city {N}; road {E,W} |\n"
                           "| E | 5 | C F F F | city {N} |\n| U | 8 | R F R F | road {N,S} |\n";
  // The engine's own rows, marks and all, play.
  test::write_text(d / "same.tiles", head + "| I1 | 2 | C C C C | city[cathedral] {N,E,S,W} |\n"
                                            "| I4 | 1 | F R R R | road[inn] {E}; road {S}; road {W} |\n");
  const auto ok = test::run_carcsolo({"run", "--tileset", "same.tiles", "--games", "4", "-q", "--out", "ok.json"}, d.path());
  CHECK(ok.status == 0);
  CHECK(ok.err.empty());
  struct Marked { const char* what; std::string row; const char* type; };
  const std::vector<Marked> marked = {
      {"the cathedral left out", "| I1 | 2 | C C C C | city {N,E,S,W} |\n", "I1"},
      {"the inn left out", "| I2 | 1 | F F R R | road {S,W} |\n", "I2"},
      {"the inn on another road of the tile", "| I4 | 1 | F R R R | road {E}; road[inn] {S}; road {W} |\n", "I4"},
      {"an inn on a base road", "| U | 8 | R F R F | road[inn] {N,S} |\n", "U"},
      {"a cathedral on a base city", "| E | 5 | C F F F | city[cathedral] {N} |\n", "E"},
      {"a cathedral on an inns city without one", "| I5 | 1 | C F R R | city[cathedral] {N}; road[inn] {S,W} |\n", "I5"},
  };
  for (const Marked& m : marked) {
    CAPTURE(m.what);
    // The row replaces the head's row of its type, or comes after the head.
    std::string text = head;
    const std::string row_start = "| " + std::string(m.type) + " |";
    const auto at = text.find(row_start);
    if (at != std::string::npos)
      text.replace(at, text.find('\n', at) + 1 - at, m.row);
    else
      text += m.row;
    const tileset::Set set = tileset::parse(text);
    REQUIRE(set.ok());  // a well-formed set: only the engine's type of that name differs
    const std::string says = "type " + std::string(m.type) + " differs from the engine's " + m.type;
    CHECK_THROWS_WITH_AS(Ruleset::from_set(set, "file", "marks.tiles", false),
                         doctest::Contains(says.c_str()), std::invalid_argument);
    test::write_text(d / "marks.tiles", text);
    const auto r = test::run_carcsolo({"run", "--tileset", "marks.tiles", "--games", "2", "-q", "--out", "x.json"}, d.path());
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d / "x.json"));
    // `tiles` reads and checks it, and says why it is not played.
    const auto t = test::run_carcsolo({"tiles", "marks.tiles"}, d.path());
    CHECK(t.status == 0);
    CHECK(t.out.find("read and checked, but not played: ") != std::string::npos);
    CHECK(t.out.find(says) != std::string::npos);
  }
}

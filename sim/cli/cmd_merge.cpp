// carcsolo merge: files of shards of one study into the file of their union
// (sim/study/merge.hpp).
#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.hpp"
#include "sim/study/merge.hpp"

namespace carc::sim {

int cmd_merge(const Args& args, const ProgramInfo& program) {
  std::vector<std::string> inputs;
  std::string out;
  po::options_description d(
      "carcsolo merge: join results, ceiling, compare or sweep files of shards of one study\n"
      "(same configurations and seed, game ranges that together are contiguous) into the file\n"
      "of their union\n\n"
      "usage: carcsolo merge FILE... [--out FILE]\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("out", po::value(&out), "write the merged file to FILE (otherwise: a summary only)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse_with_files(d, args, inputs, "input");
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo merge shard-*.json --out all.json\n";
    return 0;
  }
  if (inputs.empty()) throw UsageError("no input files (usage: carcsolo merge FILE... --out FILE)");
  AtomicFile out_file;  // opened now: a bad path fails before the work
  if (!out.empty()) out_file = open_output("out", out);

  const Merged m = merge_files(inputs, program);
  if (out_file.is_open()) {
    out_file.write(m.document.dump(2) + "\n");
    out_file.commit();
  }
  if (!vm.count("quiet"))
    std::cout << "carcsolo merge: " << m.files << " " << m.kind << " files, games [" << m.first_game << ", "
              << m.end_game << ")\n"
              << m.summary;
  return 0;
}

}  // namespace carc::sim

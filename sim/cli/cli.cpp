#include "sim/cli/cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <iostream>

#include "core/state.hpp"
#include "policies/policy.hpp"

#ifndef CARCSOLO_VERSION
#define CARCSOLO_VERSION "0.0.0"
#endif
#ifndef CARCSOLO_GIT
#define CARCSOLO_GIT "unknown"
#endif

namespace carc::sim {

std::atomic<bool> g_stop{false};
namespace {
extern "C" void on_stop_signal(int) { g_stop.store(true); }
}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}
void restore_default_handlers() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UsageError("--" + opt + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + " (got '" + text + "')");
  return v;
}

double parse_real(const std::string& opt, const std::string& text, double lo, double hi) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      v < lo || v > hi)
    throw UsageError("--" + opt + " must be a number in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "] (got '" + text + "')");
  return v;
}

po::variables_map parse(const po::options_description& d, const Args& args,
                        const po::positional_options_description& positional) {
  // Stray arguments are collected under a hidden name so the message can quote one.
  const char* kStray = "carcsolo-stray-argument";
  po::options_description all;
  all.add(d);
  all.add_options()(kStray, po::value<std::vector<std::string>>());
  po::positional_options_description pos = positional;
  if (pos.max_total_count() == 0) pos.add(kStray, -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count(kStray))
      throw UsageError("unexpected argument '" + vm[kStray].as<std::vector<std::string>>()[0] +
                       "' (options start with --; see --help)");
    for (const auto& [name, value] : vm) {  // no option takes an empty value: --out ""
      const auto* opt = all.find_nothrow(name, false);
      if (!opt || opt->semantic()->max_tokens() == 0) continue;  // a flag such as -q
      const auto* text = boost::any_cast<std::string>(&value.value());
      const auto* list = boost::any_cast<std::vector<std::string>>(&value.value());
      if ((text && text->empty()) ||
          (list && std::find(list->begin(), list->end(), "") != list->end()))
        throw UsageError("--" + name + " needs a non-empty value");
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

AtomicFile open_output(const std::string& opt, const std::string& path) {
  try {
    return AtomicFile(path);
  } catch (const std::runtime_error& e) {
    throw UsageError("--" + opt + ": " + e.what());
  }
}

int report_interrupted(const std::string& command, const std::string& done, const std::string& out) {
  std::cerr << "carcsolo " << command << ": interrupted after " << done << "; "
            << (out.empty() ? "nothing written" : "partial results written to " + out) << "\n";
  return 130;
}

ProgramInfo program_info() { return {"carcsolo", CARCSOLO_VERSION, CARCSOLO_GIT}; }

void GameOptions::add_to(po::options_description& d, bool with_policies) {
  d.add_options()
      ("colors", po::value(&colors)->default_value(colors), "colours in play, 2..6 (the rules: 3; the fourth-colour option: 4)")
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)")
      ("seed", po::value(&seed)->default_value(seed), "base seed; game i of seed s is the same game in every run");
  if (with_policies)
    d.add_options()
        ("placement", po::value(&placement)->default_value(placement), "placement policy, NAME or NAME:key=value,... (see `carcsolo policies`)")
        ("scoring", po::value(&scoring)->default_value(scoring), "scoring-order policy (see `carcsolo policies`)");
}

RunConfig GameOptions::resolve() const {
  RunConfig rc;
  rc.colors = int(parse_count("colors", colors, kMinColors, kMaxColors));
  rc.meeples = int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples));
  rc.seed = parse_count("seed", seed, 0, UINT64_MAX);
  try {
    rc.placement_policy = canonical_placement(placement);
    rc.scoring_policy = canonical_scoring(scoring);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return rc;
}

}  // namespace carc::sim

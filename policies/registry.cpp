#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "policies/policy.hpp"

namespace carc {

// Defined in the policy files, one per file.
void register_random();
void register_greedy();
void register_heuristic();
void register_mc();
void register_search();
void register_value();
void register_basic_scoring_orders();
void register_scoring_orders();

namespace {

template <class Factory>
struct Entry {
  PolicyInfo info;
  Factory make;
};

template <class Factory>
std::vector<Entry<Factory>>& table() {
  static std::vector<Entry<Factory>> t;  // function-local: no static-order trouble
  return t;
}

// The built-in policies, registered by explicit calls on first use rather than from
// static initialisers: a program that links the static library carcsolo::engine keeps
// every policy, since this file (which any lookup pulls in) names each one.
void ensure_builtins() {
  static const bool done = [] {
    register_random();
    register_greedy();
    register_heuristic();
    register_mc();
    register_search();
    register_value();
    register_basic_scoring_orders();
    register_scoring_orders();
    return true;
  }();
  (void)done;
}

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

struct Parsed {
  std::string name;
  std::vector<std::pair<std::string, std::string>> kv;
};

Parsed parse_spec(std::string_view spec, const char* what) {
  Parsed p;
  const auto colon = spec.find(':');
  p.name = trim(spec.substr(0, colon));
  if (p.name.empty()) throw std::invalid_argument(std::string("empty ") + what + " policy name");
  if (colon == std::string_view::npos) return p;
  std::string_view rest = spec.substr(colon + 1);
  if (trim(rest).empty())
    throw std::invalid_argument(std::string(what) + " policy '" + p.name +
                                "': nothing after ':' (give key=value,... or no colon)");
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(std::string(what) + " policy '" + p.name +
                                  "': parameter '" + trim(item) + "' needs key=value");
    const std::string key = trim(item.substr(0, eq));
    for (const auto& kv : p.kv)
      if (kv.first == key)
        throw std::invalid_argument(std::string(what) + " policy '" + p.name + "': parameter '" +
                                    key + "' given twice");
    p.kv.emplace_back(key, trim(item.substr(eq + 1)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
    if (trim(rest).empty())
      throw std::invalid_argument(std::string(what) + " policy '" + p.name +
                                  "': nothing after the last ','");
  }
  return p;
}

template <class Factory>
std::pair<const Entry<Factory>*, Params> resolve(std::string_view spec, const char* what) {
  ensure_builtins();
  const Parsed p = parse_spec(spec, what);
  const auto& t = table<Factory>();
  const auto it = std::find_if(t.begin(), t.end(), [&](const auto& e) { return e.info.name == p.name; });
  if (it == t.end()) {
    std::string names;
    for (const auto& e : t)
      if (e.info.listed) names += (names.empty() ? "" : ", ") + e.info.name;
    throw std::invalid_argument(std::string("unknown ") + what + " policy '" + p.name +
                                "' (known: " + names + ")");
  }
  Params params;
  params.info = it->info.params;
  for (const auto& kv : p.kv) {
    const std::string& k = kv.first;  // not a structured binding: clang 14 cannot capture one
    const std::string& v = kv.second;
    const auto pi = std::find_if(params.info.begin(), params.info.end(),
                                 [&](const ParamInfo& i) { return i.key == k; });
    if (pi == params.info.end()) {
      std::string keys;
      for (const auto& i : params.info) keys += (keys.empty() ? "" : ", ") + i.key;
      throw std::invalid_argument(std::string(what) + " policy '" + p.name +
                                  "' has no parameter '" + k + "' (parameters: " +
                                  (keys.empty() ? "none" : keys) + ")");
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(value))
      throw std::invalid_argument(std::string(what) + " policy '" + p.name + "': parameter '" +
                                  k + "' needs a number, got '" + v + "'");
    params.values.emplace_back(k, value);
  }
  return {&*it, params};
}

template <class Factory>
std::string canonical(std::string_view spec, const char* what) {
  auto [entry, params] = resolve<Factory>(spec, what);
  // Factories check parameter ranges: fail here, not in a worker thread.
  if constexpr (std::is_same_v<Factory, PlacementFactory>) {
    entry->make(params, PolicyContext{});
  } else {
    entry->make(params);
  }
  std::string s = entry->info.name;
  for (const ParamInfo& i : params.info) {
    const std::string value = format_number(params.get(i.key));
    if (i.added_later && value == format_number(i.default_value)) continue;
    s += (s.size() == entry->info.name.size() ? ":" : ",") + i.key + "=" + value;
  }
  return s;
}

// Parameters are compared as canonical() writes them: a value that prints as its default
// is its default once canonical, so leaving it out changes nothing that is played.
template <class Factory>
std::string shortened(std::string_view spec, const char* what) {
  try {
    const auto [entry, params] = resolve<Factory>(spec, what);
    std::string s = entry->info.name;
    for (const auto& i : params.info) {
      const std::string value = format_number(params.get(i.key));
      if (value == format_number(i.default_value)) continue;
      s += (s.size() == entry->info.name.size() ? ":" : ",") + i.key + "=" + value;
    }
    return s;
  } catch (const std::invalid_argument&) {
    return std::string(spec);
  }
}

template <class Factory>
std::vector<PolicyInfo> infos() {
  ensure_builtins();
  std::vector<PolicyInfo> v;
  for (const auto& e : table<Factory>())
    if (e.info.listed) v.push_back(e.info);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

}  // namespace

double Params::get(std::string_view key) const {
  for (auto it = values.rbegin(); it != values.rend(); ++it)
    if (it->first == key) return it->second;
  for (const auto& i : info)
    if (i.key == key) return i.default_value;
  throw std::logic_error("policy asked for an unregistered parameter: " + std::string(key));
}

int Params::whole(std::string_view policy, std::string_view key, int lo, int hi) const {
  const double v = get(key);
  if (v != std::floor(v) || v < lo || v > hi)
    throw std::invalid_argument("placement policy '" + std::string(policy) + "': parameter '" + std::string(key) +
                                "' must be a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return int(v);
}

namespace {
// Two parameters of one name would read one value: a programming error.
void check_unique_keys(const PolicyInfo& info) {
  for (std::size_t i = 0; i < info.params.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (info.params[i].key == info.params[j].key)
        throw std::logic_error("policy '" + info.name + "' registers parameter '" +
                               info.params[i].key + "' twice");
}
}  // namespace

bool register_placement(PolicyInfo info, PlacementFactory make) {
  check_unique_keys(info);
  table<PlacementFactory>().push_back({std::move(info), std::move(make)});
  return true;
}
bool register_scoring(PolicyInfo info, ScoringFactory make) {
  check_unique_keys(info);
  table<ScoringFactory>().push_back({std::move(info), std::move(make)});
  return true;
}

std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view spec, const PolicyContext& context) {
  auto [entry, params] = resolve<PlacementFactory>(spec, "placement");
  if (!context.aim.is_score() && !entry->info.aims)
    throw std::invalid_argument("placement policy '" + entry->info.name + "' plays for the result and cannot aim at " +
                                context.aim.id() + " (the look-ahead players mc and search can)");
  return entry->make(params, context);
}
std::unique_ptr<ScoringPolicy> make_scoring_policy(std::string_view spec) {
  auto [entry, params] = resolve<ScoringFactory>(spec, "scoring");
  return entry->make(params);
}
std::string canonical_placement(std::string_view spec) {
  return canonical<PlacementFactory>(spec, "placement");
}
std::string canonical_scoring(std::string_view spec) {
  return canonical<ScoringFactory>(spec, "scoring");
}
std::string short_placement_spec(std::string_view spec) {
  return shortened<PlacementFactory>(spec, "placement");
}
std::string short_scoring_spec(std::string_view spec) {
  return shortened<ScoringFactory>(spec, "scoring");
}
std::vector<PolicyInfo> placement_policies() { return infos<PlacementFactory>(); }
std::vector<PolicyInfo> scoring_policies() { return infos<ScoringFactory>(); }

}  // namespace carc

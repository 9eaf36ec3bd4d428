// Why one lock per game and one for the table of games: advice takes a noticeable time
// (rollouts), and a second person's game must not wait for it; the table's lock is held
// only to find, add or expire a game. Errors are values here: each handler turns its
// failure into a status and a message, and cpp-httplib's exception handler catches the
// rest, so that no request can end the process.
#include "sim/serve/server.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "sim/serve/page.hpp"
#include "sim/serve/table_game.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A request the API cannot take, with its status.
struct HttpError : std::runtime_error {
  int status;
  HttpError(int s, const std::string& what) : std::runtime_error(what), status(s) {}
};

json body_object(const httplib::Request& req) {
  json j = json::parse(req.body, nullptr, false);
  if (j.is_discarded()) throw HttpError(400, "the body is not JSON");
  if (!j.is_object()) throw HttpError(400, "the body is not a JSON object");
  return j;
}

long long whole(const json& j, const char* key, long long lo, long long hi, std::optional<long long> dflt = {}) {
  if (!j.contains(key) || j[key].is_null()) {
    if (dflt) return *dflt;
    throw HttpError(400, std::string("\"") + key + "\" is missing");
  }
  const json& v = j[key];
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<unsigned long long>() > (unsigned long long)hi))
    throw HttpError(400, std::string("\"") + key + "\" must be a whole number in " + std::to_string(lo) + ".." +
                             std::to_string(hi));
  const long long n = v.get<long long>();
  if (n < lo || n > hi)
    throw HttpError(400, std::string("\"") + key + "\" must be a whole number in " + std::to_string(lo) + ".." +
                             std::to_string(hi));
  return n;
}

std::string text(const json& j, const char* key, bool optional = false) {
  if (!j.contains(key) || j[key].is_null()) {
    if (optional) return "";
    throw HttpError(400, std::string("\"") + key + "\" is missing");
  }
  if (!j[key].is_string() || j[key].get_ref<const std::string&>().size() > 64)
    throw HttpError(400, std::string("\"") + key + "\" must be a short string");
  return j[key].get<std::string>();
}

// An optional true/false (absent or null: false).
bool flag(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return false;
  if (!j[key].is_boolean()) throw HttpError(400, std::string("\"") + key + "\" must be true or false");
  return j[key].get<bool>();
}

// An optional "aim" (absent or null: score): score, a goal id or goals (docs/aim.md).
Aim aim_of(const json& j) {
  const std::string id = text(j, "aim", true);
  if (id.empty()) return Aim::score();
  const std::optional<Aim> aim = parse_aim(id);
  if (!aim) throw HttpError(400, "\"aim\" must be score, goals or a goal id (got " + id + ")");
  return *aim;
}

std::string new_id() {
  static std::mutex m;
  static std::random_device rd;
  std::lock_guard lock(m);
  char buf[33];
  for (int i = 0; i < 4; ++i) std::snprintf(buf + 8 * i, 9, "%08x", unsigned(rd()));
  return buf;
}

// Printable, short: a malformed request's path goes into a log line.
std::string printable(const std::string& s) {
  std::string out;
  for (char ch : s.substr(0, 120)) out += (ch >= 0x20 && ch < 0x7f) ? ch : '?';
  return out;
}

std::string default_message(int status) {
  switch (status) {
    case 400: return "malformed request";
    case 404: return "no such page";
    case 405: return "method not allowed";
    case 413: return "request body too large (at most " + std::to_string(kMaxBody) + " bytes)";
    case 414: return "request line too long";
    default: return "request refused";
  }
}

}  // namespace

bool loopback_host(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

struct Server::Impl {
  struct Entry {
    std::mutex m;
    std::unique_ptr<TableGame> game;
    Clock::time_point last = Clock::now();
  };

  ServeOptions opt;
  httplib::Server http;
  std::mutex table_m, log_m;
  std::map<std::string, std::shared_ptr<Entry>> games;
  std::atomic<std::size_t> started{0};
  const std::string page;

  explicit Impl(const ServeOptions& o) : opt(o), page(table_page()) { routes(); }

  std::shared_ptr<Entry> find(const std::string& id) {
    if (id.empty()) throw HttpError(400, "\"id\" is missing");
    std::lock_guard lock(table_m);
    const auto it = games.find(id);
    if (it == games.end()) throw HttpError(404, "no game with this id (never started, or expired)");
    return it->second;
  }

  std::string add(std::unique_ptr<TableGame> g) {
    std::lock_guard lock(table_m);
    const auto now = Clock::now();
    for (auto it = games.begin(); it != games.end();) {
      std::unique_lock entry(it->second->m, std::try_to_lock);  // a game in use is not idle
      const bool idle = entry.owns_lock() &&
                        std::chrono::duration<double>(now - it->second->last).count() > opt.idle_seconds;
      it = idle ? games.erase(it) : std::next(it);
    }
    if (games.size() >= opt.max_games)
      throw HttpError(503, "too many games in play (" + std::to_string(opt.max_games) + "): try again later");
    auto e = std::make_shared<Entry>();
    e->game = std::move(g);
    std::string id = new_id();
    games[id] = e;
    ++started;
    return id;
  }

  // Runs `f` on the game of the request's id under its lock; answers its JSON.
  template <class F>
  void with_game(const std::string& id, httplib::Response& res, F f) {
    auto e = find(id);
    std::lock_guard lock(e->m);
    e->last = Clock::now();
    json out = f(*e->game);
    res.set_content(out.dump(), "application/json");
  }

  static void answer_error(httplib::Response& res, int status, const std::string& what) {
    res.status = status;
    res.set_content(json{{"error", what}}.dump(), "application/json");
  }

  // Every handler's failures, as statuses.
  template <class F>
  httplib::Server::Handler guarded(F f) {
    return [f](const httplib::Request& req, httplib::Response& res) {
      try {
        f(req, res);
      } catch (const HttpError& e) {
        answer_error(res, e.status, e.what());
      } catch (const GameConflict& e) {
        answer_error(res, 409, e.what());
      } catch (const std::invalid_argument& e) {
        answer_error(res, 400, e.what());
      } catch (const std::exception& e) {
        answer_error(res, 500, std::string("internal error: ") + e.what());
      }
    };
  }

  void post(const char* path, std::function<json(TableGame&, const json&)> f) {
    http.Post(path, guarded([this, f](const httplib::Request& req, httplib::Response& res) {
      const json body = body_object(req);
      const std::string id = text(body, "id");
      with_game(id, res, [&](TableGame& g) {
        json r = f(g, body);
        r["state"] = g.state();
        return r;
      });
    }));
  }

  void routes() {
    http.Get("/", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(page, "text/html; charset=utf-8");
    });
    http.Post("/api/new", guarded([this](const httplib::Request& req, httplib::Response& res) {
      const json body = body_object(req);
      TableSetup setup;
      setup.cfg = opt.game;
      setup.cfg.colors = int(whole(body, "colors", kMinColors, kMaxColors, 3));
      setup.cfg.meeples = int(whole(body, "meeples", kMinMeeples, kMaxMeeples, 4));
      if (setup.cfg.tiles().land() < setup.cfg.colors)
        throw HttpError(400, "the tile set has " + std::to_string(setup.cfg.tiles().land()) + " land tiles, too few for " +
                                 std::to_string(setup.cfg.colors) + " colours");
      const std::string mode = body.contains("mode") ? text(body, "mode") : "table";
      if (mode != "table" && mode != "practice") throw HttpError(400, "\"mode\" must be \"table\" or \"practice\"");
      setup.practice = mode == "practice";
      setup.seed = std::uint64_t(whole(body, "seed", 0, (1LL << 53), 1));
      setup.game = std::uint64_t(whole(body, "game", 0, (1LL << 40), 0));
      setup.aim = aim_of(body);
      auto g = std::make_unique<TableGame>(setup, opt.advice);
      json state = g->state();
      const std::string id = add(std::move(g));
      res.set_content(json{{"id", id}, {"state", state}}.dump(), "application/json");
    }));
    post("/api/draw", [](TableGame& g, const json& b) {
      const std::string t = text(b, "tile");
      const int type = t.size() <= 3 ? tile_type(t) : kNoType;
      if (type == kNoType) throw HttpError(400, "\"tile\" must be a tile's name: A..X, I1..I17 or R0..R9");
      g.draw(type);
      return json::object();
    });
    post("/api/play", [](TableGame& g, const json& b) {
      g.play(int(whole(b, "x", -kMaxTiles, kMaxTiles)), int(whole(b, "y", -kMaxTiles, kMaxTiles)),
             int(whole(b, "rot", 0, 3)), text(b, "meeple", true), flag(b, "large"));
      return json::object();
    });
    post("/api/order", [](TableGame& g, const json& b) {
      std::vector<int> order;
      if (b.contains("order") && !b["order"].is_null()) {
        if (!b["order"].is_array() || b["order"].size() > kMaxCompleted)
          throw HttpError(400, "\"order\" must be a list of the completed features' indices");
        for (const json& v : b["order"]) {
          if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() >= kMaxCompleted)
            throw HttpError(400, "\"order\" must be a list of the completed features' indices");
          order.push_back(v.get<int>());
        }
      }
      g.order(order);
      return json::object();
    });
    post("/api/aim", [](TableGame& g, const json& b) {
      g.set_aim(aim_of(b));
      return json::object();
    });
    post("/api/undo", [](TableGame& g, const json&) {
      g.undo();
      return json::object();
    });
    auto get = [this](const char* path, std::function<json(TableGame&)> f, const char* download = nullptr) {
      http.Get(path, guarded([this, f, download](const httplib::Request& req, httplib::Response& res) {
        with_game(req.get_param_value("id"), res, f);
        if (download) res.set_header("Content-Disposition", std::string("attachment; filename=\"") + download + "\"");
      }));
    };
    get("/api/state", [](TableGame& g) { return g.state(); });
    get("/api/advice", [](TableGame& g) { return g.advice(); });
    get("/api/log", [](TableGame& g) { return g.log(); }, "carcsolo-game.json");
    get("/api/analysis", [](TableGame& g) { return g.analysis(); }, "carcsolo-analysis.json");

    http.set_payload_max_length(kMaxBody);
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      answer_error(res, 500, "internal error");
    });
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.body.empty()) res.set_content(json{{"error", default_message(res.status)}}.dump(), "application/json");
    });
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      if (res.status < 400 || opt.quiet) return;
      std::string what = default_message(res.status);
      const json j = json::parse(res.body, nullptr, false);
      if (j.is_object() && j.contains("error") && j["error"].is_string()) what = j["error"].get<std::string>();
      std::ostringstream line;
      line << "carcsolo serve: " << res.status << " " << printable(req.method.empty() ? "-" : req.method) << " "
           << printable(req.path.empty() ? "-" : req.path) << ": " << what << "\n";
      std::lock_guard lock(log_m);
      std::cerr << line.str() << std::flush;
    });
  }
};

Server::Server(const ServeOptions& opt) : impl_(std::make_unique<Impl>(opt)) {}
Server::~Server() = default;

int Server::bind() {
  auto& o = impl_->opt;
  if (o.port == 0) return impl_->http.bind_to_any_port(o.host);
  return impl_->http.bind_to_port(o.host, o.port) ? o.port : -1;
}

bool Server::run() { return impl_->http.listen_after_bind(); }
void Server::stop() { impl_->http.stop(); }
std::size_t Server::games_started() const { return impl_->started; }

}  // namespace carc::sim

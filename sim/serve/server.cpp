// Why one lock per game and one for the table of games: advice takes a noticeable time
// (rollouts), and a second person's game must not wait for it; the table's lock is held
// only to find, add or expire a game. Errors are values here: each handler turns its
// failure into a status and a message, and cpp-httplib's exception handler catches the
// rest, so that no request can end the process.
//
// What cpp-httplib (Debian's 0.11.4) leaves to us, and how it is held here:
// - It bounds a body only when it has a Content-Length: every route that takes a body (and
//   every other path and method that may carry one) reads it through a content reader
//   that keeps at most the route's limit and answers 413 beyond (read_body).
// - It sets SO_REUSEPORT, so a second server on a busy port would start: the listening
//   socket gets SO_REUSEADDR alone, and binding a port in use fails.
// - Its fixed pool of 8 workers is held by 8 slow clients: connections are served by a
//   pool that starts a worker whenever none is idle (up to kMaxWorkers), and a connection
//   carries one request (no keep-alive to hold a worker between requests).
// - It checks no Host or Origin: check_origin refuses what is not addressed to this server.
// - Its logger sees the body after compression: the refusal's reason travels beside it
//   (a thread-local string, the logger runs on the handler's thread).
#include "sim/serve/server.hpp"

#include <arpa/inet.h>
#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

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

// The API's routes: the path, the method, and the most a body may hold.
struct Route {
  const char* path;
  const char* method;
  std::size_t max_body;
};
constexpr Route kRoutes[] = {
    {"/", "GET", 0},
    {"/api/state", "GET", 0},
    {"/api/advice", "GET", 0},
    {"/api/log", "GET", 0},
    {"/api/analysis", "GET", 0},
    {"/api/new", "POST", kMaxBody},
    {"/api/draw", "POST", kMaxBody},
    {"/api/play", "POST", kMaxBody},
    {"/api/order", "POST", kMaxBody},
    {"/api/aim", "POST", kMaxBody},
    {"/api/undo", "POST", kMaxBody},
    {"/api/resume", "POST", kMaxLogBody},
};
// Bytes of a too-large body still read and dropped, so that the client, which sends it
// before it listens, hears the 413; beyond them the connection is closed unread.
constexpr std::size_t kDrain = 8u << 20;
// Connections served at once (a worker each); more wait for a free worker.
constexpr std::size_t kMaxWorkers = 256;

const Route* route_of(const std::string& path) {
  for (const Route& r : kRoutes)
    if (path == r.path) return &r;
  return nullptr;
}

// The reason of the refusal being answered on this thread, for the logger.
thread_local std::string t_refusal;

json body_object(const std::string& body) {
  // JSON reads -0 as 0; a coordinate or count written -0 is refused rather than guessed.
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char ch = body[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '-' && i + 1 < body.size() && body[i + 1] == '0' &&
               (i + 2 == body.size() || std::string_view("0123456789.eE").find(body[i + 2]) == std::string_view::npos)) {
      throw HttpError(400, "-0 is no whole number here: write 0");
    }
  }
  json j = json::parse(body, nullptr, false);
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
  if (!aim) throw HttpError(400, "\"aim\" must be score, goals or a goal id (got " + escape_controls(id) + ")");
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

std::string default_message(int status) {
  switch (status) {
    case 400: return "malformed request";
    case 403: return "refused: not addressed to this server";
    case 404: return "no such page";
    case 405: return "method not allowed";
    case 413: return "request body too large";
    case 414: return "request line too long";
    default: return "request refused";
  }
}


bool ip_literal(const std::string& name) {
  unsigned char buf[16];
  if (name.size() > 2 && name.front() == '[' && name.back() == ']')
    return inet_pton(AF_INET6, name.substr(1, name.size() - 2).c_str(), buf) == 1;
  return inet_pton(AF_INET, name.c_str(), buf) == 1;
}

// Connections, a worker each: a worker is started whenever none is idle, up to kMaxWorkers,
// so that a few slow clients cannot hold every worker. Idle workers stay for the next ones.
class Workers : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
    std::lock_guard lock(m_);
    jobs_.push_back(std::move(fn));
    // Each waiting worker takes one queued job: a worker more when the jobs outnumber them.
    if (jobs_.size() > idle_ && threads_.size() < kMaxWorkers) threads_.emplace_back([this] { work(); });
    cv_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::unique_lock lock(m_);
      ++idle_;
      cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // stopping, nothing left
      std::function<void()> fn = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      fn();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stop_ = false;
};

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
  int port = 0;  // once bound

  explicit Impl(const ServeOptions& o) : opt(o), page(table_page()) { routes(); }

  std::shared_ptr<Entry> find(const std::string& id) {
    if (id.empty()) throw HttpError(400, "\"id\" is missing");
    std::lock_guard lock(table_m);
    const auto it = games.find(id);
    if (it == games.end()) throw HttpError(404, "no game with this id (never started, or freed: resume it from its log)");
    return it->second;
  }

  // Frees the games no request touched for idle_seconds (docs/serve.md); adds `g`.
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

  TableSetup base_setup() const {
    TableSetup setup;
    setup.cfg = opt.game;
    setup.value_net = opt.value_net;
    return setup;
  }

  std::string resume(const json& log) {
    try {
      return add(TableGame::resume(log, base_setup(), opt.advice));
    } catch (const HttpError&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw HttpError(400, std::string("cannot resume this log: ") + e.what());
    }
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
    t_refusal = what;
    res.set_content(json{{"error", what}}.dump(), "application/json");
  }

  // Host must be an address this server is reached at: its own, or with a loopback or
  // wildcard --host, the loopback names (a wildcard also takes any address literal, never
  // a DNS name that could be rebound). A request that sends an Origin must come from a
  // page of that same address.
  void check_origin(const httplib::Request& req, bool with_body) const {
    const std::string host = lower_case(req.get_header_value("Host"));
    const std::string suffix = ":" + std::to_string(port);
    std::string name = host;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      name.erase(name.size() - suffix.size());
    else if (port != 80)
      name.clear();
    const std::string served = lower_case(opt.host);
    const bool wildcard = served == "0.0.0.0" || served == "::" || served == "[::]";
    const bool ok = !name.empty() &&
                    (name == served || name == "[" + served + "]" ||
                     ((loopback_host(served) || wildcard) &&
                      (name == "localhost" || name == "[::1]" || name.rfind("127.", 0) == 0)) ||
                     (wildcard && ip_literal(name)));
    if (!ok)
      throw HttpError(403, "Host " + (host.empty() ? std::string("(none)") : escape_controls(host).substr(0, 100)) +
                               " is not this server's address");
    if (with_body && req.has_header("Origin") && lower_case(req.get_header_value("Origin")) != "http://" + host)
      throw HttpError(403, "a request from another site's page (Origin " +
                               escape_controls(req.get_header_value("Origin")).substr(0, 100) + ") is refused");
  }

  // The body, whatever its framing (Content-Length or chunked): at most `limit` bytes kept;
  // a longer one is answered 413 (read and dropped up to kDrain bytes, so that the client
  // hears it), and no game is made of it.
  static std::string read_body(httplib::Response& res,
                               const httplib::ContentReader& reader, std::size_t limit) {
    std::string body;
    std::size_t seen = 0;
    const bool read = reader([&](const char* data, std::size_t n) {
      seen += n;
      if (seen <= limit) body.append(data, n);
      return seen <= limit + kDrain;
    });
    if (seen > limit || res.status == 413)
      throw HttpError(413, "request body too large (at most " + std::to_string(limit) + " bytes here)");
    if (!read) throw HttpError(400, "the body could not be read");
    return body;
  }

  // Every handler's failures, as statuses.
  template <class F>
  static void guarded(httplib::Response& res, F f) {
    try {
      f();
    } catch (const HttpError& e) {
      answer_error(res, e.status, e.what());
    } catch (const GameConflict& e) {
      answer_error(res, 409, e.what());
    } catch (const std::invalid_argument& e) {
      answer_error(res, 400, e.what());
    } catch (const std::exception& e) {
      answer_error(res, 500, std::string("internal error: ") + e.what());
    }
  }

  // Any request with a body: read within its route's limit, checked, then dispatched to a
  // POST route, or answered 405 (a route of another method) or 404.
  void body_request(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    guarded(res, [&] {
      const Route* r = route_of(req.path);
      const std::string body = read_body(res, reader, r && r->max_body ? r->max_body : kMaxBody);
      check_origin(req, true);
      if (!r) throw HttpError(404, "no such page");
      if (req.method != r->method) {
        res.set_header("Allow", r->method);
        throw HttpError(405, std::string("method not allowed: ") + r->path + " takes " + r->method);
      }
      post(req.path, body_object(body), res);
    });
  }

  void post(const std::string& path, const json& body, httplib::Response& res) {
    if (path == "/api/new") return start(body, res);
    if (path == "/api/resume") {
      const std::string id = resume(body);
      with_game(id, res, [&](TableGame& g) { return json{{"id", id}, {"state", g.state()}}; });
      return;
    }
    with_game(text(body, "id"), res, [&](TableGame& g) {
      json r = json::object();
      if (path == "/api/draw") {
        const std::string t = text(body, "tile");
        const int type = t.size() <= 3 ? tile_type(t) : kNoType;
        if (type == kNoType) throw HttpError(400, "\"tile\" must be a tile's name: A..X, I1..I17 or R1..R9");
        g.draw(type);
      } else if (path == "/api/play") {
        g.play(int(whole(body, "x", -kMaxTiles, kMaxTiles)), int(whole(body, "y", -kMaxTiles, kMaxTiles)),
               int(whole(body, "rot", 0, 3)), text(body, "meeple", true), flag(body, "large"));
      } else if (path == "/api/order") {
        g.order(order_of(body));
      } else if (path == "/api/aim") {
        g.set_aim(aim_of(body));
      } else if (path == "/api/undo") {
        r["undone"] = g.undo().text();
      }
      r["state"] = g.state();
      return r;
    });
  }

  static std::vector<int> order_of(const json& b) {
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
    return order;
  }

  void start(const json& body, httplib::Response& res) {
    TableSetup setup = base_setup();
    setup.cfg.colors = int(whole(body, "colors", kMinColors, kMaxColors, 3));
    setup.cfg.meeples = int(whole(body, "meeples", kMinMeeples, kMaxMeeples, 4));
    if (setup.cfg.tiles().land() < setup.cfg.colors)
      throw HttpError(400, "the tile set has " + std::to_string(setup.cfg.tiles().land()) + " land tiles, too few for " +
                               std::to_string(setup.cfg.colors) + " colours");
    const std::string mode = text(body, "mode", true);  // absent or null: at the table
    if (!mode.empty() && mode != "table" && mode != "practice")
      throw HttpError(400, "\"mode\" must be \"table\" or \"practice\"");
    if (body.contains("mode") && body["mode"].is_string() && mode.empty())
      throw HttpError(400, "\"mode\" must be \"table\" or \"practice\"");
    setup.practice = mode == "practice";
    setup.seed = std::uint64_t(whole(body, "seed", 0, (1LL << 53), 1));
    setup.game = std::uint64_t(whole(body, "game", 0, (1LL << 40), 0));
    setup.aim = aim_of(body);
    auto g = std::make_unique<TableGame>(setup, opt.advice);
    json state = g->state();
    const std::string id = add(std::move(g));
    res.set_content(json{{"id", id}, {"state", state}}.dump(), "application/json");
  }

  void get(const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      check_origin(req, false);
      const Route* r = route_of(req.path);
      if (!r) throw HttpError(404, "no such page");
      if (std::string(r->method) != "GET") {
        res.set_header("Allow", r->method);
        throw HttpError(405, std::string("method not allowed: ") + r->path + " takes " + r->method);
      }
      if (req.path == "/") return res.set_content(page, "text/html; charset=utf-8");
      const std::string id = req.get_param_value("id");
      with_game(id, res, [&](TableGame& g) {
        if (req.path == "/api/state") return g.state();
        if (req.path == "/api/advice") return g.advice();
        if (req.path == "/api/log") return g.log();
        return g.analysis();
      });
      if (req.path == "/api/log" || req.path == "/api/analysis")
        res.set_header("Content-Disposition", req.path == "/api/log" ? "attachment; filename=\"carcsolo-game.json\""
                                                                     : "attachment; filename=\"carcsolo-analysis.json\"");
    });
  }

  void routes() {
    auto with_body = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& r) {
      body_request(req, res, r);
    };
    http.Post(".*", with_body);
    http.Put(".*", with_body);
    http.Patch(".*", with_body);
    http.Delete(".*", with_body);
    http.Get(".*", [this](const httplib::Request& req, httplib::Response& res) { get(req, res); });
    http.Options(".*", [](const httplib::Request& req, httplib::Response& res) {
      const Route* r = route_of(req.path);
      if (r) res.set_header("Allow", r->method);
      answer_error(res, r ? 405 : 404, r ? "method not allowed" : "no such page");
    });
    http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
      t_refusal.clear();
      if (req.method == "PRI" || req.method == "CONNECT" || req.method == "TRACE") {  // no route, body unread
        answer_error(res, 405, "method not allowed");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });

    // Beyond kMaxLogBody with a Content-Length, cpp-httplib answers 413 itself (read_body
    // sees the status); chunked bodies are bounded by read_body.
    http.set_payload_max_length(kMaxLogBody);
    http.set_keep_alive_max_count(1);
    http.new_task_queue = [] { return new Workers; };
    // SO_REUSEADDR (a restart finds the port free at once) and not cpp-httplib's
    // SO_REUSEPORT (a second server would share the port and take half the requests).
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      answer_error(res, 500, "internal error");
    });
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (t_refusal.empty()) t_refusal = default_message(res.status);
      res.set_content(json{{"error", t_refusal}}.dump(), "application/json");
    });
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      std::string what = t_refusal.empty() ? default_message(res.status) : t_refusal;
      t_refusal.clear();
      if (res.status < 400 || opt.quiet) return;
      std::ostringstream line;
      line << "carcsolo serve: " << res.status << " " << escape_controls(req.method.empty() ? "-" : req.method.substr(0, 16))
           << " " << escape_controls(req.path.empty() ? "-" : req.path.substr(0, 120)) << ": "
           << escape_controls(what.substr(0, 300)) << "\n";
      std::lock_guard lock(log_m);
      std::cerr << line.str() << std::flush;
    });
  }
};

Server::Server(const ServeOptions& opt) : impl_(std::make_unique<Impl>(opt)) {}
Server::~Server() = default;

int Server::bind() {
  auto& o = impl_->opt;
  const int port = o.port == 0 ? impl_->http.bind_to_any_port(o.host) : impl_->http.bind_to_port(o.host, o.port) ? o.port : -1;
  impl_->port = port;
  return port;
}

std::string Server::resume(const nlohmann::json& log) {
  try {
    return impl_->resume(log);
  } catch (const HttpError& e) {
    throw std::invalid_argument(e.what());
  }
}
bool Server::run() { return impl_->http.listen_after_bind(); }
void Server::stop() { impl_->http.stop(); }
std::size_t Server::games_started() const { return impl_->started; }

}  // namespace carc::sim

// The HTTP server of `carcsolo serve` (docs/serve.md): the table page and its JSON API
// over games kept by a random id, each under its own lock, so that several games are
// played at once and never mixed.
//
// What it reads is bounded (a request body of kMaxBody bytes, a log to resume of
// kMaxLogBody, chunked or not; cpp-httplib's limits on the request line and headers), and
// so is what it keeps (at most max_games games; a game no request touched for
// `idle_seconds` is freed when a game starts). It answers only requests addressed to it
// (Host) and, with a body, from its own page or no page (Origin). A request it cannot
// serve gets an error status with {"error": "..."} and one line on stderr, its control
// characters escaped; no request stops the server.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/analysis/advice.hpp"

namespace carc::sim {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 0;                  // 0: any free port
  AdviceOptions advice;
  Config game;                   // the tile set and the large meeple of every game (colours and meeples per game)
  bool quiet = false;            // no line per refused request
  std::size_t max_games = 64;
  double idle_seconds = 2 * 3600.0;
  nlohmann::json value_net;      // the advisor's value net {hash, source}, for the logs
};

inline constexpr std::size_t kMaxBody = 16 * 1024;
inline constexpr std::size_t kMaxLogBody = 256 * 1024;  // POST /api/resume: a game log

class Server {
 public:
  explicit Server(const ServeOptions& opt);
  ~Server();
  // Binds the address; returns the port, or -1 when the address cannot be bound.
  int bind();
  // A game resumed from its log (TableGame::resume), before or while serving: its id.
  // Throws std::invalid_argument naming what does not fit.
  std::string resume(const nlohmann::json& log);
  // Serves until stop() (from another thread); false when it could not listen.
  bool run();
  void stop();
  std::size_t games_started() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True for the loopback names and addresses (localhost, 127.0.0.0/8, ::1).
bool loopback_host(const std::string& host);

}  // namespace carc::sim

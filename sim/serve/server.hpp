// The HTTP server of `carcsolo serve` (docs/serve.md): the table page and its JSON API
// over games kept by a random id, each under its own lock, so that several games are
// played at once and never mixed.
//
// What it reads is bounded (a request body of kMaxBody bytes; cpp-httplib's limits on the
// request line and headers), and so is what it keeps (at most max_games games; a game
// idle for `idle_seconds` makes room for a new one). A request it cannot serve gets an
// error status with {"error": "..."} and one line on stderr; no request stops the server.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "sim/analysis/advice.hpp"

namespace carc::sim {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 0;                  // 0: any free port
  AdviceOptions advice;
  Config game;                   // the tile set and the large meeple of every game (colours and meeples per game)
  bool quiet = false;            // no line per refused request
  std::size_t max_games = 64;
  double idle_seconds = 4 * 3600.0;
};

inline constexpr std::size_t kMaxBody = 16 * 1024;

class Server {
 public:
  explicit Server(const ServeOptions& opt);
  ~Server();
  // Binds the address; returns the port, or -1 when the address cannot be bound.
  int bind();
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

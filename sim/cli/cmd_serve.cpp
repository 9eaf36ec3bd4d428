// carcsolo serve: the table page and its API on a local HTTP server (docs/serve.md). The
// options are the advisor's (as `advise` takes them) and where to listen; the server is
// sim/serve/server.hpp. SIGINT, SIGTERM and SIGHUP are taken by this thread (sigwait), not
// by a handler: the server threads never see them, and stopping is an ordinary call.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <boost/program_options.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/errors.hpp"
#include "sim/log/verify.hpp"
#include "sim/serve/server.hpp"

namespace carc::sim {
namespace {

// The one game log a file holds (JSON Lines or one document); std::runtime_error else.
nlohmann::json read_one_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot be read");
  LogReader reader(in);
  nlohmann::json doc, more;
  long line = 0;
  if (!reader.next(doc, line)) throw std::runtime_error("holds no game log");
  if (reader.next(more, line)) throw std::runtime_error("holds more than one game log (line " + std::to_string(line) + "): resume takes one");
  return doc;
}

}  // namespace

int cmd_serve(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  std::string host = "127.0.0.1", port = "8080", resume, idle = "120";
  AdvisorOptions a;
  po::options_description d(
      "carcsolo serve: the table page. A small HTTP server whose page plays the solo variant with\n"
      "real tiles (click the tile drawn, see the advice as ghost tiles on the board, click where the\n"
      "tile went, undo) or a dealt game for practice, and gives the game log and its analysis at the\n"
      "end. It listens on the loopback address unless --host says otherwise. Ctrl-C stops it\n"
      "(exit status 130). Details: docs/serve.md.\n\n"
      "usage: carcsolo serve [options]   (then open the address it prints)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("host", po::value(&host)->default_value(host), "address to listen on; anything but loopback lets other machines in (a warning says so)")
      ("port", po::value(&port)->default_value(port), "port, 0..65535 (0: a free one, printed)");
  a.add_to(d, "the tile set of every game: base, base+inns, base+river, base+inns+river (expansions.md) or a tile-set file (docs/tileset-format.md)",
           "every game's colours also have the Inns & Cathedrals large meeple");
  d.add_options()
      ("resume", po::value(&resume), "start with the game of this log (docs/game-log.md: a game's log from the page, finished or not, or `advise --log`'s), replayed to where it ends; its address is printed")
      ("idle-minutes", po::value(&idle)->default_value(idle), "a game no request touched for this long is freed when a game starts, 1..100000 (the page keeps its log and resumes it)")
      ("quiet,q", "no line on stderr per refused request");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo serve --port 8080   (then open http://127.0.0.1:8080/)\n";
    return 0;
  }
  ServeOptions opt;
  opt.host = host;
  opt.port = int(parse_count("port", port, 0, 65535));
  opt.quiet = vm.count("quiet") > 0;
  opt.idle_seconds = 60.0 * double(parse_count("idle-minutes", idle, 1, 100000));
  RunConfig rc;  // the set, checked against the fewest colours a game may have
  rc.colors = kMinColors;
  select_value_net("", rc);
  opt.advice = a.resolve(vm, rc);
  opt.value_net = {{"hash", rc.value_net_hash}, {"source", rc.value_net_source}};
  opt.game = rc.game_config();
  if (host.empty() || host.size() > 255) throw UsageError("--host must name an address");

  // Blocked before any thread starts, so that every thread inherits the mask.
  sigset_t stops;
  sigemptyset(&stops);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, s);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);

  Server server(opt);
  std::string resumed;  // the game of --resume
  if (!resume.empty()) {
    nlohmann::json doc;
    try {
      doc = read_one_log(resume);
    } catch (const std::runtime_error& e) {
      throw UsageError("--resume " + resume + ": " + e.what());
    }
    try {
      resumed = server.resume(doc);
    } catch (const std::invalid_argument& e) {
      throw UsageError("--resume " + resume + ": " + e.what());
    }
  }
  const int bound = server.bind();
  if (bound <= 0)
    throw UsageError("cannot listen on " + host + " port " + port + " (in use, not an address of this machine, or not allowed)");
  const std::string shown = host.find(':') != std::string::npos && host[0] != '[' ? "[" + host + "]" : host;
  if (!loopback_host(host))
    std::cerr << "carcsolo serve: warning: listening on " << host
              << ", not loopback: other machines can reach this server and play on it (no password)\n";
  std::cout << "carcsolo serve: listening on http://" << shown << ":" << bound << "/ (Ctrl-C stops it)" << std::endl;
  if (!resumed.empty())
    std::cout << "carcsolo serve: the game of " << resume << " is at http://" << shown << ":" << bound << "/?game=" << resumed
              << std::endl;

  std::atomic<bool> ended{false}, listened{true};
  std::thread serving([&] {
    listened = server.run();
    ended = true;
  });
  int signal = 0;
  const timespec tick{0, 200 * 1000 * 1000};
  while (!ended) {
    const int s = sigtimedwait(&stops, nullptr, &tick);
    if (s > 0) {
      signal = s;
      break;
    }
  }
  // A stop before the serving thread has begun to listen is lost: again until it ends.
  while (!ended) {
    server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  serving.join();
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
  if (!signal) throw InternalError("the server stopped listening by itself");
  return report_interrupted("serve", std::to_string(server.games_started()) + " games started", "");
}

}  // namespace carc::sim

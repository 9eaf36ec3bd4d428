// The header line of a positions file (docs/positions-format.md): JSON, padded with spaces
// so that the rows start at a multiple of 64 bytes. The header's counts are known only at
// the end, so the line is first written at the length its largest counts could take and
// written again over itself before the file is committed. It holds no thread count, timing
// or command line: the file is a function of its options (and the build) alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/driver/positions.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

inline constexpr std::size_t kHeaderAlign = 64;

// Keys in the order docs/positions-format.md lists them.
using Header = nlohmann::ordered_json;

// The header of the games of `req` (of configuration `rc`), `games` played, `rows` written.
Header positions_header(const PositionsRequest& req, const RunConfig& rc, const ProgramInfo& program,
                        std::uint64_t games, std::uint64_t rows, bool partial);

// The header line, spaces before its newline up to `length` bytes in all (an InternalError
// when it is longer).
std::string positions_header_line(const Header& h, std::size_t length);

// The bytes the header line takes: room for its largest counts, rounded up to kHeaderAlign.
std::size_t positions_header_room(const PositionsRequest& req, const RunConfig& rc, const ProgramInfo& program);

}  // namespace carc::sim

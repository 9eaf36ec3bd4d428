// The table page's script in two parts (page_play.cpp, page_keep.cpp; page.cpp puts them in
// one <script>, in this order). Plain text; it expects the page's markup and its
// #page-data JSON (the pictures, the colours, the aims, the tile names in catalogue order).
#pragma once

namespace carc::sim {

extern const char* const kTablePlayScript;
extern const char* const kTableKeepScript;

}  // namespace carc::sim

// JSON text to an ordered_json (key order kept, for the writer) in time linear in
// the text, for glTF documents and rootbake.json alike.
#pragma once

#include "rootbake/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace rootbake::io {

// nlohmann's own parser adds each key with ordered_map::operator[], which scans the
// object's keys: one object of n keys costs n^2 (200k keys: a minute). This one
// appends keys and finds repeats with a hash set, so any shape costs O(text).
// A key given twice in one object is an error naming the object's path and the key
// (glTF 2.0, JSON encoding: keys must be unique). Errors carry no file name.
Result<nlohmann::ordered_json> parseOrderedJson(std::string_view text);

// The same document through simdjson (json_fast.cpp), or nothing where it cannot say
// what parseOrderedJson would: any error, a repeated key, a number simdjson does not
// hold (beyond 64 bits, out of double's range). parseOrderedJson tries it first.
std::optional<nlohmann::ordered_json> parseOrderedJsonFast(std::string_view text);

}  // namespace rootbake::io

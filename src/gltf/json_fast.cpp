// The glTF JSON read with simdjson (Debian's libsimdjson-dev), then copied into the
// ordered document the validator, the converter and the splicing writer read: the
// pack's 444 KB of JSON in 1.7 ms instead of nlohmann's character-at-a-time lexer.
#include "gltf/json_parse.h"

#include <simdjson.h>

#include <unordered_set>

namespace rootbake {

namespace {

using OrderedJson = nlohmann::ordered_json;
namespace dom = simdjson::dom;

// Objects up to this many keys look for a repeated key by scanning, larger ones hash.
constexpr std::size_t kScanKeys = 16;

bool hasRepeatedKey(const OrderedJson::object_t& object) {
    if (object.size() <= kScanKeys) {
        for (auto i = object.begin(); i != object.end(); ++i)
            for (auto j = object.begin(); j != i; ++j)
                if (i->first == j->first) return true;
        return false;
    }
    std::unordered_set<std::string_view> keys;
    keys.reserve(object.size());
    for (const auto& [key, value] : object)
        if (!keys.insert(key).second) return true;
    return false;
}

// False where the slow path must decide (a repeated key: its message names the path).
bool copyInto(dom::element from, OrderedJson& to) {
    switch (from.type()) {
        case dom::element_type::ARRAY: {
            const dom::array array = from.get_array().value_unsafe();
            to = OrderedJson::array();
            auto& items = to.get_ref<OrderedJson::array_t&>();
            items.reserve(array.size());
            for (dom::element item : array)
                if (!copyInto(item, items.emplace_back())) return false;
            return true;
        }
        case dom::element_type::OBJECT: {
            const dom::object object = from.get_object().value_unsafe();
            to = OrderedJson::object();
            auto& members = to.get_ref<OrderedJson::object_t&>();
            members.reserve(object.size());
            for (dom::key_value_pair member : object) {
                // std::vector's emplace_back: ordered_map's own would scan the keys.
                members.std::vector<OrderedJson::object_t::value_type>::emplace_back(std::string(member.key), nullptr);
                if (!copyInto(member.value, members.back().second)) return false;
            }
            return !hasRepeatedKey(members);
        }
        // As nlohmann's lexer reads them: an integer without a sign is unsigned, one with a
        // sign signed, except -0, which simdjson cannot tell from 0 (both paths make it 0).
        case dom::element_type::INT64: {
            const std::int64_t v = from.get_int64().value_unsafe();
            if (v >= 0)
                to = std::uint64_t(v);
            else
                to = v;
            return true;
        }
        case dom::element_type::UINT64: to = from.get_uint64().value_unsafe(); return true;
        case dom::element_type::DOUBLE: to = from.get_double().value_unsafe(); return true;
        case dom::element_type::STRING: to = std::string(from.get_string().value_unsafe()); return true;
        case dom::element_type::BOOL: to = from.get_bool().value_unsafe(); return true;
        case dom::element_type::NULL_VALUE: to = nullptr; return true;
    }
    return false;
}

}  // namespace

std::optional<OrderedJson> parseOrderedJsonFast(std::string_view text) {
    thread_local dom::parser parser;  // its buffers serve the next asset of this worker
    dom::element root;
    if (parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
    OrderedJson document;
    if (!copyInto(root, document)) return std::nullopt;
    return document;
}

}  // namespace rootbake

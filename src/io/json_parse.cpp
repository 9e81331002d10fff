// JSON text to an ordered_json in time linear in the text: simdjson first (json_fast.cpp),
// nlohmann's SAX parser where simdjson cannot say what it would (a repeated key's message).
#include "io/json_parse.h"

#include <memory>
#include <unordered_set>

namespace rootbake::io {

namespace {

using OrderedJson = nlohmann::ordered_json;

// nlohmann's SAX interface, building what its DOM parser builds, but appending keys.
class OrderedJsonBuilder {
public:
    explicit OrderedJsonBuilder(OrderedJson& root) : root_(root) {}

    bool null() { return put(nullptr); }
    bool boolean(bool v) { return put(v); }
    // -0 is 0, unsigned, as the fast path (json_fast.cpp) reads it.
    bool number_integer(std::int64_t v) { return v == 0 ? put(std::uint64_t{0}) : put(v); }
    bool number_unsigned(std::uint64_t v) { return put(v); }
    bool number_float(double v, const std::string&) { return put(v); }
    bool string(std::string& v) { return put(std::move(v)); }
    bool binary(OrderedJson::binary_t&) { return false; }  // not in JSON text

    bool start_object(std::size_t) {
        open_.push_back({place(OrderedJson::value_t::object), nullptr});
        return true;
    }
    bool key(std::string& k) {
        Open& top = open_.back();
        auto& object = top.value->get_ref<OrderedJson::object_t&>();
        if (repeated(top, object, k)) {
            error_ = pathOfOpen() + ": duplicate key \"" + k + "\" (keys of a JSON object must be unique)";
            return false;
        }
        object.emplace_back(std::move(k), nullptr);  // std::vector's: ordered_map::emplace would scan
        pending_ = &object.back().second;
        return true;
    }
    bool end_object() {
        open_.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        open_.push_back({place(OrderedJson::value_t::array), nullptr});
        return true;
    }
    bool end_array() {
        open_.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
        // parsing object key - unexpected ']'; expected string literal" -> "line 1, column 2: object
        // key: unexpected ']'; expected string literal": where, then what was read, within a line.
        error_ = e.what();
        if (const auto close = error_.find("] ");
            error_.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
            error_.erase(0, close + 2);
        const std::string at = "parse error at ", syntax = "syntax error while parsing ";
        if (error_.rfind(at, 0) == 0) error_.erase(0, at.size());
        if (const auto from = error_.find(syntax); from != std::string::npos)
            if (const auto dash = error_.find(" - ", from); dash != std::string::npos) {
                error_.replace(dash, 3, ": ");
                error_.erase(from, syntax.size());
            }
        return false;
    }

    const std::string& error() const { return error_; }

private:
    struct Open {
        OrderedJson* value;
        // An object's keys once it has more than kScanKeys: below, a scan is cheaper.
        std::unique_ptr<std::unordered_set<std::string>> keys;
    };
    static constexpr std::size_t kScanKeys = 16;

    static bool repeated(Open& top, const OrderedJson::object_t& object, const std::string& k) {
        if (!top.keys) {
            for (const auto& [existing, value] : object)
                if (existing == k) return true;
            if (object.size() < kScanKeys) return false;
            top.keys = std::make_unique<std::unordered_set<std::string>>();
            for (const auto& [existing, value] : object) top.keys->insert(existing);
        }
        return !top.keys->insert(k).second;
    }

    // Where the next value goes: the document, the open array's end, or the key just read.
    // Pointers stay valid: only the innermost open container grows.
    template <class V>
    OrderedJson* place(V&& v) {
        if (open_.empty()) {
            root_ = OrderedJson(std::forward<V>(v));
            return &root_;
        }
        OrderedJson& top = *open_.back().value;
        if (top.is_array()) {
            auto& array = top.get_ref<OrderedJson::array_t&>();
            array.emplace_back(std::forward<V>(v));
            return &array.back();
        }
        *pending_ = OrderedJson(std::forward<V>(v));
        return pending_;
    }
    template <class V>
    bool put(V&& v) {
        place(std::forward<V>(v));
        return true;
    }

    // "animations[2].extras" of the innermost open object, by the last member of each open container.
    std::string pathOfOpen() const {
        std::string path;
        for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
            const OrderedJson& v = *open_[i].value;
            if (v.is_array()) {
                path += "[" + std::to_string(v.size() - 1) + "]";
            } else {
                if (!path.empty()) path += '.';
                path += v.get_ref<const OrderedJson::object_t&>().back().first;
            }
        }
        return path.empty() ? "(root)" : path;
    }

    OrderedJson& root_;
    std::vector<Open> open_;
    OrderedJson* pending_ = nullptr;
    std::string error_;
};

}  // namespace

Result<nlohmann::ordered_json> parseOrderedJson(std::string_view text) {
    if (std::optional<OrderedJson> fast = parseOrderedJsonFast(text)) return std::move(*fast);
    OrderedJson document;
    OrderedJsonBuilder builder(document);
    if (!OrderedJson::sax_parse(text.begin(), text.end(), &builder)) return Error{builder.error()};
    return document;
}

}  // namespace rootbake::io

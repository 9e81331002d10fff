// JSON parsing and typed access, every error naming its JSON path.
#include "gltf/internal.h"
#include "io/json_parse.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <unordered_set>

namespace rootbake {

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

}  // namespace rootbake

namespace rootbake::gltf {

std::string Where::str() const {
    // Paths are built by our code, a handful of levels deep.
    const Where* chain[32];
    int n = 0;
    for (const Where* w = this; w && n < 32; w = w->parent_) chain[n++] = w;
    std::string out;
    for (int i = n - 1; i >= 0; --i) {
        const Where* w = chain[i];
        if (w->key_ == nullptr) {
            out += '[';
            out += std::to_string(w->index_);
            out += ']';
        } else if (*w->key_ != '\0') {
            if (!out.empty()) out += '.';
            out += w->key_;
        }
    }
    return out;
}

Error fail(const Where& at, const std::string& what) {
    std::string where = at.str();
    if (where.empty()) where = "(root)";
    return Error{where + ": " + what};
}

namespace {

// The deepest nesting of arrays and objects, by a scan that skips strings whole (memchr
// to the quote that closes each): nlohmann parses iteratively, but dump() (the writer) recurses.
int nestingDepth(Bytes text) {
    const char* p = reinterpret_cast<const char*>(text.data());
    const char* const end = p + text.size();
    int depth = 0, deepest = 0;
    while (p < end) {
        const char c = *p++;
        if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        } else if (c == '"') {
            // The closing quote is the first after an even run of backslashes (none counts).
            for (bool closed = false; !closed;) {
                const auto* quote = static_cast<const char*>(std::memchr(p, '"', std::size_t(end - p)));
                if (!quote) return deepest;
                const char* run = quote;
                while (run > p && run[-1] == '\\') --run;
                closed = (quote - run) % 2 == 0;
                p = quote + 1;
            }
        }
    }
    return deepest;
}

std::string typeName(const Json& v) {
    if (v.is_number_integer()) return "an integer";
    if (v.is_number_float()) return "a number";
    switch (v.type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::boolean:
            return "a boolean";
        case Json::value_t::string:
            return "a string";
        case Json::value_t::array:
            return "an array";
        case Json::value_t::object:
            return "an object";
        default:
            return "a value";
    }
}

std::string expected(const char* what, const Json& v) {
    return std::string("expected ") + what + ", got " + typeName(v);
}

}  // namespace

Result<Json> parseJson(Bytes text, int maxDepth) {
    const Where at("JSON");
    if (text.empty()) return fail(at, "empty");
    if (text.size() >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF)
        return fail(at, "starts with a UTF-8 byte order mark (glTF JSON must not have one)");
    if (nestingDepth(text) > maxDepth)
        return fail(at, "nested deeper than " + std::to_string(maxDepth) + " levels");
    Result<Json> parsed =
        parseOrderedJson(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
    if (!parsed) return fail(at, parsed.error().message);
    Json document = std::move(*parsed);
    if (!document.is_object()) return fail(at, expected("an object at the top level", document));
    return document;
}

const Json* member(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

namespace {

Status missing(const Where& at, const char* key) {
    return fail(Where(at, key), "missing (required)");
}

}  // namespace

Status getObject(const Json& object, const Where& at, const char* key, bool required, const Json*& out) {
    const Json* v = member(object, key);
    if (!v) return required ? missing(at, key) : Ok{};
    if (!v->is_object()) return fail(Where(at, key), expected("an object", *v));
    out = v;
    return Ok{};
}

Status getArray(const Json& object, const Where& at, const char* key, bool required, const Json*& out) {
    const Json* v = member(object, key);
    if (!v) return required ? missing(at, key) : Ok{};
    if (!v->is_array()) return fail(Where(at, key), expected("an array", *v));
    out = v;
    return Ok{};
}

Status getString(const Json& object, const Where& at, const char* key, bool required,
                 const std::string*& out) {
    const Json* v = member(object, key);
    if (!v) return required ? missing(at, key) : Ok{};
    if (!v->is_string()) return fail(Where(at, key), expected("a string", *v));
    out = &v->get_ref<const std::string&>();
    return Ok{};
}

Status getBool(const Json& object, const Where& at, const char* key, bool& out) {
    const Json* v = member(object, key);
    if (!v) return Ok{};
    if (!v->is_boolean()) return fail(Where(at, key), expected("a boolean", *v));
    out = v->get<bool>();
    return Ok{};
}

Status toUint(const Json& value, const Where& at, std::uint64_t& out) {
    if (value.is_number_unsigned()) {
        out = value.get<std::uint64_t>();
        return Ok{};
    }
    if (value.is_number_integer()) return fail(at, "negative (" + value.dump() + ")");
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (d < 0) return fail(at, "negative (" + value.dump() + ")");
        // 2^53: beyond it a double no longer holds every integer.
        if (d > 9007199254740992.0) return fail(at, "too large (" + value.dump() + ")");
        if (std::floor(d) != d) return fail(at, "not an integer (" + value.dump() + ")");
        out = static_cast<std::uint64_t>(d);
        return Ok{};
    }
    return fail(at, expected("a non-negative integer", value));
}

Status getUint(const Json& object, const Where& at, const char* key, bool required, std::uint64_t& out) {
    const Json* v = member(object, key);
    if (!v) return required ? missing(at, key) : Ok{};
    return toUint(*v, Where(at, key), out);
}

Status toIndex(const Json& value, const Where& at, std::size_t count, const char* noun, int& out) {
    std::uint64_t index = 0;
    ROOTBAKE_TRY(toUint(value, at, index));
    if (index >= count)
        return fail(at, "index " + std::to_string(index) + " out of range (" + std::to_string(count) + " " +
                            noun + ")");
    out = static_cast<int>(index);  // count came from a vector: fits
    return Ok{};
}

Status getIndex(const Json& object, const Where& at, const char* key, bool required, std::size_t count,
                const char* noun, int& out) {
    out = -1;
    const Json* v = member(object, key);
    if (!v) return required ? missing(at, key) : Ok{};
    return toIndex(*v, Where(at, key), count, noun, out);
}

Status getNumbers(const Json& object, const Where& at, const char* key, std::size_t n, double* out) {
    const Json* v = member(object, key);
    if (!v) return Ok{};
    const Where here(at, key);
    if (!v->is_array()) return fail(here, expected("an array", *v));
    if (v->size() != n)
        return fail(here, std::to_string(v->size()) + " numbers (" + std::to_string(n) + " expected)");
    for (std::size_t i = 0; i < n; ++i) {
        const Json& e = (*v)[i];
        if (!e.is_number()) return fail(Where(here, i), expected("a number", e));
        out[i] = e.get<double>();
        if (!std::isfinite(out[i])) return fail(Where(here, i), "not finite");
    }
    return Ok{};
}

Status getCollection(const Json& document, const char* key, const Json*& out) {
    out = nullptr;
    ROOTBAKE_TRY(getArray(document, kRoot, key, false, out));
    if (!out) return Ok{};
    const Where here(kRoot, key);
    for (std::size_t i = 0; i < out->size(); ++i) {
        const Json& e = (*out)[i];
        if (!e.is_object()) return fail(Where(here, i), expected("an object", e));
    }
    return Ok{};
}

std::size_t sizeOf(const Json* array) {
    return array ? array->size() : 0;
}

}  // namespace rootbake::gltf

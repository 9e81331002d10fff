// JSON parsing and typed access, every error naming its JSON path.
#include "gltf/internal.h"
#include "io/json_parse.h"

#include <cmath>
#include <cstring>
#include <limits>

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
        io::parseOrderedJson(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
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

// The rewritten JSON as the input's text with only what changed replaced: a value
// equal to the original keeps its bytes (indentation, key order, number spelling);
// an object that kept its keys in order (new ones after them) and a non-empty array
// that kept its length (new elements after them) are spliced member by member; any
// other change is printed afresh, in the style of its neighbours. The text is the
// one the loader parsed into `original`, so the scanner below trusts its syntax.
#include "write/container.h"

#include <algorithm>

namespace rootbake::write {

using Json = nlohmann::ordered_json;

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpace(std::string_view t, std::size_t i) {
    while (i < t.size() && isSpace(t[i])) ++i;
    return i;
}

// i at the opening quote; returns the index after the closing one.
std::size_t skipString(std::string_view t, std::size_t i) {
    for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
    return std::min(i + 1, t.size());
}

// i at a value's first byte; returns the index after its last.
std::size_t skipValue(std::string_view t, std::size_t i) {
    if (i >= t.size()) return t.size();
    if (t[i] == '"') return skipString(t, i);
    if (t[i] != '{' && t[i] != '[') {
        while (i < t.size() && !isSpace(t[i]) && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
        return i;
    }
    int depth = 0;
    do {  // bounded: gltf::Asset::jsonText may not be the text of gltf::Asset::document, though it should
        if (t[i] == '"') {
            i = skipString(t, i);
            continue;
        }
        if (t[i] == '{' || t[i] == '[') ++depth;
        if (t[i] == '}' || t[i] == ']') --depth;
        ++i;
    } while (depth > 0 && i < t.size());
    return i;
}

// The indentation after the last line break of a run of whitespace ("" when it has none).
std::string_view indentAfterBreak(std::string_view space) {
    const std::size_t at = space.rfind('\n');
    return at == std::string_view::npos ? std::string_view() : space.substr(at + 1);
}

class Splicer {
public:
    explicit Splicer(std::string_view text) : text_(text) {}

    // The root text_[begin, end).
    std::string run(std::size_t begin, std::size_t end, const Json& original, const Json& edited) {
        const std::size_t lf = text_.substr(begin, end - begin).find('\n');
        compact_ = lf == std::string_view::npos;
        if (!compact_ && text_[begin + lf - 1] == '\r') newline_ = "\r\n";
        if (!compact_ && original.is_object() && !original.empty()) {
            // The root's members' indentation is one unit: "  ", "    " or "\t".
            const std::string_view unit =
                indentAfterBreak(text_.substr(begin + 1, skipSpace(text_, begin + 1) - begin - 1));
            if (!unit.empty() && unit.find_first_not_of(unit[0]) == std::string_view::npos &&
                (unit[0] == ' ' || unit[0] == '\t'))
                unitChar_ = unit[0], unitWidth_ = int(unit.size());
        }
        value(begin, end, original, edited, "");
        return std::move(out_);
    }

private:
    std::string_view text_;
    std::string out_;
    bool compact_ = true;
    std::string_view newline_ = "\n";
    char unitChar_ = ' ';
    int unitWidth_ = 2;

    // The value text_[begin, end), whose line is indented by lineIndent.
    void value(std::size_t begin, std::size_t end, const Json& was, const Json& now,
               std::string_view lineIndent) {
        if (was == now) {
            out_.append(text_.substr(begin, end - begin));
        } else if (was.is_object() && now.is_object() && !was.empty() && keepsKeys(was, now)) {
            members(begin, end, was, now, lineIndent);
        } else if (was.is_array() && now.is_array() && !was.empty() && now.size() >= was.size()) {
            members(begin, end, was, now, lineIndent);
        } else {
            print(now, lineIndent);
        }
    }

    // now's keys start with was's, in the same order.
    static bool keepsKeys(const Json& was, const Json& now) {
        if (now.size() < was.size()) return false;
        auto n = now.items().begin();
        for (const auto& w : was.items()) {
            if (w.key() != n.key()) return false;
            ++n;
        }
        return true;
    }

    // The members (or elements) of a non-empty object (or array) one by one, then the new ones
    // before its closing bracket, each separated as its last old one was from what preceded it.
    void members(std::size_t begin, std::size_t end, const Json& was, const Json& now,
                 std::string_view lineIndent) {
        const bool object = was.is_object();
        std::size_t copied = begin, i = begin + 1;
        std::string_view separator, colon;  // of the last old member: before its key, between key and value
        auto n = now.begin();
        for (auto w = was.begin(); w != was.end(); ++w, ++n) {
            const std::size_t start = skipSpace(text_, i);
            separator = text_.substr(i, start - i);
            std::size_t at = start;
            if (object) {
                const std::size_t keyEnd = skipString(text_, start);
                at = skipSpace(text_, skipSpace(text_, keyEnd) + 1);  // past the ':'
                colon = text_.substr(keyEnd, at - keyEnd);
            }
            const std::size_t valueEnd = skipValue(text_, at);
            out_.append(text_.substr(copied, at - copied));
            const std::string_view broken = indentAfterBreak(separator);
            value(at, valueEnd, *w, *n, separator.find('\n') != std::string_view::npos ? broken : lineIndent);
            copied = valueEnd;
            i = skipSpace(text_, valueEnd) + 1;  // past the ',' (or the closing bracket, at the end)
        }
        const std::string_view memberIndent =
            separator.find('\n') != std::string_view::npos ? indentAfterBreak(separator) : lineIndent;
        for (auto k = n; k != now.end(); ++k) {
            out_ += ',';
            out_.append(separator);
            if (object) {
                out_ += Json(k.key()).dump(-1, ' ', false, Json::error_handler_t::strict);
                out_.append(colon);
            }
            print(*k, memberIndent);
        }
        out_.append(text_.substr(copied, end - copied));
    }

    // A value printed afresh: on one line in a file on one line, else indented by the file's unit
    // from the line it starts on.
    void print(const Json& v, std::string_view lineIndent) {
        if (compact_) {
            out_ += v.dump(-1, ' ', false, Json::error_handler_t::strict);
            return;
        }
        const std::string printed = v.dump(unitWidth_, unitChar_, false, Json::error_handler_t::strict);
        for (char c : printed) {  // strings print their line breaks escaped: each '\n' is the layout's
            if (c != '\n') {
                out_ += c;
                continue;
            }
            out_ += newline_;
            out_.append(lineIndent);
        }
    }
};

}  // namespace

std::string spliceJson(std::string_view text, bool keepTrailing, const Json& original, const Json& edited) {
    const std::size_t begin = skipSpace(text, 0);
    const std::size_t end = skipValue(text, begin);
    std::string out(text.substr(0, begin));
    out += Splicer(text).run(begin, end, original, edited);
    if (keepTrailing) out.append(text.substr(end));
    return out;
}

}  // namespace rootbake::write

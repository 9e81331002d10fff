// The splicing writer: a baked .gltf is the input's text with only the edited objects
// replaced and the new ones inserted. Checked against an independent scanner of the
// top-level layout (below, a character state machine, not the writer's scanner) and
// against the whole-document printer the writer used before (RewriteOptions::reprint):
// both outputs must parse to the same JSON.
#include "gltf/asset.h"
#include "gltf/internal.h"
#include "write/container.h"
#include "support.h"
#include "pipeline/bake.h"

#include "biped.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>

using namespace rootbake;
using namespace rootbake::write;
using namespace rootbake::pipeline;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

struct Span {
    std::size_t begin = 0, end = 0;
};

// Where a top-level member's value is in the text and, for an array, each element.
struct TopValue {
    std::string key;
    Span value;
    std::vector<Span> elements;  // of an array
};

// The root's members, by a scan of characters that tracks strings and nesting depth.
std::vector<TopValue> scanTopLevel(std::string_view t) {
    std::vector<TopValue> out;
    int depth = 0;
    bool inString = false, escaped = false, wantValue = false;
    std::size_t stringStart = 0, lastSolid = 0;
    std::string lastString;
    bool inElement = false;
    auto solid = [&](std::size_t i) {  // a byte of a value at depth 1 or 2
        if (depth == 1 && wantValue) {
            out.back().value.begin = i;
            wantValue = false;
        }
        if (depth == 2 && !inElement && t[out.back().value.begin] == '[') {
            out.back().elements.push_back({i, i});
            inElement = true;
        }
        lastSolid = i;
    };
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (inString) {
            lastSolid = i;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"') {
                inString = false;
                lastString = std::string(t.substr(stringStart + 1, i - stringStart - 1));
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (c == ':' && depth == 1) {
            out.push_back({lastString, {}, {}});
            wantValue = true;
            continue;
        }
        const bool closes = c == '}' || c == ']';
        if ((c == ',' || closes) && depth == 2 && inElement) {
            out.back().elements.back().end = lastSolid + 1;
            inElement = false;
        }
        if ((c == ',' || closes) && depth == 1 && !out.empty() && out.back().value.end == 0)
            out.back().value.end = lastSolid + 1;
        if (closes) {
            --depth;
            lastSolid = i;
            continue;
        }
        if (c == ',') continue;
        solid(i);
        if (c == '"') inString = true, stringStart = i;
        if (c == '{' || c == '[') ++depth;
    }
    return out;
}

std::string_view cut(std::string_view t, std::size_t from, std::size_t to) {
    return t.substr(from, to - from);
}

// Every byte of `out` outside the top-level values (and array elements) whose JSON changed,
// and outside new ones, is the input's: keys, separators, indentation and unchanged values.
// New members and elements follow the separator of the last old one (the file's style).
void checkOnlyEditsDiffer(std::string_view in, std::string_view out) {
    const Json inJson = Json::parse(in), outJson = Json::parse(out);
    const std::vector<TopValue> a = scanTopLevel(in), b = scanTopLevel(out);
    REQUIRE(a.size() == inJson.size());
    REQUIRE(b.size() == outJson.size());
    REQUIRE(b.size() >= a.size());
    std::size_t inAt = 0, outAt = 0;  // ends of the last values compared
    for (std::size_t m = 0; m < a.size(); ++m) {
        CAPTURE(a[m].key);
        REQUIRE(b[m].key == a[m].key);
        CHECK(cut(in, inAt, a[m].value.begin) == cut(out, outAt, b[m].value.begin));
        const Json& was = inJson[a[m].key];
        const Json& now = outJson[b[m].key];
        const std::string_view inValue = cut(in, a[m].value.begin, a[m].value.end);
        const std::string_view outValue = cut(out, b[m].value.begin, b[m].value.end);
        if (was == now) {
            CHECK(inValue == outValue);
        } else if (was.is_array() && now.is_array() && !was.empty() && now.size() >= was.size()) {
            const std::vector<Span>& x = a[m].elements;
            const std::vector<Span>& y = b[m].elements;
            REQUIRE(x.size() == was.size());
            REQUIRE(y.size() == now.size());
            std::size_t i0 = a[m].value.begin, o0 = b[m].value.begin;
            for (std::size_t e = 0; e < x.size(); ++e) {
                CAPTURE(e);
                CHECK(cut(in, i0, x[e].begin) == cut(out, o0, y[e].begin));
                if (was[e] == now[e]) CHECK(cut(in, x[e].begin, x[e].end) == cut(out, y[e].begin, y[e].end));
                i0 = x[e].end, o0 = y[e].end;
            }
            const std::string_view inTail = cut(in, i0, a[m].value.end);
            const std::string_view outTail = cut(out, y.back().end, b[m].value.end);
            CHECK(outTail == inTail);
            if (y.size() > x.size()) {  // appended: separated like the last old element
                const std::string_view lastGap =
                    cut(in, x.size() > 1 ? x[x.size() - 2].end : a[m].value.begin, x.back().begin);
                const std::string_view gap = cut(out, y[x.size() - 1].end, y[x.size()].begin);
                CHECK(gap.substr(1) == lastGap.substr(1));  // after the ',' (or the '[')
            }
        }
        inAt = a[m].value.end, outAt = b[m].value.end;
    }
    // New members go right after the last old one, before the root's closing brace.
    const std::string_view inTail = in.substr(inAt);
    const std::string_view outTail = out.substr(b.size() > a.size() ? b.back().value.end : outAt);
    CHECK(outTail == inTail);
}

std::string textOf(const std::vector<std::uint8_t>& bytes) {
    return {bytes.begin(), bytes.end()};
}

std::vector<std::uint8_t> fileBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A bake's .gltf text, spliced or (reprint) printed whole as the writer did before.
Result<std::string> bakeText(const gltf::Asset& asset, bool reprint, bool keepSource = false,
                             const char* rootBone = "") {
    BakeSettings settings;
    settings.rootBone = rootBone;
    settings.rewrite.container = Container::Gltf;
    settings.rewrite.binName = "out.bin";
    settings.rewrite.reprint = reprint;
    settings.rewrite.keepSource = keepSource;
    settings.inputName = "in.gltf";
    settings.outputName = "out.gltf";
    auto baked = bakeAsset(asset, {}, settings);
    if (!baked) return baked.error();
    return textOf(joinPieces(baked->asset.main));
}

// The biped's JSON printed oddly, as a hand-edited file might be: tabs and CRLF, a space
// before each colon, numbers spelled with exponents, arrays of numbers on one line.
void printOddly(const Json& v, const std::string& indent, std::string& out) {
    if (v.is_object() || (v.is_array() && !v.empty() && !v[0].is_number())) {
        const bool object = v.is_object();
        out += object ? "{" : "[";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += first ? "\r\n" : ",\r\n";
            out += indent + "\t";
            if (object) out += Json(it.key()).dump() + " :\t";
            printOddly(*it, indent + "\t", out);
            first = false;
        }
        out += v.empty() ? "" : "\r\n" + indent;
        out += object ? "}" : "]";
    } else if (v.is_array()) {
        out += "[ ";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += " , ";
            printOddly(v[i], indent, out);
        }
        out += " ]";
    } else if (v.is_number_float()) {
        char text[40];
        std::snprintf(text, sizeof text, "%.9E", v.get<double>());
        out += text;
    } else {
        out += v.dump();
    }
}

gltf::Asset loadText(const std::string& text, const std::string& name) {
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    auto asset = gltf::loadAssetFromMemory(bytes, name, {});
    INFO(name << ": " << (asset ? "" : asset.error().message));
    REQUIRE(asset.ok());
    return std::move(*asset);
}

}  // namespace

TEST_CASE(
    "splice: equal values keep their bytes, changed members, new keys and elements in the file's style") {
    const std::string text =
        "{ \"a\" : 1.50E0,\n  \"b\": [ {\"x\":1}, {\"x\" :2} ],\n  \"c\": {\"k\": 0.10}\n}\n";
    const Json original = Json::parse(text);
    Json edited = original;
    edited["b"][1]["x"] = 3;
    edited["b"].push_back(Json{{"y", true}});
    edited["z"] = Json::array({1, 2});
    const std::string out = spliceJson(text, true, original, edited);
    CHECK(out ==
          "{ \"a\" : 1.50E0,\n  \"b\": [ {\"x\":1}, {\"x\" :3}, {\n    \"y\": true\n  } ],\n  \"c\": {\"k\": "
          "0.10},\n"
          "  \"z\": [\n    1,\n    2\n  ]\n}\n");
    CHECK(Json::parse(out) == edited);

    // One line stays one line; a removed key prints its object afresh; without keepTrailing the
    // whitespace after the root (a GLB chunk's padding) goes.
    const std::string compact = "{\"n\":[{\"a\":1,\"b\":2.0}],\"s\":\"\\\"}\"}   ";
    Json two = Json::parse(compact);
    Json cut = two;
    cut["n"][0].erase("a");
    cut["n"].push_back(Json{{"c", "]"}});
    CHECK(spliceJson(compact, false, two, cut) ==
          "{\"n\":[{\"b\":2.0},{\"c\":\"]\"}],\"s\":\"\\\"}\"}");
    CHECK(spliceJson(compact, false, two, two) == "{\"n\":[{\"a\":1,\"b\":2.0}],\"s\":\"\\\"}\"}");
}

namespace {

// A random document of objects, arrays and scalars, a few levels deep.
Json randomValue(std::mt19937& rng, int depth) {
    const int kind = int(rng() % (depth > 3 ? 4u : 7u));
    switch (kind) {
        case 0:
            return Json(int(rng() % 100));
        case 1:
            return Json(double(rng() % 1000) / 8.0);
        case 2:
            return Json("s" + std::to_string(rng() % 10) + (rng() % 4 == 0 ? "\"]}\n" : ""));
        case 3:
            return Json(rng() % 2 == 0);
        case 4:
        case 5: {
            Json object = Json::object();
            for (unsigned n = rng() % 4; n-- > 0;)
                object["k" + std::to_string(rng() % 6)] = randomValue(rng, depth + 1);
            return object;
        }
        default: {
            Json array = Json::array();
            for (unsigned n = rng() % 4; n-- > 0;) array.push_back(randomValue(rng, depth + 1));
            return array;
        }
    }
}

// One random edit somewhere below v: a scalar changed, a member added or erased, an element
// appended or removed, a container replaced by a scalar.
void randomEdit(std::mt19937& rng, Json& v) {
    if ((v.is_object() || v.is_array()) && !v.empty() && rng() % 3 != 0) {
        auto it = v.begin();
        std::advance(it, rng() % v.size());
        return randomEdit(rng, *it);
    }
    const unsigned what = rng() % 4;
    if (v.is_object() && what == 0)
        v["new" + std::to_string(rng() % 3)] = randomValue(rng, 2);
    else if (v.is_object() && what == 1 && !v.empty())
        v.erase(v.begin().key());
    else if (v.is_array() && what == 0)
        v.push_back(randomValue(rng, 2));
    else if (v.is_array() && what == 1 && !v.empty())
        v.erase(v.size() - 1);
    else
        v = randomValue(rng, 4);
}

}  // namespace

TEST_CASE("splice: random documents, layouts and edits print what was edited, one line staying one line") {
    std::mt19937 rng(21);
    for (int round = 0; round < 3000; ++round) {
        Json original = Json::object();
        for (unsigned n = 1 + rng() % 4; n-- > 0;) original["t" + std::to_string(n)] = randomValue(rng, 1);
        std::string text;
        const unsigned layout = rng() % 3;
        if (layout == 0) text = original.dump();
        if (layout == 1) text = original.dump(4) + "\n";
        if (layout == 2) printOddly(original, "", text);
        const Json parsed = Json::parse(text);
        Json edited = parsed;
        for (unsigned n = 1 + rng() % 3; n-- > 0;) randomEdit(rng, edited);
        if (!edited.is_object()) continue;
        CAPTURE(text);
        CAPTURE(edited.dump());
        const std::string out = spliceJson(text, true, parsed, edited);
        CHECK(Json::parse(out) == edited);
        if (layout == 0) CHECK(out.find('\n') == std::string::npos);
        if (parsed == edited) CHECK(out == text);
    }
}

TEST_CASE("splice: an oddly formatted .gltf bakes to its own bytes but for the edited objects") {
    const samples::Biped biped = samples::makeBiped();
    std::string text;
    printOddly(Json::parse(samples::toGltfWithDataUri(biped)), "", text);
    text += "\r\n";
    const gltf::Asset input = loadText(text, "odd.gltf");

    auto spliced = bakeText(input, false);
    auto printed = bakeText(input, true);
    REQUIRE(spliced.ok());
    REQUIRE(printed.ok());
    CHECK(Json::parse(*spliced) == Json::parse(*printed));  // what the old writer wrote
    CHECK(*spliced != *printed);
    checkOnlyEditsDiffer(text, *spliced);

    // Closed form: the root's keys are rewritten in place (same accessors, FLOAT already), so
    // only bufferViews (new offsets), the buffer (new bytes) and the animations of the clips that
    // step (their markers in extras) change; everything else is the input's, byte for byte
    // (checkOnlyEditsDiffer), in the file's own spelling.
    const Json in = Json::parse(text), out = Json::parse(*spliced);
    for (auto it = in.begin(); it != in.end(); ++it) {
        CAPTURE(it.key());
        const bool edited = it.key() == "bufferViews" || it.key() == "buffers" || it.key() == "animations";
        CHECK((out.at(it.key()) != *it) == edited);
    }
    CHECK(spliced->find("\"translation\" :\t[ ") != std::string::npos);
    CHECK(spliced->find("E-01") != std::string::npos);

    // Baking is deterministic, and the edited file bakes again to a file that keeps its layout.
    CHECK(*bakeText(input, false) == *spliced);
    // --keep-source appends animations, each on its own lines like the ones before it.
    auto kept = bakeText(input, false, true);
    REQUIRE(kept.ok());
    checkOnlyEditsDiffer(text, *kept);
    CHECK(Json::parse(*kept) == Json::parse(*bakeText(input, true, true)));
    CHECK(Json::parse(*kept)["animations"].size() > in["animations"].size());

    // --root-bone appends a node and a joint, and edits the hips' parent and the skins.
    auto boned = bakeText(input, false, false, "root");
    REQUIRE(boned.ok());
    checkOnlyEditsDiffer(text, *boned);
    CHECK(Json::parse(*boned) == Json::parse(*bakeText(input, true, false, "root")));
    CHECK(Json::parse(*boned)["nodes"].size() == in["nodes"].size() + 1);
}

TEST_CASE("splice: every corpus .gltf that bakes is its own text but for the edited objects") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(shared / "corpus"))
        if (entry.path().extension() == ".gltf") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    int baked = 0, edited = 0;
    for (const fs::path& file : files) {
        CAPTURE(file);
        auto asset = gltf::loadAsset(file);
        if (!asset) continue;  // the corpus holds bad files too
        const std::string in = textOf(fileBytes(file));
        for (const char* rootBone : {"", "root"}) {  // a root bone edits nodes and skins too
            CAPTURE(rootBone);
            auto spliced = bakeText(*asset, false, false, rootBone);
            if (!spliced) continue;  // refused (a root bone is not for every asset)
            auto printed = bakeText(*asset, true, false, rootBone);
            REQUIRE(printed.ok());
            ++baked;
            edited += Json::parse(in) != Json::parse(*spliced);
            CHECK(Json::parse(*spliced) == Json::parse(*printed));
            checkOnlyEditsDiffer(in, *spliced);
        }
    }
    MESSAGE(baked << " corpus .gltf bakes, " << edited << " of them edited");
    CHECK(baked > 50);
    CHECK(edited > 3);
}

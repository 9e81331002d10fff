// The simdjson read path (src/gltf/json_fast.cpp) against nlohmann's own parser, the
// independent reference: the same values, the same number types, keys in file order.
#include "biped.h"
#include "gltf/asset.h"
#include "io/json_parse.h"
#include "support.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>

using namespace rootbake;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// Empty when equal; else the first path where they differ. Types count: an index
// read as unsigned by one and as float by the other would validate differently.
std::string firstDifference(const Json& fast, const Json& reference, const std::string& path = "(root)") {
    if (fast.type() != reference.type()) return path + ": type " + fast.type_name() + " vs " + reference.type_name();
    if (fast.is_object()) {
        if (fast.size() != reference.size()) return path + ": sizes differ";
        auto a = fast.begin();
        for (auto b = reference.begin(); b != reference.end(); ++a, ++b) {
            if (a.key() != b.key()) return path + ": key " + a.key() + " vs " + b.key();
            if (std::string d = firstDifference(*a, *b, path + "." + a.key()); !d.empty()) return d;
        }
        return "";
    }
    if (fast.is_array()) {
        if (fast.size() != reference.size()) return path + ": sizes differ";
        for (std::size_t i = 0; i < fast.size(); ++i)
            if (std::string d = firstDifference(fast[i], reference[i], path + "[" + std::to_string(i) + "]");
                !d.empty())
                return d;
        return "";
    }
    if (fast.is_number_float() && std::signbit(fast.get<double>()) != std::signbit(reference.get<double>()))
        return path + ": sign of " + fast.dump();
    return fast == reference ? "" : path + ": " + fast.dump() + " vs " + reference.dump();
}

std::string differenceFromReference(const std::string& text) {
    const std::optional<Json> fast = io::parseOrderedJsonFast(text);
    if (!fast) return "the fast path declined";
    return firstDifference(*fast, Json::parse(text));
}

// A random JSON document of every kind of value, spelled as writers spell them.
std::string randomDocument(std::mt19937& random, int depth = 0) {
    auto pick = [&](int n) { return int(random() % unsigned(n)); };
    static const char* const kNumbers[] = {"0",     "1",      "-1",   "0.5",   "-0.25",     "1e2",   "1E-7",
                                           "3.0",   "-2.5e+3", "65535", "4294967296", "1.7976931348623157e308",
                                           "5e-324", "9223372036854775807", "-9223372036854775808",
                                           "9223372036854775808", "18446744073709551615", "0.1", "-0.0"};
    static const char* const kStrings[] = {"\"\"", "\"Hips\"", "\"mixamorig:LeftFoot\"", "\"a\\\"b\\\\c\\/d\"",
                                           "\"\\u00e9\\ud83d\\ude00\"", "\"tab\\tnew\\nline\"", "\"caf\xc3\xa9\""};
    const int kind = depth > 5 ? pick(4) : pick(6);
    switch (kind) {
        case 0: return kNumbers[pick(int(std::size(kNumbers)))];
        case 1: return kStrings[pick(int(std::size(kStrings)))];
        case 2: return pick(2) ? "true" : "false";
        case 3: return "null";
        case 4: {
            std::string out = "[";
            for (int i = 0, n = pick(6); i < n; ++i) out += (i ? ", " : "") + randomDocument(random, depth + 1);
            return out + "]";
        }
        default: {
            std::string out = "{";
            for (int i = 0, n = pick(6); i < n; ++i)
                out += (i ? ",\n  \"k" : "\"k") + std::to_string(i) + "\": " + randomDocument(random, depth + 1);
            return out + "}";
        }
    }
}

}  // namespace

TEST_CASE("json fast path: numbers keep the types nlohmann's lexer gives them") {
    for (const char* text : {"[0, 1, -1, 65535, 4294967296, 9223372036854775807, -9223372036854775808]",
                             "[9223372036854775808, 18446744073709551615]", "[0.0, -0.0, 1e2, 1E-7, 2.5e+3, 0.1]",
                             "[1.7976931348623157e308, 5e-324, 4.9406564584124654e-324]",
                             R"({"s": "\u00e9\ud83d\ude00", "e": "a\"b\\c\/d\t", "n": null, "t": true, "f": false})",
                             "{}", "[]", "[[[[]]], {}]", " {\"a\" : [ 1 , 2 ] } "})
        CHECK_MESSAGE(differenceFromReference(text) == "", text);
    // -0 is 0, unsigned, on both paths (simdjson cannot tell it from 0); nlohmann alone says signed.
    CHECK((*io::parseOrderedJsonFast("[-0]"))[0].is_number_unsigned());
    const Result<Json> slow =
        io::parseOrderedJson("[-0, 18446744073709551616]");  // past 64 bits: the slow path
    REQUIRE(slow.ok());
    CHECK((*slow)[0].is_number_unsigned());
    CHECK((*slow)[1].is_number_float());
}

TEST_CASE("json fast path: declines what only the slow path can say, which then says it as before") {
    for (const char* text : {"[18446744073709551616]", "[1e400]", R"({"a":1,"a":2})", "{", "[1,]", "{} {}",
                             "[\"\x01\"]", "[\"\xff\"]", "[01]", "[NaN]", ""}) {
        CHECK_MESSAGE(!io::parseOrderedJsonFast(text), text);
        // The reference says the same of each: accepted (a number simdjson does not hold) or not.
        const bool referenceAccepts = Json::accept(text);
        const Result<Json> parsed = io::parseOrderedJson(text);
        CHECK_MESSAGE(parsed.ok() == (referenceAccepts && std::string(text).find("\"a\":1,\"a\"") == std::string::npos),
                      text);
    }
    // A repeated key past the scan, in a wide object: found by the hash set, named by the slow path.
    std::string wide = R"({"x":{)";
    for (int i = 0; i < 100; ++i) wide += "\"k" + std::to_string(i) + "\":0,";
    wide += R"("k42":1}})";
    CHECK_FALSE(io::parseOrderedJsonFast(wide));
    CHECK(io::parseOrderedJson(wide).error().message ==
          R"(x: duplicate key "k42" (keys of a JSON object must be unique))");
}

TEST_CASE("json fast path: 2000 random documents read as nlohmann reads them") {
    std::mt19937 random(20261204);
    for (int i = 0; i < 2000; ++i) {
        const std::string text = randomDocument(random);
        const std::string difference = differenceFromReference(text);
        CHECK_MESSAGE(difference == "", text);
        if (!difference.empty()) break;
    }
}

TEST_CASE("json fast path: the sample biped reads as nlohmann reads it") {
    const samples::Biped biped = samples::makeBiped();
    CHECK(differenceFromReference(samples::toGltfWithDataUri(biped)) == "");
}

TEST_CASE("json fast path: every corpus file reads as nlohmann reads it") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    std::vector<std::string> texts;
    for (const auto& entry : fs::recursive_directory_iterator(shared / "corpus")) {
        const std::string ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".gltf" && ext != ".glb")) continue;
        Result<gltf::Asset> asset = gltf::loadAsset(entry.path());
        if (!asset) continue;  // the bad corpus: its errors are compared in the slow path's tests
        texts.emplace_back(reinterpret_cast<const char*>(asset->jsonText.data()), asset->jsonText.size());
    }
    CHECK(texts.size() > 20);
    for (const std::string& text : texts) CHECK(differenceFromReference(text) == "");
}

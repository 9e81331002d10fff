// The writer: SHA-256 against FIPS 180-2's vectors, and the in-place rewrite's
// passthrough — every JSON object and every bufferView's bytes outside the
// rewritten channels are as they were, on the biped and on fixtures built from
// it for what the biped does not have (a shared sampler, accessor or
// bufferView, quantized keys, EXT_meshopt_compression, an unknown extension).
#include "gltf/asset.h"
#include "io/base64.h"
#include "gltf/internal.h"
#include "write/container.h"
#include "pipeline/bake.h"
#include "support.h"
#include "written_output.h"
#include "io/write_files.h"
#include "io/sha256.h"
#include "write/sidecar.h"

#include "biped.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>

#include <unistd.h>

using namespace rootbake;
using namespace rootbake::write;
using namespace rootbake::pipeline;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

RewriteOptions writing(Container container, const std::string& binName = "out.bin") {
    RewriteOptions options;
    options.container = container;
    options.binName = binName;
    return options;
}

std::vector<std::uint8_t> bytesOf(const std::string& s) {
    return {s.begin(), s.end()};
}

std::vector<std::uint8_t> fileBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

gltf::Asset load(std::span<const std::uint8_t> bytes, const std::string& name, const fs::path& folder = {}) {
    auto asset = gltf::loadAssetFromMemory(bytes, name, folder);
    INFO(name << ": " << (asset ? "" : asset.error().message));
    REQUIRE(asset.ok());
    return std::move(*asset);
}

struct Run {
    gltf::Asset input;
    Baked baked;
    gltf::Asset output;
};

Run bake(std::span<const std::uint8_t> bytes, const std::string& name, RewriteOptions rewrite = {},
         const fs::path& folder = {}, const Options& options = {}) {
    Run run{load(bytes, name, folder), {}, {}};
    BakeSettings settings;
    settings.analysis = options;
    settings.rewrite = rewrite;
    settings.outputName = "out";
    auto baked = bakeAsset(run.input, bytes, settings);
    INFO(name << ": " << (baked ? "" : baked.error().message));
    REQUIRE(baked.ok());
    run.baked = std::move(*baked);
    run.output = load(joinPieces(run.baked.asset.main), rewrite.container == Container::Glb ? "out.glb" : "out.gltf");
    return run;
}

// The bytes of bufferViews[v] in an asset.
std::vector<std::uint8_t> viewBytes(const gltf::Asset& asset, std::size_t v) {
    const Json& view = asset.document["bufferViews"][v];
    const std::size_t offset = view.value("byteOffset", std::size_t(0)), length = view["byteLength"];
    const io::SharedBytes& buffer = asset.buffers[view["buffer"].get<std::size_t>()];
    REQUIRE(offset + length <= buffer.size());
    return {buffer.begin() + std::ptrdiff_t(offset), buffer.begin() + std::ptrdiff_t(offset + length)};
}

// What the bake says it rewrote: per input animation, its rewritten channels.
struct Rewritten {
    std::set<std::pair<int, int>> channels, samplers;  // (animation, index) in the input
    std::set<int> accessors, views;                    // input indices
};

Rewritten rewrittenBy(const Run& run) {
    Rewritten r;
    const Json& doc = run.input.document;
    for (std::size_t a = 0; a < run.baked.clips.size(); ++a)
        for (const InPlaceChannel& c : run.baked.clips[a].channels) {
            if (c.gltfChannel < 0) continue;
            const int s = doc["animations"][a]["channels"][c.gltfChannel]["sampler"];
            r.channels.insert({int(a), c.gltfChannel});
            r.samplers.insert({int(a), s});
            const Json& accessor = doc["accessors"][doc["animations"][a]["samplers"][s]["output"].get<int>()];
            r.accessors.insert(doc["animations"][a]["samplers"][s]["output"].get<int>());
            if (accessor.contains("bufferView")) r.views.insert(accessor["bufferView"].get<int>());
        }
    return r;
}

// The passthrough: everything the rewrite did not rewrite is byte-for-byte as it was.
void checkPassthrough(const Run& run, bool sameBuffers = true) {
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    const Rewritten r = rewrittenBy(run);

    // Top-level keys: same order, and every collection but the four rewritten ones equal.
    std::vector<std::string> inKeys, outKeys;
    for (const auto& [key, value] : in.items()) inKeys.push_back(key);
    for (const auto& [key, value] : out.items()) outKeys.push_back(key);
    CHECK(std::vector<std::string>(outKeys.begin(), outKeys.begin() + std::ptrdiff_t(inKeys.size())) ==
          inKeys);
    for (const auto& [key, value] : in.items()) {
        if (key == "animations" || key == "accessors" || key == "bufferViews" || key == "buffers") continue;
        CAPTURE(key);
        CHECK(out[key].dump() == value.dump());
    }

    for (std::size_t a = 0; a < in["animations"].size(); ++a) {
        const Json& ia = in["animations"][a];
        const Json& oa = out["animations"][a];
        CAPTURE(a);
        for (const auto& [key, value] : ia.items())
            if (key != "channels" && key != "samplers") CHECK(oa[key].dump() == value.dump());
        for (std::size_t c = 0; c < ia["channels"].size(); ++c) {
            if (r.channels.count({int(a), int(c)})) {
                CHECK(oa["channels"][c]["target"].dump() == ia["channels"][c]["target"].dump());
                continue;
            }
            CHECK(oa["channels"][c].dump() == ia["channels"][c].dump());
        }
        for (std::size_t s = 0; s < ia["samplers"].size(); ++s) {
            const Json& os = oa["samplers"][s];
            if (!r.samplers.count({int(a), int(s)}))
                CHECK(os.dump() == ia["samplers"][s].dump());
            else
                CHECK(os["interpolation"].dump() == ia["samplers"][s]["interpolation"].dump());
        }
    }
    for (std::size_t i = 0; i < in["accessors"].size(); ++i)
        if (!r.accessors.count(int(i))) {
            CAPTURE(i);
            CHECK(out["accessors"][i].dump() == in["accessors"][i].dump());
        }
    int compared = 0;
    for (std::size_t v = 0; v < in["bufferViews"].size(); ++v) {
        if (r.views.count(int(v))) continue;
        CAPTURE(v);
        Json a = in["bufferViews"][v], b = out["bufferViews"][v];
        for (Json* view : {&a, &b}) {  // offsets may move down where dead bytes were cut out
            view->erase("byteOffset");
            if (view->contains("extensions") && (*view)["extensions"].contains("EXT_meshopt_compression"))
                (*view)["extensions"]["EXT_meshopt_compression"].erase("byteOffset");
        }
        if (!sameBuffers) a.erase("buffer"), b.erase("buffer");
        CHECK(b.dump() == a.dump());
        if (!in["bufferViews"][v].contains("extensions"))
            CHECK(viewBytes(run.output, v) == viewBytes(run.input, v));
        ++compared;
    }
    CHECK(compared > 0);
    if (sameBuffers) CHECK(out["buffers"].size() == in["buffers"].size());
}

samples::Biped editBiped(const std::function<void(Json&, std::vector<std::uint8_t>&)>& edit) {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    edit(doc, biped.bin);
    doc["buffers"][0]["byteLength"] = biped.bin.size();
    biped.json = doc.dump();
    return biped;
}

int animationNamed(const Json& doc, const std::string& name) {
    for (std::size_t a = 0; a < doc["animations"].size(); ++a)
        if (doc["animations"][a]["name"] == name) return int(a);
    FAIL("no animation " << name);
    return -1;
}

int nodeNamed(const Json& doc, const std::string& name) {
    for (std::size_t n = 0; n < doc["nodes"].size(); ++n)
        if (doc["nodes"][n].value("name", "") == name) return int(n);
    FAIL("no node " << name);
    return -1;
}

// The channel of animation a animating node's path.
int channelOf(const Json& doc, int a, int node, const std::string& path) {
    const Json& channels = doc["animations"][a]["channels"];
    for (std::size_t c = 0; c < channels.size(); ++c)
        if (channels[c]["target"].value("node", -1) == node && channels[c]["target"]["path"] == path)
            return int(c);
    FAIL("no channel");
    return -1;
}

int outputOf(const Json& doc, int a, int channel) {
    const int s = doc["animations"][a]["channels"][channel]["sampler"];
    return doc["animations"][a]["samplers"][s]["output"];
}

void appendAligned(std::vector<std::uint8_t>& bin, std::span<const std::uint8_t> bytes) {
    bin.resize((bin.size() + 3) / 4 * 4, 0);
    bin.insert(bin.end(), bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("sha256: FIPS 180-2 test vectors") {
    CHECK(io::sha256Hex(bytesOf("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(io::sha256Hex(bytesOf("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(io::sha256Hex(bytesOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(io::sha256Hex(std::vector<std::uint8_t>(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    // A whole block, so the padding takes a block of its own.
    CHECK(io::sha256Hex(std::vector<std::uint8_t>(64, 'a')) ==
          "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST_CASE("sha256: bytes given in pieces hash as the whole") {
    std::vector<std::uint8_t> bytes(300000);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(i * 131 + (i >> 9));
    for (std::size_t piece : {1, 63, 64, 65, 4096, 100001}) {
        io::Sha256 hash;
        for (std::size_t at = 0; at < bytes.size(); at += piece)
            hash.update(std::span(bytes).subspan(at, std::min(piece, bytes.size() - at)));
        CHECK_MESSAGE(hash.hex() == io::sha256Hex(bytes), "pieces of " << piece);
    }
}

TEST_CASE("rewrite: file names become relative URIs") {
    CHECK(fileNameToUri("walk.bin") == "walk.bin");
    CHECK(fileNameToUri("my walk#1.bin") == "my%20walk%231.bin");
    CHECK(fileNameToUri("caf\xc3\xa9.bin") == "caf%C3%A9.bin");
}

TEST_CASE("rewrite: the biped's GLB passes through but for its root keys") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const Run run = bake(glb, "biped.glb");
    checkPassthrough(run);
    const Json& in = run.input.document;
    const Json& out = run.output.document;

    // Own accessors and views are reused at the same indices, FLOAT, their old bytes cut out.
    const Rewritten r = rewrittenBy(run);
    REQUIRE(r.accessors.size() >= 5);
    for (int a : r.accessors) {
        CHECK(out["accessors"][a]["componentType"] == 5126);
        CHECK(out["accessors"][a]["bufferView"] == in["accessors"][a]["bufferView"]);
    }
    CHECK(run.baked.asset.bytesDropped > 0);
    CHECK(run.baked.asset.bytesDropped <= run.baked.asset.bytesAppended);
    // The file grows by the new keys less the old ones, plus a little JSON.
    const std::int64_t growth = std::int64_t(joinPieces(run.baked.asset.main).size()) - std::int64_t(glb.size());
    const std::int64_t data =
        std::int64_t(run.baked.asset.bytesAppended) - std::int64_t(run.baked.asset.bytesDropped);
    CHECK(growth <= data + 2048);
    CHECK(out["buffers"][0]["byteLength"].get<std::int64_t>() ==
          in["buffers"][0]["byteLength"].get<std::int64_t>() + data);

    // Deterministic: the same bytes again.
    const Run again = bake(glb, "biped.glb");
    CHECK(joinPieces(again.baked.asset.main) == joinPieces(run.baked.asset.main));
    CHECK(toJson(again.baked.document).dump() == toJson(run.baked.document).dump());
}

TEST_CASE("rewrite: a GLB's mesh bytes are written from the input's, never copied, io::writeFiles gathers them") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const Run run = bake(glb, "biped.glb");
    const io::SharedBytes& source = run.input.buffers[0];
    std::uint64_t borrowed = 0, made = 0;
    for (const OutputPiece& p : run.baked.asset.main) {
        if (!p.bytes.empty()) {
            made += p.bytes.size();
            continue;
        }
        CHECK(p.input.data() >= source.data());  // a range of the loaded BIN chunk itself
        CHECK(p.input.data() + p.input.size() <= source.data() + source.size());
        borrowed += p.input.size();
    }
    // Made here: the header, the JSON and the new keys (and padding); the rest is the input's.
    const std::uint64_t json = run.output.jsonText.size();
    CHECK(made <= 28 + json + 3 + run.baked.asset.bytesAppended + 3);
    CHECK(borrowed + run.baked.asset.bytesDropped + run.baked.asset.bytesAppended >= source.size());

    test::TempDir dir("gather");
    std::vector<io::PlannedFile> files;
    files.push_back({dir.path / "out.glb", {1, 2, 3}, {}});
    for (const OutputPiece& p : run.baked.asset.main)
        files.back().gathered.push_back(p.bytes.empty() ? p.input : std::span<const std::uint8_t>(p.bytes));
    REQUIRE_FALSE(io::writeFiles(std::move(files), {}, false));
    std::vector<std::uint8_t> expected{1, 2, 3};
    const std::vector<std::uint8_t> joined = joinPieces(run.baked.asset.main);
    expected.insert(expected.end(), joined.begin(), joined.end());
    CHECK(fileBytes(dir.path / "out.glb") == expected);
}

TEST_CASE("rewrite: a root that only turns gets a translation channel of its own") {
    int turn = -1;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        turn = animationNamed(doc, "turn_spot");
        Json& channels = doc["animations"][turn]["channels"];
        channels.erase(std::size_t(channelOf(doc, turn, nodeNamed(doc, "Hips"), "translation")));
    });
    Options options;
    options.rootNode = parseNodeRef("Hips");  // no longer position-animated, so not found
    const Run run = bake(samples::toGlb(biped), "turn-only.glb", {}, {}, options);
    checkPassthrough(run);
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    REQUIRE(run.baked.clips[turn].analysis.extractsRotation);
    CHECK(out["animations"][turn]["channels"].size() == in["animations"][turn]["channels"].size() + 1);
    const Json& added = out["animations"][turn]["channels"].back();
    CHECK(added["target"]["node"] == nodeNamed(in, "Hips"));
    CHECK(added["target"]["path"] == "translation");
    const Json& sampler = out["animations"][turn]["samplers"][added["sampler"].get<int>()];
    CHECK(sampler["interpolation"] == "LINEAR");
    // glTF requires min/max on animation inputs.
    const Json& times = out["accessors"][sampler["input"].get<int>()];
    CHECK(times["componentType"] == 5126);
    CHECK(times["min"][0] == 0.0);
    CHECK(times["max"][0].get<double>() == doctest::Approx(run.input.clips[turn].end));
    CHECK(out["accessors"][sampler["output"].get<int>()]["type"] == "VEC3");
}

TEST_CASE("rewrite: the biped's .gltf (data: URI) passes through but for its root keys") {
    const samples::Biped biped = samples::makeBiped();
    const Run run = bake(bytesOf(samples::toGltfWithDataUri(biped)), "biped.gltf", writing(Container::Gltf));
    checkPassthrough(run);
    CHECK(run.baked.asset.files.empty());
}

TEST_CASE("rewrite: a sampler shared by two channels is split, and the other keeps its keys") {
    int walk = -1, body = -1;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        walk = animationNamed(doc, "walk");
        body = nodeNamed(doc, "Body");
        const int hips = channelOf(doc, walk, nodeNamed(doc, "Hips"), "translation");
        const int sampler = doc["animations"][walk]["channels"][hips]["sampler"];
        doc["animations"][walk]["channels"].push_back(
            {{"sampler", sampler}, {"target", {{"node", body}, {"path", "translation"}}}});
    });
    const Run run = bake(samples::toGlb(biped), "shared-sampler.glb");
    checkPassthrough(run);
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    const int hips = channelOf(in, walk, nodeNamed(in, "Hips"), "translation");
    const int other = channelOf(in, walk, body, "translation");
    const int oldSampler = in["animations"][walk]["channels"][hips]["sampler"];
    CHECK(out["animations"][walk]["channels"][other]["sampler"] == oldSampler);
    CHECK(out["animations"][walk]["channels"][hips]["sampler"] == in["animations"][walk]["samplers"].size());
    const int oldOutput = outputOf(in, walk, hips);
    CHECK(outputOf(out, walk, other) == oldOutput);
    CHECK(outputOf(out, walk, hips) >= int(in["accessors"].size()));
    CHECK(out["accessors"][oldOutput].dump() == in["accessors"][oldOutput].dump());
    CHECK(viewBytes(run.output, in["accessors"][oldOutput]["bufferView"]) ==
          viewBytes(run.input, in["accessors"][oldOutput]["bufferView"]));
}

TEST_CASE("rewrite: an accessor something else reads is never written into") {
    int walk = -1, hips = -1;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        walk = animationNamed(doc, "walk");
        hips = channelOf(doc, walk, nodeNamed(doc, "Hips"), "translation");
        // EXT_mesh_gpu_instancing places instances at the walk's root keys.
        doc["extensionsUsed"] = {"EXT_mesh_gpu_instancing"};
        doc["nodes"][nodeNamed(doc, "Body")]["extensions"] = {
            {"EXT_mesh_gpu_instancing", {{"attributes", {{"TRANSLATION", outputOf(doc, walk, hips)}}}}}};
    });
    const Run run = bake(samples::toGlb(biped), "shared-accessor.glb");
    checkPassthrough(run);
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    const int old = outputOf(in, walk, hips);
    const int now = outputOf(out, walk, hips);
    CHECK(now >= int(in["accessors"].size()));
    CHECK(out["accessors"][old].dump() == in["accessors"][old].dump());
    CHECK(viewBytes(run.output, in["accessors"][old]["bufferView"]) ==
          viewBytes(run.input, in["accessors"][old]["bufferView"]));
}

TEST_CASE("rewrite: an accessor in a shared bufferView keeps its index and gets a view of its own") {
    int walk = -1, hips = -1, neighbour = -1;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        walk = animationNamed(doc, "walk");
        hips = channelOf(doc, walk, nodeNamed(doc, "Hips"), "translation");
        // The next accessor's bytes move into the root keys' view, after them.
        const int out = outputOf(doc, walk, hips);
        neighbour = out + 1;
        Json& view = doc["bufferViews"][doc["accessors"][out]["bufferView"].get<int>()];
        const Json& next = doc["bufferViews"][doc["accessors"][neighbour]["bufferView"].get<int>()];
        const std::size_t start = view.value("byteOffset", 0), nextStart = next.value("byteOffset", 0);
        REQUIRE(nextStart >= start + view["byteLength"].get<std::size_t>());
        view["byteLength"] = nextStart + next["byteLength"].get<std::size_t>() - start;
        doc["accessors"][neighbour]["bufferView"] = doc["accessors"][out]["bufferView"];
        doc["accessors"][neighbour]["byteOffset"] = nextStart - start;
    });
    const Run run = bake(samples::toGlb(biped), "shared-view.glb");
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    const int accessor = outputOf(in, walk, hips);
    CHECK(outputOf(out, walk, hips) == accessor);
    CHECK(out["accessors"][accessor]["bufferView"].get<std::size_t>() >= in["bufferViews"].size());
    // The shared view and the neighbour's keys are untouched.
    const int shared = in["accessors"][accessor]["bufferView"];
    CHECK(out["bufferViews"][shared].dump() == in["bufferViews"][shared].dump());
    CHECK(viewBytes(run.output, shared) == viewBytes(run.input, shared));
    auto before = gltf::decodeAccessor(run.input, neighbour);
    auto after = gltf::decodeAccessor(run.output, neighbour);
    REQUIRE(before.ok());
    REQUIRE(after.ok());
    CHECK(*before == *after);
}

TEST_CASE("rewrite: quantized root rotations become FLOAT in place of the old bytes") {
    int turn = -1, rotation = -1;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>& bin) {
        turn = animationNamed(doc, "turn_walk");
        rotation = channelOf(doc, turn, nodeNamed(doc, "Hips"), "rotation");
        const int accessor = outputOf(doc, turn, rotation);
        Json& a = doc["accessors"][accessor];
        Json& view = doc["bufferViews"][a["bufferView"].get<int>()];
        const std::size_t offset = view.value("byteOffset", 0), count = a["count"].get<std::size_t>() * 4;
        std::vector<std::uint8_t> shorts;
        for (std::size_t i = 0; i < count; ++i) {
            float f;
            std::memcpy(&f, bin.data() + offset + 4 * i, 4);
            const std::int16_t s = std::int16_t(std::lround(std::clamp(f, -1.0f, 1.0f) * 32767.0f));
            shorts.push_back(std::uint8_t(s & 0xFF));
            shorts.push_back(std::uint8_t((s >> 8) & 0xFF));
        }
        appendAligned(bin, shorts);
        doc["bufferViews"].push_back(
            {{"buffer", 0}, {"byteOffset", bin.size() - shorts.size()}, {"byteLength", shorts.size()}});
        a["bufferView"] = doc["bufferViews"].size() - 1;
        a["componentType"] = 5122;
        a["normalized"] = true;
    });
    const Run run = bake(samples::toGlb(biped), "quantized.glb");
    checkPassthrough(run);
    const Json& out = run.output.document;
    const int accessor = outputOf(run.input.document, turn, rotation);
    CHECK(outputOf(out, turn, rotation) == accessor);
    CHECK(out["accessors"][accessor]["componentType"] == 5126);
    CHECK_FALSE(out["accessors"][accessor].contains("normalized"));
    CHECK(run.baked.asset.bytesDropped > 0);
}

TEST_CASE("rewrite: EXT_meshopt_compression's byte ranges move with the bytes") {
    std::size_t meshoptView = 0;
    std::vector<std::uint8_t> payload;
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>& bin) {
        // Opaque compressed bytes at the end of buffer 0, after every root key.
        for (int i = 0; i < 64; ++i) payload.push_back(std::uint8_t(i * 7 + 1));
        appendAligned(bin, payload);
        doc["extensionsUsed"] = {"EXT_meshopt_compression"};
        doc["buffers"].push_back(
            {{"byteLength", 256}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
        doc["bufferViews"].push_back({{"buffer", 1},
                                      {"byteLength", 256},
                                      {"extensions",
                                       {{"EXT_meshopt_compression",
                                         {{"buffer", 0},
                                          {"byteOffset", bin.size() - payload.size()},
                                          {"byteLength", payload.size()},
                                          {"byteStride", 4},
                                          {"count", 64},
                                          {"mode", "ATTRIBUTES"}}}}}});
        meshoptView = doc["bufferViews"].size() - 1;
    });
    const Run run = bake(samples::toGlb(biped), "meshopt.glb");
    checkPassthrough(run);
    REQUIRE(run.baked.asset.bytesDropped > 0);
    const Json& before =
        run.input.document["bufferViews"][meshoptView]["extensions"]["EXT_meshopt_compression"];
    const Json& after =
        run.output.document["bufferViews"][meshoptView]["extensions"]["EXT_meshopt_compression"];
    CHECK(after["byteOffset"].get<std::size_t>() ==
          before["byteOffset"].get<std::size_t>() - run.baked.asset.bytesDropped);
    const std::size_t at = after["byteOffset"];
    REQUIRE(at + payload.size() <= run.output.buffers[0].size());
    CHECK(std::equal(payload.begin(), payload.end(), run.output.buffers[0].begin() + std::ptrdiff_t(at)));
    CHECK(after["byteOffset"].get<std::size_t>() % 4 == 0);
}

TEST_CASE("rewrite: old keys a live view overlaps stay, a view moves down by what was cut below it") {
    // A view nothing rewrites over the first bytes of walk's old Hips keys, and a second buffer
    // whose view lies above every cut offset of buffer 0 (cuts in one buffer never move another's).
    int walk = -1, hips = -1;
    std::size_t alias = 0, other = 0;
    const std::vector<std::uint8_t> otherBytes(96, 0x5a);
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        walk = animationNamed(doc, "walk");
        hips = channelOf(doc, walk, nodeNamed(doc, "Hips"), "translation");
        const Json& keys =
            doc["bufferViews"][doc["accessors"][outputOf(doc, walk, hips)]["bufferView"].get<int>()];
        doc["bufferViews"].push_back(
            {{"buffer", 0}, {"byteOffset", keys.value("byteOffset", 0)}, {"byteLength", 8}});
        alias = doc["bufferViews"].size() - 1;
        doc["buffers"].push_back(
            {{"byteLength", otherBytes.size()},
             {"uri", "data:application/octet-stream;base64," + io::encodeBase64(otherBytes)}});
        doc["bufferViews"].push_back({{"buffer", 1}, {"byteOffset", 64}, {"byteLength", 32}});
        other = doc["bufferViews"].size() - 1;
    });
    const Run plain = bake(samples::toGlb(samples::makeBiped()), "biped.glb");
    const Run run = bake(samples::toGlb(biped), "aliased.glb");
    checkPassthrough(run);  // every view not rewritten keeps its bytes, wherever it moved
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    // The aliased keys stay, the other old keys go.
    CHECK(run.baked.asset.bytesDropped > 0);
    CHECK(run.baked.asset.bytesDropped < plain.baked.asset.bytesDropped);
    CHECK(viewBytes(run.output, alias) == viewBytes(run.input, alias));
    CHECK(out["bufferViews"][other].dump() == in["bufferViews"][other].dump());
    // Going up buffer 0, the views that stay move down by as much as the ones below them or more
    // (cuts only add up), by whole multiples of 4, and the highest by every byte dropped.
    const Rewritten rewritten = rewrittenBy(run);
    std::uint64_t lastMoved = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> moves;  // (old offset, moved by)
    for (std::size_t v = 0; v < in["bufferViews"].size(); ++v)
        if (in["bufferViews"][v]["buffer"] == 0 && !rewritten.views.count(int(v)))
            moves.push_back({in["bufferViews"][v].value("byteOffset", std::uint64_t(0)),
                             in["bufferViews"][v].value("byteOffset", std::uint64_t(0)) -
                                 out["bufferViews"][v].value("byteOffset", std::uint64_t(0))});
    std::sort(moves.begin(), moves.end());
    for (const auto& [offset, moved] : moves) {
        CAPTURE(offset);
        CHECK(moved >= lastMoved);  // cuts only add up going up the buffer
        CHECK(moved % 4 == 0);      // and keep every offset's alignment
        lastMoved = moved;
    }
    CHECK(lastMoved == run.baked.asset.bytesDropped);
}

TEST_CASE("rewrite: with an unknown extension nothing is reused or moved") {
    const samples::Biped biped = editBiped([&](Json& doc, std::vector<std::uint8_t>&) {
        doc["extensionsUsed"] = {"VENDOR_keyframe_index"};
        doc["extensions"] = {{"VENDOR_keyframe_index", {{"accessors", {0, 1, 2, 3}}}}};
    });
    const Run run = bake(samples::toGlb(biped), "unknown.glb");
    checkPassthrough(run);
    const Json& in = run.input.document;
    const Json& out = run.output.document;
    CHECK(run.baked.asset.bytesDropped == 0);
    for (std::size_t a = 0; a < in["accessors"].size(); ++a)
        CHECK(out["accessors"][a].dump() == in["accessors"][a].dump());
    for (std::size_t v = 0; v < in["bufferViews"].size(); ++v) {
        CHECK(out["bufferViews"][v].dump() == in["bufferViews"][v].dump());
        CHECK(viewBytes(run.output, v) == viewBytes(run.input, v));
    }
    CHECK(out["extensions"].dump() == in["extensions"].dump());
}

TEST_CASE("rewrite: a .gltf's changed .bin is written under the output's name, the rest passes through") {
    const samples::Biped biped = samples::makeBiped();
    const fs::path dir = fs::temp_directory_path() / ("rootbake-writer-bin-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "out");
    struct Cleanup {
        fs::path dir;
        ~Cleanup() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } cleanup{dir};
    const std::string text = samples::toGltfWithBin(biped, "biped.bin");
    std::ofstream(dir / "biped.gltf", std::ios::binary).write(text.data(), std::streamsize(text.size()));
    std::ofstream(dir / "biped.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(biped.bin.data()), std::streamsize(biped.bin.size()));

    auto input = gltf::loadAsset(dir / "biped.gltf");
    REQUIRE(input.ok());
    BakeSettings settings;
    settings.rewrite = writing(Container::Gltf, "walk.bin");
    auto baked = bakeAsset(*input, bytesOf(text), settings);
    REQUIRE(baked.ok());
    REQUIRE(baked->asset.files.size() == 1);
    CHECK(baked->asset.files[0].relativePath == "walk.bin");
    CHECK(baked->asset.reads == std::vector<fs::path>{dir / "biped.bin"});
    std::ofstream(dir / "out" / "walk.gltf", std::ios::binary)
        .write(reinterpret_cast<const char*>(joinPieces(baked->asset.main).data()),
               std::streamsize(joinPieces(baked->asset.main).size()));
    std::ofstream(dir / "out" / "walk.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(baked->asset.files[0].bytes.data()),
               std::streamsize(baked->asset.files[0].bytes.size()));
    auto output = gltf::loadAsset(dir / "out" / "walk.gltf");
    REQUIRE(output.ok());
    CHECK(output->document["buffers"][0]["uri"] == "walk.bin");
    checkPassthrough(Run{std::move(*input), std::move(*baked), std::move(*output)});
}

TEST_CASE("rewrite: GLB to .gltf writes the BIN chunk as the named .bin") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const gltf::Asset input = load(glb, "biped.glb");
    auto out = rewriteAsset(input, {}, writing(Container::Gltf, "walk.bin"));
    REQUIRE(out.ok());
    REQUIRE(out->files.size() == 1);
    CHECK(out->files[0].relativePath == "walk.bin");
    CHECK(out->files[0].bytes.size() == input.document["buffers"][0]["byteLength"].get<std::size_t>());
    const std::vector<std::uint8_t> text = joinPieces(out->main);
    const Json doc = Json::parse(text.begin(), text.end());
    CHECK(doc["buffers"][0]["uri"] == "walk.bin");
    Json expected = input.document;
    expected["buffers"][0]["uri"] = "walk.bin";
    CHECK(doc.dump() == expected.dump());  // nothing else changed
}

TEST_CASE("rewrite: corpus .glb and .gltf inputs pass through but for their root keys") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    for (const char* file :
         {"mixamo-zup-boyquotes/Slow_Run.glb", "mixamo-7frank-gameserver/Walking_.glb",
          "assimp-interpolation-tests/animation_interpolation_cubic.gltf",
          "playcanvas-cube-animation/cube.animation.glb"}) {
        CAPTURE(file);
        const fs::path path = shared / "corpus" / file;
        const bool glb = path.extension() == ".glb";
        const Run run = bake(fileBytes(path), path.filename().string(),
                             writing(glb ? Container::Glb : Container::Gltf), path.parent_path());
        REQUIRE_FALSE(rewrittenBy(run).channels.empty());
        checkPassthrough(run);
        if (glb) CHECK(joinPieces(run.baked.asset.main).size() <= fileBytes(path).size() + run.baked.asset.bytesAppended);
    }
}

TEST_CASE("rewrite: a .gltf's buffers merge into one GLB, images embedded byte for byte") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    for (const char* file : {"khronos-simpleskin/SimpleSkin.gltf",
                             "assimp-testmodels-good/textureTransform/TextureTransformTest.gltf"}) {
        CAPTURE(file);
        const fs::path path = shared / "corpus" / file;
        const gltf::Asset input = load(fileBytes(path), path.filename().string(), path.parent_path());
        auto out = rewriteAsset(input, {}, writing(Container::Glb));
        REQUIRE(out.ok());
        CHECK(out->files.empty());
        // The images are streamed by the writer, not held: main ends where they begin.
        std::uint64_t imageBytes = 0;
        for (const StreamedFile& f : out->streamed) {
            CHECK(f.offset >= joinPieces(out->main).size());
            CHECK(f.size == fs::file_size(f.file));
            imageBytes += f.size;
        }
        CHECK(joinPieces(out->main).size() + imageBytes <= out->mainSize);
        const gltf::Asset output = load(test::wholeOutput(*out), "out.glb");
        CHECK(output.document["buffers"].size() == 1);
        for (std::size_t v = 0; v < input.document["bufferViews"].size(); ++v)
            CHECK(viewBytes(output, v) == viewBytes(input, v));
        const Json& images = input.document.contains("images") ? input.document["images"] : Json::array();
        for (std::size_t i = 0; i < images.size(); ++i) {
            const Json& image = output.document["images"][i];
            REQUIRE(image.contains("bufferView"));
            CHECK(viewBytes(output, image["bufferView"]) ==
                  fileBytes(path.parent_path() / images[i]["uri"].get<std::string>()));
            CHECK(image["mimeType"] == "image/png");
        }
    }
}

// The sidecar reader: a document built here with known numbers reads back to
// them and plays, through the runtime, the motion those numbers give in closed
// form; what the writer writes reads back exactly; every broken rule is one line
// naming the file and the JSON path.
#ifdef ROOTBAKE_WITH_VERIFY

#include "biped.h"
#include "gltf/asset.h"
#include "pipeline/bake.h"
#include "pipeline/sidecar.h"
#include "rootbake/sidecar_loader.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace rootbake;
namespace rt = rootbake::runtime;
using Json = nlohmann::ordered_json;

namespace {

const char* kName = "walk.rootmotion.json";

Json node(const char* name, int index) {
    return Json{{"name", name}, {"index", index}};
}

// Two clips: a walk that turns 0.2 rad while it travels 1.2 m along +Z in 1 s, keyed
// at 0, 0.5, 1 s; and an idle that does not move.
Json knownSidecar() {
    Json walk;
    walk["name"] = "walk";
    walk["animation"] = 2;
    walk["source"] = "root";
    walk["rootNode"] = node("Hips", 1);
    walk["characterNode"] = nullptr;
    walk["contactNodes"] = Json::array({node("LeftToe", 18), node("RightToe", 24)});
    walk["from"] = 0.0;
    walk["to"] = 1.0;
    walk["duration"] = 1.0;
    walk["characterHeight"] = 1.5;
    walk["travelDirection"] = {0.0, 0.0, 1.0};
    walk["stride"] = {0.0, 0.0, 1.2};
    walk["strideLength"] = 1.2;
    walk["turn"] = 0.2;
    walk["extractsRotation"] = true;
    walk["averageSpeed"] = 1.2;
    walk["averageAngularSpeed"] = 0.2;
    walk["track"] = {{"sampleRate", 2.0},
                     {"times", {0.0, 0.5, 1.0}},
                     {"translation", Json::array({{0.0, 0.0, 0.0}, {0.0, 0.0, 0.6}, {0.0, 0.0, 1.2}})},
                     {"yaw", {0.0, 0.1, 0.2}}};
    walk["contacts"] =
        Json::array({{{"node", node("LeftToe", 18)}, {"planted", Json::array({{0.0, 0.6}})}},
                     {{"node", node("RightToe", 24)}, {"planted", Json::array({{0.0, 0.1}, {0.5, 1.0}})}}});
    walk["loop"] = {{"positionError", 0.0}};
    walk["reason"] = "root: Hips";
    walk["warnings"] = Json::array();

    Json idle = walk;
    idle["name"] = "idle";
    idle["animation"] = 0;
    idle["source"] = "none";
    idle["rootNode"] = nullptr;
    idle["contactNodes"] = Json::array();
    idle["duration"] = 2.0;
    idle["to"] = 2.0;
    idle["stride"] = {0.0, 0.0, 0.0};
    idle["strideLength"] = 0.0;
    idle["turn"] = 0.0;
    idle["extractsRotation"] = false;
    idle["averageSpeed"] = 0.0;
    idle["averageAngularSpeed"] = 0.0;
    idle["track"] = {{"sampleRate", 1.0},
                     {"times", {0.0, 1.0, 2.0}},
                     {"translation", Json::array({{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}})},
                     {"yaw", {0.0, 0.0, 0.0}}};
    idle["contacts"] = Json::array();

    return Json{{"schema", "rootbake.sidecar/1"},
                {"generator", "rootbake test"},
                {"input", "walk.glb"},
                {"inputSha256", std::string(64, '0')},
                {"output", "walk.inplace.glb"},
                {"upAxis", {0.0, 2.0, 0.0}},  // normalized on reading
                {"units", "metres (glTF scene units)"},
                {"clips", Json::array({walk, idle})}};
}

Sidecar mustParse(const std::string& text) {
    auto read = parseSidecar(text, kName);
    REQUIRE_MESSAGE(read.ok(), (read.ok() ? "" : read.error().message));
    return std::move(read).value();
}

}  // namespace

TEST_CASE("sidecar read: known numbers read back, and the track plays their closed-form motion") {
    const Sidecar sidecar = mustParse(knownSidecar().dump());
    CHECK(sidecar.schema == "rootbake.sidecar/1");
    CHECK(sidecar.input == "walk.glb");
    CHECK(sidecar.upAxis == std::array<double, 3>{0, 1, 0});
    REQUIRE(sidecar.clips.size() == 2);

    const SidecarClip& walk = sidecar.clips[0];
    CHECK(walk.name == "walk");
    CHECK(walk.animation == 2);
    CHECK(walk.source == "root");
    CHECK(walk.hasRootNode);
    CHECK(walk.rootNode.name == "Hips");
    CHECK(walk.rootNode.index == 1);
    CHECK_FALSE(walk.hasCharacterNode);
    REQUIRE(walk.contactNodes.size() == 2);
    CHECK(walk.contactNodes[1].name == "RightToe");
    CHECK(walk.contactNodes[1].index == 24);
    CHECK(walk.duration == 1.0);
    CHECK(walk.characterHeight == 1.5);
    CHECK(walk.averageSpeed == 1.2);
    CHECK(walk.extractsRotation);
    CHECK(walk.upAxis == std::array<double, 3>{0, 1, 0});
    CHECK(walk.times == std::vector<double>{0.0, 0.5, 1.0});
    CHECK(walk.translation == std::vector<double>{0, 0, 0, 0, 0, 0.6, 0, 0, 1.2});
    CHECK(walk.yaw == std::vector<double>{0.0, 0.1, 0.2});
    REQUIRE(walk.contacts.size() == 2);
    CHECK(walk.contacts[1].planted.size() == 2);
    CHECK(walk.contacts[1].planted[1] == std::array<double, 2>{0.5, 1.0});
    CHECK(sidecar.clips[1].source == "none");
    CHECK_FALSE(sidecar.clips[1].hasRootNode);

    const rt::Track track = walk.track();
    REQUIRE(rt::validateTrack(track).empty());
    rt::Playback playback = rt::play(track, {.mode = rt::LoopMode::Loop, .loopCount = 0, .speed = 1.0});
    // Half a cycle: S(0.5), 0.6 m along +Z and 0.1 rad.
    const rt::RootDelta half = rt::advance(playback, track, 0.5);
    CHECK(half.translation.z == doctest::Approx(0.6));
    CHECK(rt::turnAbout(half.rotation, {0, 1, 0}) == doctest::Approx(0.1));
    // On across the seam to 1.5 s, seen from the frame at 0.5 s (turned 0.1 rad): the rest of
    // the stride, 0.6 m along +Z, is 0.1 rad to one side; the next half stride, 0.6 m in the
    // frame the cycle turned by 0.2 rad, is 0.1 rad to the other. Sideways they cancel.
    const rt::RootDelta across = rt::advance(playback, track, 1.0);
    const double x = 0.0, z = 1.2 * std::cos(0.1);
    CHECK(std::abs(across.translation.x - x) < 1e-12);
    CHECK(across.translation.z == doctest::Approx(z));
    CHECK(rt::turnAbout(across.rotation, {0, 1, 0}) == doctest::Approx(0.2));
}

TEST_CASE("sidecar read: what the writer writes for the biped reads back exactly") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    auto asset = gltf::loadAssetFromMemory(glb, "biped.glb", {});
    REQUIRE(asset.ok());
    write::SidecarDocument document;
    Sidecar& written = document.sidecar;
    written.schema = newestSidecarSchema();
    written.generator = "rootbake test";
    written.inputSha256 = std::string(64, 'a');
    written.units = "metres (glTF scene units)";
    std::vector<ClipAnalysis> analyses;
    for (const Clip& clip : asset->clips) {
        auto baked = pipeline::bakeClip(asset->rig, clip, {});
        REQUIRE(baked.ok());
        written.clips.push_back(
            pipeline::sidecarClip(asset->rig, baked->analysis, clip.gltfIndex, clip.name, {0.0, 1.0, 0.0}));
        document.records.push_back(pipeline::sidecarClipRecord(asset->rig, baked->analysis, baked->loop));
        analyses.push_back(baked->analysis);
    }
    const Sidecar sidecar = mustParse(write::toJson(document).dump(2));
    REQUIRE(sidecar.clips.size() == asset->clips.size());
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        const ClipAnalysis& a = analyses[i];
        const SidecarClip& c = sidecar.clips[i];
        CAPTURE(c.name);
        CHECK(c.name == asset->clips[i].name);
        CHECK(c.source == sourceName(a.source));
        CHECK(c.duration == a.duration);
        CHECK(c.averageSpeed == a.averageSpeed);
        CHECK(c.contactNodes.size() == a.contacts.size());
        REQUIRE(c.times.size() == a.track.times.size());
        bool same = true;  // doubles survive the JSON text exactly
        for (std::size_t k = 0; k < c.times.size(); ++k) {
            same = same && c.times[k] == a.track.times[k] && c.yaw[k] == a.track.yaw[k];
            for (int j = 0; j < 3; ++j) same = same && c.translation[3 * k + j] == a.track.translation[k][j];
        }
        CHECK(same);
        CHECK(c.distance == a.markers.distance);
        CHECK(c.markers.phaseAnchors == a.markers.phaseAnchors);
        CHECK(c.markers.hasStop == a.markers.stop.has_value());
        REQUIRE(c.markers.events.size() == a.markers.events.size());
        for (std::size_t k = 0; k < c.markers.events.size(); ++k) {
            const FootEvent& e = a.markers.events[k];
            CHECK(c.markers.events[k].time == e.time);
            CHECK(c.markers.events[k].type == footEventName(e.type));
            CHECK(c.markers.events[k].side == sideName(a.markers.sides[std::size_t(e.contact)]));
            CHECK(c.markers.events[k].contact.index ==
                  asset->rig.gltfIndex[std::size_t(a.planting[std::size_t(e.contact)].node)]);
        }
        CHECK(rt::validateTrack(c.track()).empty());
    }
}

TEST_CASE("sidecar read: optional and degenerate forms") {
    SUBCASE("yaw left out: the clip does not turn") {
        Json doc = knownSidecar();
        doc["clips"][0]["track"].erase("yaw");
        const Sidecar sidecar = mustParse(doc.dump());
        CHECK(sidecar.clips[0].yaw.empty());
        CHECK(rt::validateTrack(sidecar.clips[0].track()).empty());
    }
    SUBCASE("a clip of one pose has duration 0 and no track") {
        Json doc = knownSidecar();
        doc["clips"][1]["duration"] = 0.0;
        doc["clips"][1]["track"]["times"] = {0.0, 0.0, 0.0};
        const Sidecar sidecar = mustParse(doc.dump());
        CHECK(sidecar.clips[1].times.empty());
        CHECK(sidecar.clips[1].translation.empty());
    }
    SUBCASE("a clip of duration 0 with no samples (as morph-only clips were written before) is taken") {
        Json doc = knownSidecar();
        doc["clips"][1]["duration"] = 0.0;
        doc["clips"][1]["track"]["times"] = Json::array();
        doc["clips"][1]["track"]["translation"] = Json::array();
        doc["clips"][1]["track"]["yaw"] = Json::array();
        const Sidecar sidecar = mustParse(doc.dump());
        CHECK(sidecar.clips[1].times.empty());
    }
    SUBCASE("unknown fields are ignored") {
        Json doc = knownSidecar();
        doc["future"] = 1;
        doc["clips"][0]["track"]["rotation"] = "later";
        CHECK(mustParse(doc.dump()).clips.size() == 2);
    }
}

TEST_CASE("sidecar read: every broken rule is one line naming the file and the JSON path") {
    using Edit = std::function<void(Json&)>;
    struct Case {
        const char* what;
        Edit edit;
        const char* message;  // after "walk.rootmotion.json: "
    };
    const std::vector<Case> cases = {
        {"not an object", [](Json& d) { d = Json::array(); }, "document: expected an object"},
        {"no schema", [](Json& d) { d.erase("schema"); }, "document: missing \"schema\""},
        {"a newer schema", [](Json& d) { d["schema"] = "rootbake.sidecar/3"; },
         "schema: \"rootbake.sidecar/3\" is a newer version than this reader's (rootbake.sidecar/1 and /2): "
         "update rootbake/sidecar_loader.h"},
        {"another schema", [](Json& d) { d["schema"] = "rootbake.sidecar/02"; },
         "schema: \"rootbake.sidecar/02\" is not rootbake.sidecar/1 and /2"},
        {"another document", [](Json& d) { d["schema"] = "gltf"; },
         "schema: \"gltf\" is not rootbake.sidecar/1 and /2"},
        {"generator a number", [](Json& d) { d["generator"] = 1; }, "generator: expected a string"},
        {"no clips", [](Json& d) { d.erase("clips"); }, "document: missing \"clips\""},
        {"clips an object", [](Json& d) { d["clips"] = Json::object(); }, "clips: expected an array"},
        {"upAxis of 2",
         [](Json& d) {
             d["upAxis"] = {0, 1};
         },
         "upAxis: expected 3 numbers"},
        {"upAxis of zero",
         [](Json& d) {
             d["upAxis"] = {0, 0, 0};
         },
         "upAxis: has no direction"},
        {"clip a number", [](Json& d) { d["clips"][1] = 3; }, "clips[1]: expected an object"},
        {"name a number", [](Json& d) { d["clips"][1]["name"] = 5; }, "clips[1].name: expected a string"},
        {"animation negative", [](Json& d) { d["clips"][0]["animation"] = -1; },
         "clips[0].animation: expected an index (an integer >= 0)"},
        {"animation fractional", [](Json& d) { d["clips"][0]["animation"] = 1.5; },
         "clips[0].animation: expected an index (an integer >= 0)"},
        {"source unknown", [](Json& d) { d["clips"][0]["source"] = "feet"; },
         "clips[0].source: \"feet\" is not one of root, footContact, none"},
        {"rootNode a string", [](Json& d) { d["clips"][0]["rootNode"] = "Hips"; },
         "clips[0].rootNode: expected a node {\"name\", \"index\"}"},
        {"contact node index a string", [](Json& d) { d["clips"][0]["contactNodes"][1]["index"] = "x"; },
         "clips[0].contactNodes[1].index: expected an index (an integer >= 0)"},
        {"no characterNode", [](Json& d) { d["clips"][0].erase("characterNode"); },
         "clips[0]: missing \"characterNode\""},
        {"duration negative", [](Json& d) { d["clips"][0]["duration"] = -1.0; },
         "clips[0].duration: expected a number >= 0"},
        {"height a string", [](Json& d) { d["clips"][0]["characterHeight"] = "1.7"; },
         "clips[0].characterHeight: expected a number"},
        {"travelDirection of 4",
         [](Json& d) {
             d["clips"][0]["travelDirection"] = {0, 0, 1, 0};
         },
         "clips[0].travelDirection: expected 3 numbers"},
        {"extractsRotation a number", [](Json& d) { d["clips"][0]["extractsRotation"] = 1; },
         "clips[0].extractsRotation: expected true or false"},
        {"no track", [](Json& d) { d["clips"][1].erase("track"); }, "clips[1]: missing \"track\""},
        {"no times", [](Json& d) { d["clips"][0]["track"].erase("times"); },
         "clips[0].track: missing \"times\""},
        {"no keys", [](Json& d) { d["clips"][0]["track"]["times"] = Json::array(); },
         "clips[0].track.times: no keys"},
        {"time a string", [](Json& d) { d["clips"][0]["track"]["times"][1] = "0.5"; },
         "clips[0].track.times[1]: expected a number"},
        {"first time negative", [](Json& d) { d["clips"][0]["track"]["times"][0] = -0.1; },
         "clips[0].track.times[0]: negative"},
        {"times not increasing", [](Json& d) { d["clips"][0]["track"]["times"][2] = 0.5; },
         "clips[0].track.times[2]: not after times[1]"},
        {"last time short", [](Json& d) { d["clips"][0]["duration"] = 1.25; },
         "clips[0].track.times[2]: the last time is not the clip's duration"},
        {"pose with a time", [](Json& d) { d["clips"][1]["duration"] = 0.0; },
         "clips[1].track.times[1]: not 0 in a clip of duration 0"},
        {"translation of 2",
         [](Json& d) {
             d["clips"][0]["track"]["translation"][1] = {1, 2};
         },
         "clips[0].track.translation[1]: expected 3 numbers"},
        {"translation with a string",
         [](Json& d) {
             d["clips"][0]["track"]["translation"][2] = {1, "2", 3};
         },
         "clips[0].track.translation[2]: expected 3 numbers"},
        {"translation short", [](Json& d) { d["clips"][0]["track"]["translation"].erase(2); },
         "clips[0].track.translation: 2 keys, times has 3"},
        {"yaw long", [](Json& d) { d["clips"][0]["track"]["yaw"].push_back(0.3); },
         "clips[0].track.yaw: 4 keys, times has 3"},
        {"yaw a string", [](Json& d) { d["clips"][0]["track"]["yaw"][1] = "x"; },
         "clips[0].track.yaw[1]: expected a number"},
        {"sampleRate negative", [](Json& d) { d["clips"][0]["track"]["sampleRate"] = -2; },
         "clips[0].track.sampleRate: expected a number >= 0"},
        {"planted not a pair", [](Json& d) { d["clips"][0]["contacts"][1]["planted"][0] = {0.0}; },
         "clips[0].contacts[1].planted[0]: expected [start, end]"},
        {"planted backwards",
         [](Json& d) {
             d["clips"][0]["contacts"][0]["planted"][0] = {0.6, 0.1};
         },
         "clips[0].contacts[0].planted[0]: ends before it starts"},
        {"contact without node", [](Json& d) { d["clips"][0]["contacts"][0].erase("node"); },
         "clips[0].contacts[0]: missing \"node\""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Json doc = knownSidecar();
        c.edit(doc);
        auto read = parseSidecar(doc.dump(), kName);
        REQUIRE_FALSE(read.ok());
        const std::string& message = read.error().message;
        CHECK(message.rfind(std::string(kName) + ": " + c.message, 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
    }

    SUBCASE("text that is not JSON") {
        for (const char* text : {"", "{", "{\"schema\": }", "[1e999]"}) {
            CAPTURE(text);
            auto read = parseSidecar(text, kName);
            REQUIRE_FALSE(read.ok());
            CHECK(read.error().message.rfind(std::string(kName) + ": not JSON: ", 0) == 0);
            CHECK(read.error().message.find("[json.exception") == std::string::npos);
        }
    }
    SUBCASE("nesting too deep to be a sidecar") {
        const std::string text = std::string(100, '[') + std::string(100, ']');
        auto read = parseSidecar(text, kName);
        REQUIRE_FALSE(read.ok());
        CHECK(read.error().message == std::string(kName) + ": nested deeper than 32 levels");
    }
}

namespace {

// knownSidecar as a sidecar/2: the walk's left foot down at 0.25 s (phase 0) and up at 0.6, the
// right down at 0.75; its path 0, 0.6, 1.2 m; the idle without markers.
Json knownSidecar2() {
    Json doc = knownSidecar();
    doc["schema"] = "rootbake.sidecar/2";
    Json& walk = doc["clips"][0];
    walk["track"]["distance"] = {0.0, 0.6, 1.2};
    walk["markers"] = {
        {"events",
         Json::array(
             {{{"time", 0.25}, {"type", "down"}, {"side", "left"}, {"contact", node("LeftToe", 18)}},
              {{"time", 0.6}, {"type", "up"}, {"side", "left"}, {"contact", node("LeftToe", 18)}},
              {{"time", 0.75}, {"type", "down"}, {"side", "right"}, {"contact", node("RightToe", 24)}}})},
        {"phase", {{"contact", node("LeftToe", 18)}, {"anchors", {0.25}}}},
        {"stop", nullptr}};
    Json& idle = doc["clips"][1];
    idle["track"]["distance"] = {0.0, 0.0, 0.0};
    idle["markers"] = {{"events", Json::array()},
                       {"phase", {{"contact", nullptr}, {"anchors", Json::array()}}},
                       {"stop", 1.5}};
    return doc;
}

}  // namespace

TEST_CASE("sidecar read: a sidecar/2's markers and distance read back, a sidecar/1 has none") {
    const Sidecar sidecar = mustParse(knownSidecar2().dump());
    CHECK(sidecar.schema == "rootbake.sidecar/2");
    const SidecarClip& walk = sidecar.clips[0];
    CHECK(walk.distance == std::vector<double>{0.0, 0.6, 1.2});
    REQUIRE(walk.markers.events.size() == 3);
    CHECK(walk.markers.events[2].time == 0.75);
    CHECK(walk.markers.events[2].type == "down");
    CHECK(walk.markers.events[2].side == "right");
    CHECK(walk.markers.events[2].contact.index == 24);
    CHECK(walk.markers.eventTimes() == std::vector<double>{0.25, 0.6, 0.75});
    CHECK(walk.markers.hasPhaseContact);
    CHECK(walk.markers.phaseContact.name == "LeftToe");
    CHECK(walk.markers.phaseAnchors == std::vector<double>{0.25});
    CHECK_FALSE(walk.markers.hasStop);
    CHECK(sidecar.clips[1].markers.hasStop);
    CHECK(sidecar.clips[1].markers.stop == 1.5);
    // The phase of the walk: 0.5 at 0.75 s, half a cycle after the left foot's down.
    CHECK(rt::phaseAt(walk.markers.phaseAnchors, walk.duration, 0.75) == doctest::Approx(0.5));

    const Sidecar old = mustParse(knownSidecar().dump());
    CHECK(old.clips[0].distance.empty());
    CHECK(old.clips[0].markers.events.empty());
    CHECK_FALSE(old.clips[0].markers.hasPhaseContact);
}

TEST_CASE("sidecar read: a sidecar/2 that breaks a rule of its markers is one line naming the path") {
    struct Case {
        const char* what;
        std::function<void(Json&)> edit;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"no markers", [](Json& d) { d["clips"][0].erase("markers"); }, "clips[0]: missing \"markers\""},
        {"no distance", [](Json& d) { d["clips"][0]["track"].erase("distance"); },
         "clips[0].track: missing \"distance\""},
        {"distance short", [](Json& d) { d["clips"][0]["track"]["distance"].erase(2); },
         "clips[0].track.distance: 2 keys, times has 3"},
        {"event type", [](Json& d) { d["clips"][0]["markers"]["events"][1]["type"] = "land"; },
         "clips[0].markers.events[1].type: \"land\" is not one of down, up"},
        {"event at the duration", [](Json& d) { d["clips"][0]["markers"]["events"][2]["time"] = 1.0; },
         "clips[0].markers.events[2].time: not before the clip's duration"},
        {"events out of order", [](Json& d) { d["clips"][0]["markers"]["events"][1]["time"] = 0.1; },
         "clips[0].markers.events[1].time: before the event ahead of it"},
        {"event without contact", [](Json& d) { d["clips"][0]["markers"]["events"][0].erase("contact"); },
         "clips[0].markers.events[0]: missing \"contact\""},
        {"anchors not increasing",
         [](Json& d) {
             d["clips"][0]["markers"]["phase"]["anchors"] = {0.5, 0.25};
         },
         "clips[0].markers.phase.anchors[1]: not after anchors[0]"},
        {"anchors without contact", [](Json& d) { d["clips"][0]["markers"]["phase"]["contact"] = nullptr; },
         "clips[0].markers.phase.anchors: a phase needs a contact and anchors"},
        {"stop negative", [](Json& d) { d["clips"][1]["markers"]["stop"] = -1.0; },
         "clips[1].markers.stop: expected a number >= 0"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Json doc = knownSidecar2();
        c.edit(doc);
        auto read = parseSidecar(doc.dump(), kName);
        REQUIRE_FALSE(read.ok());
        CHECK(read.error().message == std::string(kName) + ": " + c.message);
    }
}

#endif  // ROOTBAKE_WITH_VERIFY

TEST_CASE("sidecar schema: every number of a clip says its unit, angles in radians") {
    // Issue 33 item 2: --json and the sidecar give turns in radians while the tables print
    // degrees; the schema's description of each numeric field names the unit.
    std::ifstream in(std::filesystem::path(ROOTBAKE_SOURCE_DIR) / "schema" / "sidecar.schema.json");
    REQUIRE(in);
    const nlohmann::json schema = nlohmann::json::parse(in);
    int numbers = 0;
    std::function<void(const nlohmann::json&, const std::string&)> walk = [&](const nlohmann::json& object,
                                                                              const std::string& path) {
        if (!object.is_object() || !object.contains("properties")) return;
        for (const auto& [name, property] : object["properties"].items()) {
            const std::string at = path + "." + name;
            const std::string ref = property.value("$ref", "");
            const std::string type = property.value("type", "");
            const bool numeric = type == "number" || type == "integer" ||
                                 ref.find("seconds") != std::string::npos ||
                                 ref.find("ec3") != std::string::npos ||
                                 (type == "array" &&
                                  (property["items"].value("type", "") == "number" ||
                                   property["items"].value("$ref", "").find("ec3") != std::string::npos ||
                                   property["items"].value("$ref", "").find("seconds") != std::string::npos));
            if (numeric) {
                CAPTURE(at);
                CHECK_FALSE(property.value("description", "").empty());
                ++numbers;
            }
            walk(property, at);
            if (property.contains("items")) walk(property["items"], at + "[]");
        }
    };
    walk(schema["$defs"]["clip"], "clip");
    CHECK(numbers >= 20);
    for (const char* angle : {"turn", "averageAngularSpeed"})
        CHECK(schema["$defs"]["clip"]["properties"][angle]["description"].get<std::string>().find(
                  "radians") == 0);
    CHECK(schema["$defs"]["clip"]["properties"]["track"]["properties"]["yaw"]["description"]
              .get<std::string>()
              .find("radians") == 0);
}

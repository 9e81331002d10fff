// rootbake/sidecar_loader.h: reads rootbake's JSON sidecar (docs/sidecar.md) into plain data and
// the runtime's Tracks, so an engine need not flatten [[x, y, z], ...] itself. Optional beside
// runtime.h: header-only, C++17 or later, and it needs nlohmann-json (3.10 or later).
//
// Per clip: its name, animation index, duration, up axis and the motion track, in owned storage a
// runtime::Track points into. Everything the runtime relies on is validated here, once; an error
// names the file and the JSON path: "walk.rootmotion.json: clips[2].track.translation[5]: expected
// 3 numbers".
//
// Usage:
//   rootbake::Result<rootbake::Sidecar> sidecar = rootbake::loadSidecarFile("walk.rootmotion.json");
//   if (!sidecar) return fail(sidecar.error().message);
//   const rootbake::SidecarClip& walk = sidecar->clips[0];  // keep it alive while the track plays
//   rootbake::runtime::Track track = walk.track();          // empty for a clip of duration 0
#pragma once

#include "rootbake/result.h"
#include "rootbake/runtime.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake {

// A node of the output file: {"name", "index"} in the sidecar.
struct SidecarNode {
    std::string name;  // may be empty
    int index = -1;    // glTF index in the output's nodes[]
};

struct SidecarContact {
    SidecarNode node;
    std::vector<std::array<double, 2>> planted;  // s, [start, end] from the clip start
};

// A contact touching down or lifting off (docs/sidecar.md, `markers.events`).
struct SidecarFootEvent {
    double time = 0;      // s from the clip start, in [0, duration)
    std::string type;     // "down" or "up"
    std::string side;     // "left", "right", "front", "back", "frontLeft", ...; empty: on the midline
    SidecarNode contact;  // the contact node
};

// Footsteps and phase (docs/sidecar.md, `markers`); empty for a sidecar/1 and a clip without
// contacts.
struct SidecarMarkers {
    std::vector<SidecarFootEvent> events;  // by time
    bool hasPhaseContact = false;          // false: null in the sidecar (no phase)
    SidecarNode phaseContact;              // the foot whose downs are phase 0
    std::vector<double> phaseAnchors;      // s, increasing, in [0, duration): each starts a cycle
    bool hasStop = false;                  // false: null in the sidecar
    double stop = 0;                       // s: the stop or pivot track.distance counts from

    // The events' times, for runtime::markersPassed (which reports indices into events).
    std::vector<double> eventTimes() const {
        std::vector<double> times;
        for (const SidecarFootEvent& e : events) times.push_back(e.time);
        return times;
    }
};

struct SidecarClip {
    std::string name;
    int animation = 0;                                   // index in the output file's animations[]
    std::string source;                                  // "root", "footContact" or "none"
    bool hasRootNode = false, hasCharacterNode = false;  // false: null in the sidecar
    SidecarNode rootNode, characterNode;                 // characterNode absent: the glTF scene space
    std::vector<SidecarNode> contactNodes;
    double from = 0, to = 0;     // s, the range analysed
    double duration = 0;         // s, the loop length; 0 for a clip of one pose (then the track is empty)
    double characterHeight = 0;  // scene units
    std::array<double, 3> upAxis{0, 1, 0};           // the document's, unit, character space
    std::array<double, 3> travelDirection{0, 0, 1};  // unit, character space
    std::array<double, 3> stride{0, 0, 0};           // per cycle, character space
    double strideLength = 0;                         // along travelDirection, per cycle
    double turn = 0;                                 // rad per cycle about upAxis
    bool extractsRotation = false;
    double averageSpeed = 0;          // units/s
    double averageAngularSpeed = 0;   // rad/s
    double sampleRate = 0;            // track samples per second of clip time
    std::vector<double> times;        // s, strictly increasing, first 0, last = duration
    std::vector<double> translation;  // x, y, z per key, flat
    std::vector<double> yaw;          // rad per key; empty when the sidecar gives none
    // Per key, scene units along the horizontal path; negative before markers.stop. Empty in a
    // sidecar/1.
    std::vector<double> distance;
    std::vector<SidecarContact> contacts;
    SidecarMarkers markers;

    // Spans into this clip's vectors: valid while the clip lives and its vectors are
    // not reassigned (moving the clip keeps them). Passes runtime::validateTrack
    // unless duration is 0.
    runtime::Track track() const {
        runtime::Track t;
        t.times = times;
        t.translation = translation;
        t.yaw = yaw;
        t.upAxis = {upAxis[0], upAxis[1], upAxis[2]};
        t.duration = duration;
        return t;
    }
};

struct Sidecar {
    std::string schema, generator, input, inputSha256, output, units;
    bool hasRootBone = false;  // bake --root-bone inserted rootBone, which carries the motion
    SidecarNode rootBone;
    std::array<double, 3> upAxis{0, 1, 0};  // normalized
    std::vector<SidecarClip> clips;         // the input's animation order
};

// The schema's name and its newest version: "rootbake.sidecar/2" is what rootbake writes
// and the newest this reads (a /1 still reads).
inline constexpr const char* kSidecarSchemaPrefix = "rootbake.sidecar/";
inline constexpr int kSidecarSchemaVersion = 2;
inline std::string newestSidecarSchema() {
    return kSidecarSchemaPrefix + std::to_string(kSidecarSchemaVersion);
}

// Parses and validates a sidecar document. fileName is only for messages.
// Fields rootbake writes and this returns are required; unknown fields are
// ignored (a later minor version may add some). The schema must be
// "rootbake.sidecar/2" or "rootbake.sidecar/1" (which has no markers and no distance); a later
// version is refused with a message that says so.
inline Result<Sidecar> parseSidecar(std::string_view text, const std::string& fileName);

// Reads and parses a sidecar file; the error names the file.
inline Result<Sidecar> loadSidecarFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open"};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{path + ": cannot read"};
    return parseSidecar(text.str(), path);
}

namespace sidecar_detail {

using Json = nlohmann::json;

inline constexpr int kMaxDepth = 32;                // nesting the format needs: 5
inline constexpr double kDurationTolerance = 1e-6;  // s, last track time against the clip's duration

// Thrown by the checks below, caught by parseSidecar: the first rule a document breaks.
struct Invalid {
    std::string message;  // "path: what is wrong"
};

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
    throw Invalid{(path.empty() ? std::string("document") : path) + ": " + what};
}

inline std::string at(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
}
inline std::string item(const std::string& path, std::size_t i) {
    return path + "[" + std::to_string(i) + "]";
}

inline const Json& member(const Json& object, const std::string& path, const char* key) {
    if (!object.is_object()) fail(path, "expected an object");
    const auto found = object.find(key);
    if (found == object.end()) fail(path, std::string("missing \"") + key + "\"");
    return *found;
}

inline const Json& array(const Json& value, const std::string& path) {
    if (!value.is_array()) fail(path, "expected an array");
    return value;
}

inline double number(const Json& value, const std::string& path) {
    if (!value.is_number()) fail(path, "expected a number");
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(path, "expected a finite number");
    return v;
}

inline double nonNegative(const Json& value, const std::string& path) {
    const double v = number(value, path);
    if (v < 0) fail(path, "expected a number >= 0");
    return v;
}

inline int index(const Json& value, const std::string& path) {
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
        value.get<std::int64_t>() > std::numeric_limits<int>::max())
        fail(path, "expected an index (an integer >= 0)");
    return static_cast<int>(value.get<std::int64_t>());
}

inline std::string string(const Json& value, const std::string& path) {
    if (!value.is_string()) fail(path, "expected a string");
    return value.get<std::string>();
}

inline bool boolean(const Json& value, const std::string& path) {
    if (!value.is_boolean()) fail(path, "expected true or false");
    return value.get<bool>();
}

inline std::array<double, 3> vec3(const Json& value, const std::string& path) {
    if (!value.is_array() || value.size() != 3) fail(path, "expected 3 numbers");
    std::array<double, 3> v{};
    for (std::size_t i = 0; i < 3; ++i) {
        if (!value[i].is_number() || !std::isfinite(value[i].get<double>())) fail(path, "expected 3 numbers");
        v[i] = value[i].get<double>();
    }
    return v;
}

inline SidecarNode node(const Json& value, const std::string& path) {
    if (!value.is_object()) fail(path, "expected a node {\"name\", \"index\"}");
    return {string(member(value, path, "name"), at(path, "name")),
            index(member(value, path, "index"), at(path, "index"))};
}

// Null, or a node.
inline bool optionalNode(const Json& value, const std::string& path, SidecarNode& out) {
    if (value.is_null()) return false;
    out = node(value, path);
    return true;
}

inline void readTrack(const Json& track, const std::string& path, int version, SidecarClip& clip) {
    if (!track.is_object()) fail(path, "expected an object");
    clip.sampleRate = nonNegative(member(track, path, "sampleRate"), at(path, "sampleRate"));

    const std::string timesPath = at(path, "times");
    const Json& times = array(member(track, path, "times"), timesPath);
    // A clip of duration 0 may have none (older sidecars wrote a clip animating morph weights
    // only so; it now lasts to its last key, with a zero track).
    if (times.empty() && clip.duration != 0) fail(timesPath, "no keys");
    for (std::size_t i = 0; i < times.size(); ++i) {
        const double t = number(times[i], item(timesPath, i));
        if (i == 0 && t < 0) fail(item(timesPath, i), "negative");
        if (clip.duration > 0 && i > 0 && !(t > clip.times.back()))
            fail(item(timesPath, i), "not after times[" + std::to_string(i - 1) + "]");
        if (clip.duration == 0 && t != 0) fail(item(timesPath, i), "not 0 in a clip of duration 0");
        clip.times.push_back(t);
    }
    if (clip.duration > 0 && std::abs(clip.times.back() - clip.duration) > kDurationTolerance)
        fail(item(timesPath, times.size() - 1),
             "the last time is not the clip's duration " + std::to_string(clip.duration));

    const std::string translationPath = at(path, "translation");
    const Json& translation = array(member(track, path, "translation"), translationPath);
    if (translation.size() != times.size())
        fail(translationPath,
             std::to_string(translation.size()) + " keys, times has " + std::to_string(times.size()));
    for (std::size_t i = 0; i < translation.size(); ++i)
        for (double v : vec3(translation[i], item(translationPath, i))) clip.translation.push_back(v);

    // Yaw may be left out (or empty): the clip does not turn.
    const auto yawFound = track.find("yaw");
    if (yawFound != track.end()) {
        const std::string yawPath = at(path, "yaw");
        const Json& yaw = array(*yawFound, yawPath);
        if (!yaw.empty() && yaw.size() != times.size())
            fail(yawPath, std::to_string(yaw.size()) + " keys, times has " + std::to_string(times.size()));
        for (std::size_t i = 0; i < yaw.size(); ++i) clip.yaw.push_back(number(yaw[i], item(yawPath, i)));
    }
    if (version >= 2) {
        const std::string distancePath = at(path, "distance");
        const Json& distance = array(member(track, path, "distance"), distancePath);
        if (distance.size() != times.size())
            fail(distancePath,
                 std::to_string(distance.size()) + " keys, times has " + std::to_string(times.size()));
        for (std::size_t i = 0; i < distance.size(); ++i)
            clip.distance.push_back(number(distance[i], item(distancePath, i)));
    }
    if (clip.duration == 0) {  // one pose: nothing to play
        clip.times.clear();
        clip.translation.clear();
        clip.yaw.clear();
        clip.distance.clear();
    }
}

// A time of the loop, in [0, duration) (or 0 in a clip of duration 0).
inline double loopTime(const Json& value, const std::string& path, double duration) {
    const double t = nonNegative(value, path);
    if (t >= duration && !(t == 0 && duration == 0)) fail(path, "not before the clip's duration");
    return t;
}

inline SidecarMarkers readMarkers(const Json& markers, const std::string& path, double duration) {
    if (!markers.is_object()) fail(path, "expected an object");
    SidecarMarkers out;
    const std::string eventsPath = at(path, "events");
    const Json& events = array(member(markers, path, "events"), eventsPath);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const std::string eventPath = item(eventsPath, i);
        SidecarFootEvent event;
        event.time = loopTime(member(events[i], eventPath, "time"), at(eventPath, "time"), duration);
        if (!out.events.empty() && event.time < out.events.back().time)
            fail(at(eventPath, "time"), "before the event ahead of it");
        event.type = string(member(events[i], eventPath, "type"), at(eventPath, "type"));
        if (event.type != "down" && event.type != "up")
            fail(at(eventPath, "type"), "\"" + event.type + "\" is not one of down, up");
        event.side = string(member(events[i], eventPath, "side"), at(eventPath, "side"));
        event.contact = node(member(events[i], eventPath, "contact"), at(eventPath, "contact"));
        out.events.push_back(std::move(event));
    }
    const std::string phasePath = at(path, "phase");
    const Json& phase = member(markers, path, "phase");
    out.hasPhaseContact =
        optionalNode(member(phase, phasePath, "contact"), at(phasePath, "contact"), out.phaseContact);
    const std::string anchorsPath = at(phasePath, "anchors");
    const Json& anchors = array(member(phase, phasePath, "anchors"), anchorsPath);
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        const double t = loopTime(anchors[i], item(anchorsPath, i), duration);
        if (!out.phaseAnchors.empty() && !(t > out.phaseAnchors.back()))
            fail(item(anchorsPath, i), "not after anchors[" + std::to_string(i - 1) + "]");
        out.phaseAnchors.push_back(t);
    }
    if (out.hasPhaseContact != !out.phaseAnchors.empty())
        fail(anchorsPath, "a phase needs a contact and anchors");
    const Json& stop = member(markers, path, "stop");
    out.hasStop = !stop.is_null();
    if (out.hasStop) out.stop = nonNegative(stop, at(path, "stop"));
    return out;
}

inline SidecarClip readClip(const Json& object, const std::string& path, const std::array<double, 3>& upAxis,
                            int version) {
    if (!object.is_object()) fail(path, "expected an object");
    SidecarClip clip;
    auto field = [&](const char* key) -> const Json& { return member(object, path, key); };
    clip.name = string(field("name"), at(path, "name"));
    clip.animation = index(field("animation"), at(path, "animation"));
    clip.source = string(field("source"), at(path, "source"));
    if (clip.source != "root" && clip.source != "footContact" && clip.source != "none")
        fail(at(path, "source"), "\"" + clip.source + "\" is not one of root, footContact, none");
    clip.hasRootNode = optionalNode(field("rootNode"), at(path, "rootNode"), clip.rootNode);
    clip.hasCharacterNode =
        optionalNode(field("characterNode"), at(path, "characterNode"), clip.characterNode);
    const std::string contactNodesPath = at(path, "contactNodes");
    const Json& contactNodes = array(field("contactNodes"), contactNodesPath);
    for (std::size_t i = 0; i < contactNodes.size(); ++i)
        clip.contactNodes.push_back(node(contactNodes[i], item(contactNodesPath, i)));
    clip.from = number(field("from"), at(path, "from"));
    clip.to = number(field("to"), at(path, "to"));
    clip.duration = nonNegative(field("duration"), at(path, "duration"));
    clip.characterHeight = nonNegative(field("characterHeight"), at(path, "characterHeight"));
    clip.upAxis = upAxis;
    clip.travelDirection = vec3(field("travelDirection"), at(path, "travelDirection"));
    clip.stride = vec3(field("stride"), at(path, "stride"));
    clip.strideLength = number(field("strideLength"), at(path, "strideLength"));
    clip.turn = number(field("turn"), at(path, "turn"));
    clip.extractsRotation = boolean(field("extractsRotation"), at(path, "extractsRotation"));
    clip.averageSpeed = number(field("averageSpeed"), at(path, "averageSpeed"));
    clip.averageAngularSpeed = number(field("averageAngularSpeed"), at(path, "averageAngularSpeed"));
    readTrack(field("track"), at(path, "track"), version, clip);

    const std::string contactsPath = at(path, "contacts");
    const Json& contacts = array(field("contacts"), contactsPath);
    for (std::size_t c = 0; c < contacts.size(); ++c) {
        const std::string contactPath = item(contactsPath, c);
        SidecarContact contact;
        contact.node = node(member(contacts[c], contactPath, "node"), at(contactPath, "node"));
        const std::string plantedPath = at(contactPath, "planted");
        const Json& planted = array(member(contacts[c], contactPath, "planted"), plantedPath);
        for (std::size_t i = 0; i < planted.size(); ++i) {
            const std::string intervalPath = item(plantedPath, i);
            if (!planted[i].is_array() || planted[i].size() != 2) fail(intervalPath, "expected [start, end]");
            const double start = number(planted[i][0], item(intervalPath, 0));
            const double end = number(planted[i][1], item(intervalPath, 1));
            if (end < start) fail(intervalPath, "ends before it starts");
            contact.planted.push_back({start, end});
        }
        clip.contacts.push_back(std::move(contact));
    }
    if (version >= 2) clip.markers = readMarkers(field("markers"), at(path, "markers"), clip.duration);

    if (clip.duration > 0) {  // what the runtime relies on, as it states it; the checks above imply it
        if (const std::string error = runtime::validateTrack(clip.track()); !error.empty()) fail(path, error);
    }
    return clip;
}

// 1 or 2 from "rootbake.sidecar/N"; a later N is refused as a newer format, not as a bad file.
inline int schemaVersion(const std::string& schema) {
    const std::string prefix = kSidecarSchemaPrefix;
    const std::string supported = prefix + "1 and /" + std::to_string(kSidecarSchemaVersion);
    if (schema.rfind(prefix, 0) != 0) fail("schema", "\"" + schema + "\" is not " + supported);
    const std::string number = schema.substr(prefix.size());
    const bool digits = !number.empty() && number.size() <= 6 && number[0] != '0' &&
                        number.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) fail("schema", "\"" + schema + "\" is not " + supported);
    const int version = std::stoi(number);
    if (version > kSidecarSchemaVersion)
        fail("schema", "\"" + schema + "\" is a newer version than this reader's (" + supported +
                           "): update rootbake/sidecar_loader.h");
    return version;
}

}  // namespace sidecar_detail

inline Result<Sidecar> parseSidecar(std::string_view text, const std::string& fileName) {
    using namespace sidecar_detail;
    Json document;
    try {
        // The callback bounds nesting before anything deep is built.
        document = Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
            if (depth > kMaxDepth)
                throw Invalid{"nested deeper than " + std::to_string(kMaxDepth) + " levels"};
            return true;
        });
    } catch (const Invalid& e) {
        return Error{fileName + ": " + e.message};
    } catch (const Json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." without its tag.
        std::string what = e.what();
        if (const auto tag = what.find("] ");
            what.rfind("[json.exception", 0) == 0 && tag != std::string::npos)
            what.erase(0, tag + 2);
        return Error{fileName + ": not JSON: " + what};
    }

    try {
        Sidecar out;
        out.schema = string(member(document, "", "schema"), "schema");
        const int version = schemaVersion(out.schema);
        out.generator = string(member(document, "", "generator"), "generator");
        out.input = string(member(document, "", "input"), "input");
        out.inputSha256 = string(member(document, "", "inputSha256"), "inputSha256");
        out.output = string(member(document, "", "output"), "output");
        out.units = string(member(document, "", "units"), "units");
        if (const auto bone = document.find("rootBone"); bone != document.end())
            out.hasRootBone = optionalNode(*bone, "rootBone", out.rootBone);
        out.upAxis = vec3(member(document, "", "upAxis"), "upAxis");
        const double upLength = std::hypot(out.upAxis[0], out.upAxis[1], out.upAxis[2]);
        if (!(upLength > 0)) fail("upAxis", "has no direction");
        for (double& v : out.upAxis) v /= upLength;
        const Json& clips = array(member(document, "", "clips"), "clips");
        for (std::size_t i = 0; i < clips.size(); ++i)
            out.clips.push_back(readClip(clips[i], item("clips", i), out.upAxis, version));
        return out;
    } catch (const Invalid& e) {
        return Error{fileName + ": " + e.message};
    }
}

}  // namespace rootbake

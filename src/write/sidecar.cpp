#include "write/sidecar.h"

#include <memory>
#include <numbers>

namespace rootbake::write {

using Json = nlohmann::ordered_json;

namespace {

// -0.0 prints as "-0.0": a direction of [-0.0, -0.0, -1.0] reads as a bug. Every number
// of the sidecar passes here.
double unsignedZero(double v) {
    return v == 0.0 ? 0.0 : v;
}

constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;

// Arrays are reserved: a track of 2^18 samples would otherwise hold each array twice while it
// grows (check-hostile bakes one within 256 MiB).
Json numbers(const std::vector<double>& values) {
    Json out = Json::array();
    out.get_ref<Json::array_t&>().reserve(values.size());
    for (double v : values) out.push_back(unsignedZero(v));
    return out;
}

Json vec3(const std::array<double, 3>& v) {
    return Json::array({unsignedZero(v[0]), unsignedZero(v[1]), unsignedZero(v[2])});
}

// {"name", "index"}, or null.
Json nodeRef(bool present, const SidecarNode& node) {
    if (!present) return nullptr;
    return Json{{"name", node.name}, {"index", node.index}};
}

Json trackJson(const SidecarClip& c) {
    Json track;
    track["sampleRate"] = c.sampleRate;
    track["times"] = numbers(c.times);
    track["translation"] = Json::array();
    track["translation"].get_ref<Json::array_t&>().reserve(c.translation.size() / 3);
    for (std::size_t i = 0; i + 2 < c.translation.size(); i += 3)
        track["translation"].push_back(vec3({c.translation[i], c.translation[i + 1], c.translation[i + 2]}));
    track["yaw"] = numbers(c.yaw);
    track["distance"] = numbers(c.distance);
    return track;
}

Json markersJson(const SidecarMarkers& m) {
    Json events = Json::array();
    for (const SidecarFootEvent& e : m.events)
        events.push_back(Json{{"time", unsignedZero(e.time)},
                              {"type", e.type},
                              {"side", e.side},
                              {"contact", nodeRef(true, e.contact)}});
    Json phase{{"contact", nodeRef(m.hasPhaseContact, m.phaseContact)}, {"anchors", numbers(m.phaseAnchors)}};
    Json stop = m.hasStop ? Json(unsignedZero(m.stop)) : Json(nullptr);
    return Json{{"events", std::move(events)}, {"phase", std::move(phase)}, {"stop", std::move(stop)}};
}

Json contactsJson(const SidecarClip& c, const SidecarClipRecord& r) {
    Json out = Json::array();
    for (std::size_t i = 0; i < c.contacts.size(); ++i) {
        const SidecarContact& contact = c.contacts[i];
        Json planted = Json::array();
        for (const auto& p : contact.planted)
            planted.push_back(Json::array({unsignedZero(p[0]), unsignedZero(p[1])}));
        Json object{{"node", nodeRef(true, contact.node)}, {"planted", std::move(planted)}};
        if (i < r.stanceShare.size() && r.stanceShare[i])
            object["stanceShare"] = unsignedZero(*r.stanceShare[i]);
        out.push_back(std::move(object));
    }
    return out;
}

}  // namespace

Json toJson(const SidecarClip& c, const SidecarClipRecord& r) {
    Json out;
    out["name"] = c.name;
    out["animation"] = c.animation;
    out["source"] = c.source;
    out["rootNode"] = nodeRef(c.hasRootNode, c.rootNode);
    out["characterNode"] = nodeRef(c.hasCharacterNode, c.characterNode);
    out["contactNodes"] = Json::array();
    for (const SidecarNode& node : c.contactNodes) out["contactNodes"].push_back(nodeRef(true, node));
    out["from"] = unsignedZero(c.from);
    out["to"] = unsignedZero(c.to);
    out["duration"] = unsignedZero(c.duration);
    out["characterHeight"] = unsignedZero(c.characterHeight);
    out["travelDirection"] = vec3(c.travelDirection);
    out["stride"] = vec3(c.stride);
    out["strideLength"] = unsignedZero(c.strideLength);
    out["turn"] = unsignedZero(c.turn);
    out["turnDegrees"] = unsignedZero(c.turn * kDegreesPerRadian);  // as the tables print it
    out["extractsRotation"] = c.extractsRotation;
    out["averageSpeed"] = unsignedZero(c.averageSpeed);
    out["averageAngularSpeed"] = unsignedZero(c.averageAngularSpeed);
    out["averageAngularSpeedDegrees"] = unsignedZero(c.averageAngularSpeed * kDegreesPerRadian);
    out["track"] = trackJson(c);
    out["contacts"] = contactsJson(c, r);
    out["markers"] = markersJson(c.markers);
    if (r.hasContactEvidence)
        out["contactEvidence"] = Json{{"flightShare", unsignedZero(r.flightShare)},
                                      {"speedSpread", unsignedZero(r.speedSpread)},
                                      {"touchDowns", r.touchDowns},
                                      {"stridePerCycle", unsignedZero(r.stridePerCycle)}};
    out["loop"] = Json{{"positionError", unsignedZero(r.loopPositionError)},
                       {"positionErrorFraction", unsignedZero(r.loopPositionErrorFraction)},
                       {"rotationErrorDegrees", unsignedZero(r.loopRotationErrorDegrees)},
                       {"worstNode", nodeRef(r.hasLoopWorstNode, r.loopWorstNode)}};
    out["reason"] = r.reason;
    out["warnings"] = r.warnings;
    return out;
}

Json toAnimationExtras(const SidecarMarkers& m) {
    Json markers = markersJson(m);
    if (!m.hasPhaseContact) markers.erase("phase");
    if (!m.hasStop) markers.erase("stop");
    return Json{{"markers", std::move(markers)}};
}

namespace {

// nlohmann's serializer writing into bytes, or only counting them, instead of into a string.
class ByteSink : public nlohmann::detail::output_adapter_protocol<char> {
public:
    explicit ByteSink(std::vector<std::uint8_t>* bytes) : bytes_(bytes) {}
    void write_character(char c) override { write_characters(&c, 1); }
    void write_characters(const char* s, std::size_t length) override {
        count_ += length;
        if (bytes_) bytes_->insert(bytes_->end(), s, s + length);
    }
    std::size_t count() const { return count_; }

private:
    std::vector<std::uint8_t>* bytes_;  // null: count only
    std::size_t count_ = 0;
};

void print(const Json& document, const std::shared_ptr<ByteSink>& sink) {
    nlohmann::detail::serializer<Json> printer(sink, ' ');
    printer.dump(document, /*pretty_print=*/true, /*ensure_ascii=*/false, /*indent_step=*/2);
}

}  // namespace

std::vector<std::uint8_t> sidecarBytes(const SidecarDocument& sidecar) {
    // Printed twice, counting first, so the bytes are allocated once: growing them would hold
    // the old and the new buffer at once.
    const Json document = toJson(sidecar);
    auto counter = std::make_shared<ByteSink>(nullptr);
    print(document, counter);
    std::vector<std::uint8_t> bytes;
    bytes.reserve(counter->count() + 1);
    print(document, std::make_shared<ByteSink>(&bytes));
    bytes.push_back('\n');
    return bytes;
}

Json toJson(const SidecarDocument& d) {
    const Sidecar& s = d.sidecar;
    Json out;
    out["schema"] = s.schema;
    out["generator"] = s.generator;
    out["input"] = s.input;
    out["inputSha256"] = s.inputSha256;
    out["output"] = s.output;
    if (s.hasRootBone) out["rootBone"] = nodeRef(true, s.rootBone);
    out["upAxis"] = vec3(s.upAxis);
    out["units"] = s.units;
    out["clips"] = Json::array();
    for (std::size_t i = 0; i < s.clips.size(); ++i)
        out["clips"].push_back(toJson(s.clips[i], i < d.records.size() ? d.records[i] : SidecarClipRecord{}));
    return out;
}

}  // namespace rootbake::write

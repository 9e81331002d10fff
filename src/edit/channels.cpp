// The clips' channels rewritten: each root channel's sampler gets the in-place keys, in its own
// accessors when nothing else reads them, else in new ones (the counts in EditState::refs say).
#include "edit/stages.h"
#include "gltf/internal.h"

#include <algorithm>
#include <cstring>

namespace rootbake::edit {

using gltf::member;

namespace {

constexpr int kFloat = 5126;

std::vector<std::uint8_t> bytesOf(const std::vector<float>& values) {
    std::vector<std::uint8_t> out(values.size() * sizeof(float));
    if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// Per-component minimum or maximum over all elements, as glTF's accessor min/max.
Json bound(const std::vector<float>& values, int width, bool upper) {
    Json out = Json::array();
    for (int c = 0; c < width; ++c) {
        float v = values.empty() ? 0.0f : values[c];
        for (std::size_t i = c; i < values.size(); i += width)
            v = upper ? std::max(v, values[i]) : std::min(v, values[i]);
        out.push_back(double(v));
    }
    return out;
}

const char* interpolationName(Interpolation i) {
    return i == Interpolation::Step ? "STEP" : i == Interpolation::CubicSpline ? "CUBICSPLINE" : "LINEAR";
}
const char* pathName(Path p) {
    return p == Path::Rotation ? "rotation" : p == Path::Scale ? "scale" : "translation";
}

int newView(EditState& state, int buffer, std::vector<std::uint8_t> bytes) {
    Json& views = state.out.document["bufferViews"];
    const std::uint64_t length = bytes.size();
    views.push_back(Json{{"buffer", buffer}, {"byteOffset", 0}, {"byteLength", length}});
    const int view = int(views.size()) - 1;
    state.newKeys.push_back({view, buffer, std::move(bytes)});
    return view;
}

int newAccessor(EditState& state, int buffer, const std::vector<float>& values, int width, const char* type,
                bool minMax) {
    const int view = newView(state, buffer, bytesOf(values));
    Json accessor{
        {"bufferView", view}, {"componentType", kFloat}, {"count", values.size() / width}, {"type", type}};
    if (minMax) {
        accessor["min"] = bound(values, width, false);
        accessor["max"] = bound(values, width, true);
    }
    Json& accessors = state.out.document["accessors"];
    accessors.push_back(std::move(accessor));
    state.refs.accessor.push_back(1);
    return int(accessors.size()) - 1;
}

// A meshopt view that only the rewritten accessor reads is reused for its new floats as they
// are: the extension goes, and its stream, which nothing reads now, is cut with the dead bytes.
void dropCompression(EditState& state, int view) {
    Json& v = state.out.document["bufferViews"][view];
    for (const char* name : kMeshoptExtensions) {
        const Json* ext = extensionOf(v, name);
        if (!ext) continue;
        // A stream in a buffer the document lacks is left alone (dropDeadRanges moves nothing then).
        const Json* b = member(*ext, "buffer");
        if (isIndex(b) && b->get<std::size_t>() < sizeOf(state.out.document, "buffers"))
            state.deadStreams.push_back(
                {b->get<int>(), uintOf(*ext, "byteOffset"), uintOf(*ext, "byteLength")});
        v["extensions"].erase(name);
        if (v["extensions"].empty()) v.erase("extensions");
    }
}

// The accessor's own bufferView takes the new bytes when only it reads the view, else a new view
// does; returns the view.
int viewForNewBytes(EditState& state, const Json& accessor, int buffer, const std::vector<float>& values) {
    const Json* oldView = member(accessor, "bufferView");
    const int view = isIndex(oldView) ? oldView->get<int>() : -1;
    if (view >= 0 && state.refs.view[view] == 1) {
        dropCompression(state, view);
        state.reused[view] = 1;
        state.newKeys.push_back({view, buffer, bytesOf(values)});
        return view;
    }
    if (view >= 0) --state.refs.view[view];
    return newView(state, buffer, bytesOf(values));
}

// A new channel of `node` with its own sampler and accessors.
void addChannel(EditState& state, Json& anim, int buffer, const InPlaceChannel& ch, int node) {
    const int width = ch.path == Path::Rotation ? 4 : 3;
    const int input = newAccessor(state, buffer, ch.times, 1, "SCALAR", true);
    const int output = newAccessor(state, buffer, ch.values, width, width == 4 ? "VEC4" : "VEC3", false);
    anim["samplers"].push_back(
        Json{{"input", input}, {"interpolation", interpolationName(ch.interpolation)}, {"output", output}});
    anim["channels"].push_back(Json{{"sampler", anim["samplers"].size() - 1},
                                    {"target", Json{{"node", node}, {"path", pathName(ch.path)}}}});
}

// The sampler of a channel for its own use: a copy when another channel shares it.
Json& ownSampler(EditState& state, Json& anim, Json& channel) {
    Json& samplers = anim["samplers"];
    int s = channel["sampler"].get<int>();
    int users = 0;
    for (const Json& c : anim["channels"]) users += c["sampler"].get<int>() == s;
    if (users > 1) {  // the other channel keeps the old sampler
        Json copy = samplers[s];
        samplers.push_back(std::move(copy));
        s = int(samplers.size()) - 1;
        channel["sampler"] = s;
        ++state.refs.accessor[samplers[s]["input"].get<std::size_t>()];
        ++state.refs.accessor[samplers[s]["output"].get<std::size_t>()];
    }
    return samplers[s];
}

// The channel's sampler gets ch's values (its own copy when another channel shares it), and
// its times when they are new or their count changed.
void replaceKeys(EditState& state, Json& anim, int fallback, const InPlaceChannel& ch, bool newTimes) {
    const int width = ch.path == Path::Rotation ? 4 : 3;
    const char* type = width == 4 ? "VEC4" : "VEC3";
    Json& sampler = ownSampler(state, anim, anim["channels"][ch.gltfChannel]);
    const int output = sampler["output"].get<int>();
    const int input = sampler["input"].get<int>();
    int buffer = bufferOfAccessor(state, output);
    if (buffer < 0 || hasNoData(state.asset, state.out, buffer)) buffer = fallback;
    sampler["output"] = writeOutput(state, output, buffer, ch.values, width, type);
    if (newTimes || uintOf(state.out.document["accessors"][input], "count") != ch.times.size()) {
        --state.refs.accessor[input];
        sampler["input"] = newAccessor(state, buffer, ch.times, 1, "SCALAR", true);
    }
    if (newTimes) sampler["interpolation"] = interpolationName(ch.interpolation);
}

// The buffer the clip's new keys go to: the root's old keys' (the first rewritten channel's).
Result<int> keysBuffer(EditState& state, const Json& anim, const ClipRewrite& clip) {
    int buffer = -1;
    for (const InPlaceChannel& ch : clip.channels) {
        if (ch.gltfChannel < 0 || buffer >= 0) continue;
        const int sampler = anim["channels"][ch.gltfChannel]["sampler"].get<int>();
        buffer = bufferOfAccessor(state, anim["samplers"][sampler]["output"].get<int>());
    }
    if (buffer < 0 || hasNoData(state.asset, state.out, buffer)) return anyDataBuffer(state);
    return buffer;
}

}  // namespace

int writeOutput(EditState& state, int index, int buffer, const std::vector<float>& values, int width,
                const char* type) {
    if (state.refs.opaque || state.refs.accessor[index] != 1) {
        --state.refs.accessor[index];
        return newAccessor(state, buffer, values, width, type, false);
    }
    Json& accessor = state.out.document["accessors"][index];
    const int view = viewForNewBytes(state, accessor, buffer, values);
    if (const Json* sparse = member(accessor, "sparse")) {
        // Its index and value views stay, unreferenced (their bytes are not moved).
        for (const char* part : {"indices", "values"})
            if (const Json* v = member((*sparse)[part], "bufferView");
                isIndex(v) && v->get<std::size_t>() < state.refs.view.size())
                --state.refs.view[v->get<std::size_t>()];
        accessor.erase("sparse");
    }
    accessor["bufferView"] = view;
    accessor.erase("byteOffset");
    accessor["componentType"] = kFloat;
    accessor.erase("normalized");
    accessor["count"] = values.size() / width;
    if (member(accessor, "min") || member(accessor, "max")) {
        accessor["min"] = bound(values, width, false);
        accessor["max"] = bound(values, width, true);
    }
    return index;
}

Status rewriteChannels(EditState& state, int animation, const ClipRewrite& clip) {
    Json& anim = state.out.document["animations"][animation];
    auto fallback = keysBuffer(state, anim, clip);
    if (!fallback) return fallback.error();
    const std::vector<int>& gltfIndex = state.asset.rig.gltfIndex;
    for (const InPlaceChannel& ch : clip.rootBoneChannels) {
        if (state.rootBoneNode >= 0)
            addChannel(state, anim, *fallback, ch, state.rootBoneNode);
        else if (ch.gltfChannel < 0)  // a reused bone's path it did not key
            addChannel(state, anim, *fallback, ch, gltfIndex[ch.node]);
        else  // a reused bone's own channel: new times and interpolation too
            replaceKeys(state, anim, *fallback, ch, true);
    }
    for (const InPlaceChannel& ch : clip.channels) {
        if (ch.gltfChannel < 0)
            addChannel(state, anim, *fallback, ch, gltfIndex[ch.node]);
        else
            replaceKeys(state, anim, *fallback, ch, false);
    }
    return Ok{};
}

}  // namespace rootbake::edit

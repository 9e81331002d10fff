// The animations: samplers, channels and their outputs' formats and counts, no node path
// animated twice in one animation, and the key data within maxKeyBytes, all before a key
// is decoded.
#include "gltf/internal.h"

namespace rootbake::gltf {

namespace {

// The formats glTF 2.0 section 3.11 (and KHR_mesh_quantization for
// translation and scale) allows for animation outputs.
bool isOutputFormat(const AccessorLayout& a, Path path) {
    const bool integer = a.componentType >= kByte && a.componentType <= kUnsignedShort;
    if (path == Path::Rotation)
        return a.components == 4 && a.rows == 4 && (a.componentType == kFloat || (integer && a.normalized));
    return a.components == 3 && a.rows == 3 && (a.componentType == kFloat || integer);
}

// One sampler: its accessors, its interpolation, its input's keys within the limits.
Status validateSampler(const Json& js, const Where& sat, const LoadLimits& limits, const Layout& layout,
                       SamplerLayout& sampler) {
    const std::size_t accessors = layout.accessors.size();
    if (!js.is_object()) return fail(sat, "expected an object");
    ROOTBAKE_TRY(getIndex(js, sat, "input", true, accessors, "accessors", sampler.input));
    ROOTBAKE_TRY(getIndex(js, sat, "output", true, accessors, "accessors", sampler.output));
    const std::string* interpolation = nullptr;
    ROOTBAKE_TRY(getString(js, sat, "interpolation", false, interpolation));
    if (interpolation) {
        if (*interpolation == "LINEAR")
            sampler.interpolation = Interpolation::Linear;
        else if (*interpolation == "STEP")
            sampler.interpolation = Interpolation::Step;
        else if (*interpolation == "CUBICSPLINE")
            sampler.interpolation = Interpolation::CubicSpline;
        else
            return fail(Where(sat, "interpolation"),
                        "'" + *interpolation + "' (LINEAR, STEP or CUBICSPLINE expected)");
    }
    const AccessorLayout& input = layout.accessors[sampler.input];
    const Where ia(sat, "input");
    if (input.components != 1 || input.componentType != kFloat || input.normalized)
        return fail(ia, "accessors[" + n(sampler.input) + "] is " + accessorFormat(input) +
                            (input.components != 1 ? ", not SCALAR" : ", not FLOAT"));
    if (input.count > static_cast<std::uint64_t>(limits.maxKeysPerChannel))
        return fail(ia, "accessors[" + n(sampler.input) + "] has " + n(input.count) +
                            " keys, more than maxKeysPerChannel (" + n(limits.maxKeysPerChannel) + ")");
    // Zeros repeat: refused here, before decoding a count no bytes back.
    if (input.view < 0 && input.count > input.sparseCount + 1)
        return fail(ia, "accessors[" + n(sampler.input) + "] has no bufferView: time 0 repeats");
    if (sampler.interpolation == Interpolation::CubicSpline && input.count < 2)
        return fail(ia, "CUBICSPLINE needs at least 2 keys, accessors[" + n(sampler.input) + "] has " +
                            n(input.count));
    return Ok{};
}

// A channel's output against its sampler's keys: the format its path needs (slot 0..2 TRS,
// 3 weights), and as many elements as keys (weights: a multiple, one per morph target).
Status validateOutput(const Where& cat, int slot, std::size_t samplerIndex, const SamplerLayout& sampler,
                      const Layout& layout) {
    const AccessorLayout& input = layout.accessors[sampler.input];
    const AccessorLayout& output = layout.accessors[sampler.output];
    const std::uint64_t perKey = sampler.interpolation == Interpolation::CubicSpline ? 3 : 1;
    const std::string outputName =
        "samplers[" + n(samplerIndex) + "].output (accessors[" + n(sampler.output) + "])";
    const Where at(cat, "sampler");
    if (slot < 3) {
        const Path trs = slot == 1 ? Path::Rotation : slot == 2 ? Path::Scale : Path::Translation;
        // What is wrong of the two: the type, else the component type.
        const bool vec =
            output.components == (trs == Path::Rotation ? 4 : 3) && output.rows == output.components;
        if (!isOutputFormat(output, trs))
            return fail(at, "output accessors[" + n(sampler.output) + "] is " + accessorFormat(output) +
                                ", not " +
                                (!vec ? std::string(trs == Path::Rotation ? "VEC4" : "VEC3")
                                 : trs == Path::Rotation ? "FLOAT or normalized BYTE/SHORT"
                                                         : "FLOAT, BYTE or SHORT"));
        if (output.count != input.count * perKey)
            return fail(at, "output accessors[" + n(sampler.output) + "]: " + n(output.count) +
                                " elements for " + n(input.count) + (input.count == 1 ? " key" : " keys") +
                                (perKey == 3 ? " (CUBICSPLINE: 3 a key)" : ""));
        return Ok{};
    }
    const bool integer = output.componentType >= kByte && output.componentType <= kUnsignedShort;
    if (output.components != 1 || !(output.componentType == kFloat || (integer && output.normalized)))
        return fail(at, outputName + " is " + accessorFormat(output) +
                            ", but weights needs SCALAR FLOAT or normalized BYTE/SHORT");
    if (output.count % (input.count * perKey) != 0)
        return fail(at, outputName + " has " + n(output.count) + " elements, not a multiple of " +
                            n(input.count * perKey) + " (keys x morph targets" +
                            (perKey == 3 ? " x 3)" : ")"));
    return Ok{};
}

// What the channels of all animations so far have claimed.
struct ChannelClaims {
    std::vector<int> firstChannel;  // per node and slot, the channel of this animation animating it; -1: none
    std::vector<std::size_t> used;  // the slots this animation set, to reset after it
    std::uint64_t keyBytes = 0;     // decoded floats of every node channel so far: each gets its own copy
    std::vector<std::uint8_t> viewClaimed;  // per bufferView: its decoded bytes counted in keyBytes
};

// The views without bytes in their buffer (meshopt-compressed) that the key data reads are
// decoded whole (docs/limits.md): their byteLength counts against maxKeyBytes, once per view.
void claimDecodedViews(const Layout& layout, int accessor, ChannelClaims& claims) {
    if (claims.viewClaimed.empty()) claims.viewClaimed.assign(layout.views.size(), 0);
    for (int v : viewsOf(layout.accessors[std::size_t(accessor)])) {
        if (v < 0 || claims.viewClaimed[std::size_t(v)] || holdsBytes(layout, v)) continue;
        claims.viewClaimed[std::size_t(v)] = 1;
        claims.keyBytes += layout.views[std::size_t(v)].length;
    }
}

Status checkKeyBytes(const Where& at, std::size_t animation, const LoadLimits& limits,
                     const ChannelClaims& claims) {
    if (claims.keyBytes <= limits.maxKeyBytes) return Ok{};
    return fail(at, "the key data of animations[0.." + n(animation) + "] decodes to more than maxKeyBytes (" +
                        n(limits.maxKeyBytes) + " bytes in all)");
}

// Channel c of animations[animation]: its sampler and target, its output, and no node path
// animated twice in one animation.
Status validateChannel(const Json& jc, const Where& cat, std::size_t c, std::size_t animation,
                       std::size_t nodes, const LoadLimits& limits, const Layout& layout,
                       const AnimationLayout& out, ChannelClaims& claims, ChannelLayout& channel) {
    if (!jc.is_object()) return fail(cat, "expected an object");
    ROOTBAKE_TRY(getIndex(jc, cat, "sampler", true, out.samplers.size(), "samplers", channel.sampler));
    const Json* target = nullptr;
    ROOTBAKE_TRY(getObject(jc, cat, "target", true, target));
    const Where tat(cat, "target");
    int node = -1;
    ROOTBAKE_TRY(getIndex(*target, tat, "node", false, nodes, "nodes", node));
    const std::string* path = nullptr;
    ROOTBAKE_TRY(getString(*target, tat, "path", true, path));
    int slot = -1;  // 0..2 TRS, 3 weights
    if (*path == "translation")
        channel.path = Path::Translation, slot = 0;
    else if (*path == "rotation")
        channel.path = Path::Rotation, slot = 1;
    else if (*path == "scale")
        channel.path = Path::Scale, slot = 2;
    else if (*path == "weights")
        slot = 3;
    // KHR_animation_pointer ("pointer"), other extensions' paths and
    // channels without a node are kept aside, unread.
    if (node < 0) slot = -1;
    channel.trs = slot >= 0 && slot < 3;
    channel.node = channel.trs ? node : -1;

    const SamplerLayout& sampler = out.samplers[channel.sampler];
    if (channel.trs) {
        // Channels sharing a sampler each get a copy of its keys: a small file can name
        // one large sampler from thousands of channels.
        const AccessorLayout& input = layout.accessors[sampler.input];
        const AccessorLayout& output = layout.accessors[sampler.output];
        claims.keyBytes += 4 * (input.count + output.count * static_cast<std::uint64_t>(output.components));
        claimDecodedViews(layout, sampler.output, claims);
        ROOTBAKE_TRY(checkKeyBytes(cat, animation, limits, claims));
    }
    if (slot < 0) return Ok{};
    ROOTBAKE_TRY(validateOutput(cat, slot, std::size_t(channel.sampler), sampler, layout));
    if (claims.firstChannel.empty()) claims.firstChannel.assign(nodes * 4, -1);
    const std::size_t key = static_cast<std::size_t>(node) * 4 + static_cast<std::size_t>(slot);
    if (claims.firstChannel[key] >= 0)
        return fail(tat, "nodes[" + n(node) + "] " + *path + " is already animated by channels[" +
                             n(claims.firstChannel[key]) + "]");
    claims.firstChannel[key] = static_cast<int>(c);
    claims.used.push_back(key);
    return Ok{};
}

}  // namespace

Status validateAnimations(const Json* animations, const LoadLimits& limits, std::size_t nodes,
                          Layout& layout) {
    const Where all(kRoot, "animations");
    ChannelClaims claims;
    for (std::size_t i = 0; i < sizeOf(animations); ++i) {
        const Json& anim = (*animations)[i];
        const Where at(all, i);
        AnimationLayout out;
        const std::string* name = nullptr;
        ROOTBAKE_TRY(getString(anim, at, "name", false, name));
        const Json *samplers = nullptr, *channels = nullptr;
        ROOTBAKE_TRY(getArray(anim, at, "samplers", true, samplers));
        ROOTBAKE_TRY(getArray(anim, at, "channels", true, channels));
        const Where sa(at, "samplers");
        for (std::size_t s = 0; s < samplers->size(); ++s) {
            SamplerLayout sampler;
            ROOTBAKE_TRY(validateSampler((*samplers)[s], Where(sa, s), limits, layout, sampler));
            claimDecodedViews(layout, sampler.input, claims);  // every sampler's times are read
            ROOTBAKE_TRY(checkKeyBytes(Where(Where(sa, s), "input"), i, limits, claims));
            out.samplers.push_back(sampler);
        }
        const Where ca(at, "channels");
        claims.used.clear();
        for (std::size_t c = 0; c < channels->size(); ++c) {
            ChannelLayout channel;
            ROOTBAKE_TRY(validateChannel((*channels)[c], Where(ca, c), c, i, nodes, limits, layout, out,
                                         claims, channel));
            out.channels.push_back(channel);
        }
        for (std::size_t key : claims.used)
            claims.firstChannel[key] = -1;  // reset only what this animation set
        layout.animations.push_back(std::move(out));
    }
    return Ok{};
}

}  // namespace rootbake::gltf

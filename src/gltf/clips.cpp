// glTF animations to the core's Clips: each key accessor decoded and checked once (times
// finite and not decreasing, values finite), then handed to its channels.
#include "gltf/internal.h"
#include "rootbake/num.h"

#include <algorithm>
#include <cmath>

namespace rootbake::gltf {

namespace {

// Decoded animation accessors, each decoded and checked once, handed to the
// channels (moved on the last use).
struct KeyData {
    const Json& document;
    const Layout& layout;
    const std::vector<io::SharedBytes>& buffers;
    std::vector<std::vector<float>> decoded;
    std::vector<std::uint8_t> state;  // bits: 1 decoded, 2 times checked, 4 values checked
    std::vector<int> usesLeft;        // channels still to take the decoded floats
    std::vector<double> first, last;  // key times, once checked (decoded may have moved on)
    std::vector<std::string>& warnings;
    // Meshopt-compressed views (gltfpack -c), decoded when an accessor first reads one and let go
    // once every accessor to be decoded that reads it has been: memory holds the views in use.
    // validateDocument counted their bytes against maxKeyBytes, so no count limit is added here.
    std::vector<std::vector<std::uint8_t>> views;
    std::vector<int> viewReadersLeft;

    // Counts, per view, the accessors buildClips will decode that read it: every sampler's
    // input, the outputs of node channels.
    void countViewReaders() {
        std::vector<std::uint8_t> read(usesLeft.size(), 0);
        for (const AnimationLayout& anim : layout.animations) {
            for (const SamplerLayout& sampler : anim.samplers) read[std::size_t(sampler.input)] = 1;
            for (const ChannelLayout& c : anim.channels)
                if (c.trs) read[std::size_t(anim.samplers[c.sampler].output)] = 1;
        }
        for (std::size_t a = 0; a < read.size(); ++a)
            if (read[a])
                for (int v : viewsOf(layout.accessors[a]))
                    if (v >= 0) ++viewReadersLeft[std::size_t(v)];
    }

    Status decode(int accessor, const Where& at) {
        if (state[accessor] & 1) return Ok{};
        const AccessorLayout& a = layout.accessors[accessor];
        const std::string label = "accessors[" + n(accessor) + "]: ";
        const std::string why = decodeMeshoptViewsOf(document, layout, buffers, a, ~std::uint64_t(0), views);
        if (!why.empty()) return fail(at, label + why);
        if (const char* missing = missingBytes(layout, a, views)) return fail(at, label + missing);
        if (a.sparseCount > 0 && !views[std::size_t(a.sparseIndexView)].empty()) {
            const std::uint8_t* indices = views[std::size_t(a.sparseIndexView)].data() + a.sparseIndexOffset;
            ROOTBAKE_TRY(
                checkSparseIndices(a, indices, Where(Where(kRoot, "accessors"), std::size_t(accessor))));
        }
        decodeAccessor(layout, a, buffers, decoded[accessor], views);
        state[accessor] |= 1;
        for (int v : viewsOf(a))
            if (v >= 0 && --viewReadersLeft[std::size_t(v)] == 0)
                std::vector<std::uint8_t>().swap(views[std::size_t(v)]);
        return Ok{};
    }

    Status times(int accessor, const Where& at) {
        ROOTBAKE_TRY(decode(accessor, at));
        if (state[accessor] & 2) return Ok{};
        const std::vector<float>& t = decoded[accessor];
        // Messages are built only on failure: no allocation per key.
        const auto key = [&](std::size_t k) { return "accessors[" + n(accessor) + "] key " + n(k) + ": "; };
        bool repeated = false;  // one warning per accessor
        for (std::size_t k = 0; k < t.size(); ++k) {
            if (!std::isfinite(t[k])) return fail(at, key(k) + "time is not finite");
            if (t[k] < 0.0f) return fail(at, key(k) + "time " + num(t[k], 9) + " is negative");
            if (k > 0 && t[k] == t[k - 1]) {
                // three.js's LittlestTokyo has these; viewers play them as a step.
                if (!repeated)
                    warnings.push_back(at.str() + ": " + key(k) + "time " + num(t[k], 9) +
                                       " repeats the previous key's: played as a step to the later key");
                repeated = true;
            } else if (k > 0 && !(t[k] > t[k - 1])) {
                const AccessorLayout& a = layout.accessors[accessor];
                const char* zeros =
                    a.view < 0 && a.sparseCount == 0 ? ", and the accessor has no bufferView: all zeros" : "";
                return fail(at, key(k) + "time " + num(t[k], 9) + " is not after the previous key's " +
                                    num(t[k - 1], 9) + " (times must not decrease" + zeros + ")");
            }
        }
        first[accessor] = t.front();
        last[accessor] = t.back();
        state[accessor] |= 2;
        return Ok{};
    }

    Status values(int accessor, const Where& at) {
        ROOTBAKE_TRY(decode(accessor, at));
        if (state[accessor] & 4) return Ok{};
        const std::vector<float>& v = decoded[accessor];
        const std::size_t width = static_cast<std::size_t>(layout.accessors[accessor].components);
        for (std::size_t k = 0; k < v.size(); ++k)
            if (!std::isfinite(v[k]))
                return fail(
                    at, "accessors[" + n(accessor) + "] element " + n(k / width) + ": value is not finite");
        state[accessor] |= 4;
        return Ok{};
    }

    std::vector<float> take(int accessor) {
        if (--usesLeft[accessor] == 0) return std::move(decoded[accessor]);
        return decoded[accessor];
    }
};

}  // namespace

void warnOfSplitAnimation(const Rig& rig, const std::vector<Clip>& clips,
                          std::vector<std::string>& warnings) {
    if (clips.size() < 2) return;
    std::vector<int> nodes;
    for (const Clip& clip : clips) {
        if (clip.channels.empty()) return;
        for (const Channel& c : clip.channels)
            if (c.node != clip.channels.front().node) return;
        nodes.push_back(clip.channels.front().node);
    }
    std::sort(nodes.begin(), nodes.end());
    if (std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end())
        return;  // one node's takes, not a split
    // Joints of one skin: one character's, not separate objects each with its own animation.
    const bool oneSkeleton =
        std::any_of(rig.skins.begin(), rig.skins.end(), [&](const std::vector<int>& joints) {
            return std::all_of(nodes.begin(), nodes.end(), [&](int node) {
                return std::find(joints.begin(), joints.end(), node) != joints.end();
            });
        });
    if (!oneSkeleton) return;
    warnings.push_back("animations: each of the " + n(clips.size()) +
                       " animations moves one node of its own, an exporter's split of one animation: each is "
                       "analysed alone and a limb's gets no root; merge them into one to bake the character");
}

namespace {

// Every accessor's KeyData slots, with the counts of its readers: the channels that take each
// sampler's decoded floats, the accessors that read each compressed view.
KeyData keyDataFor(const Json& document, const Layout& layout, const std::vector<io::SharedBytes>& buffers,
                   std::vector<std::string>& warnings) {
    const std::size_t accessors = layout.accessors.size();
    KeyData keys{document,
                 layout,
                 buffers,
                 std::vector<std::vector<float>>(accessors),
                 std::vector<std::uint8_t>(accessors, 0),
                 std::vector<int>(accessors, 0),
                 std::vector<double>(accessors, 0.0),
                 std::vector<double>(accessors, 0.0),
                 warnings,
                 std::vector<std::vector<std::uint8_t>>(layout.views.size()),
                 std::vector<int>(layout.views.size(), 0)};
    keys.countViewReaders();
    for (const AnimationLayout& anim : layout.animations)
        for (const ChannelLayout& c : anim.channels)
            if (c.trs) {
                ++keys.usesLeft[anim.samplers[c.sampler].input];
                ++keys.usesLeft[anim.samplers[c.sampler].output];
            }
    return keys;
}

// One animation: its samplers' times (the clip's start and end), then its node channels' values.
Status buildClip(const AnimationLayout& anim, const Where& at, const Rig& rig, KeyData& keys, Clip& clip) {
    const Where sa(at, "samplers");
    for (std::size_t s = 0; s < anim.samplers.size(); ++s) {
        const Where sat(sa, s);
        const int input = anim.samplers[s].input;
        ROOTBAKE_TRY(keys.times(input, Where(sat, "input")));
        if (s == 0 || keys.first[input] < clip.start) clip.start = keys.first[input];
        if (s == 0 || keys.last[input] > clip.end) clip.end = keys.last[input];
    }
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
        const ChannelLayout& cl = anim.channels[c];
        if (!cl.trs) {
            ++clip.otherChannels;
            continue;
        }
        const SamplerLayout& sampler = anim.samplers[cl.sampler];
        const Where sat(sa, static_cast<std::size_t>(cl.sampler));
        ROOTBAKE_TRY(keys.values(sampler.output, Where(sat, "output")));
        Channel channel;
        channel.node = rig.rigIndexOfGltf[cl.node];
        channel.path = cl.path;
        channel.interpolation = sampler.interpolation;
        channel.times = keys.take(sampler.input);
        channel.values = keys.take(sampler.output);
        channel.gltfChannel = static_cast<int>(c);
        channel.gltfSampler = cl.sampler;
        clip.channels.push_back(std::move(channel));
    }
    return Ok{};
}

}  // namespace

// Key counts and limits were checked by validateDocument; this checks the key data.
Status buildClips(const Json& document, const Layout& layout, const std::vector<io::SharedBytes>& buffers,
                  const Rig& rig, std::vector<Clip>& clips, std::vector<std::string>& warnings) {
    const Json* animations = member(document, "animations");
    KeyData keys = keyDataFor(document, layout, buffers, warnings);
    const Where all(kRoot, "animations");
    clips.clear();
    clips.reserve(layout.animations.size());
    for (std::size_t i = 0; i < layout.animations.size(); ++i) {
        Clip clip;
        if (const Json* name = member((*animations)[i], "name"); name && name->is_string())
            clip.name = name->get<std::string>();
        clip.gltfIndex = static_cast<int>(i);
        ROOTBAKE_TRY(buildClip(layout.animations[i], Where(all, i), rig, keys, clip));
        clips.push_back(std::move(clip));
    }
    return Ok{};
}

}  // namespace rootbake::gltf

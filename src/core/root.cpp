// The root stage: which node carries the clip's motion, the space it is measured in,
// and the character's height.
#include "stages.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>

namespace rootbake {

namespace core {

std::vector<int> animatedNodes(const Rig& rig, const Clip& clip) {
    std::vector<int> nodes;
    std::vector<std::uint8_t> seen(rig.size(), 0);
    for (const Channel& c : clip.channels)
        if (!seen[c.node]) seen[c.node] = 1, nodes.push_back(c.node);
    return nodes;
}

// One backward pass over the parent-first order (per-node ancestor walks cost
// animated x depth each).
std::vector<int> animatedDescendantCounts(const Rig& rig, const std::vector<int>& animated) {
    std::vector<int> below(rig.size(), 0);
    std::vector<std::uint8_t> isAnimated(rig.size(), 0);
    for (int node : animated) isAnimated[node] = 1;
    for (int n = rig.size() - 1; n >= 0; --n)
        if (rig.parent[n] >= 0) below[rig.parent[n]] += below[n] + isAnimated[n];
    return below;
}

bool isDescendant(const Rig& rig, int node, int ancestor) {
    for (int p = rig.parent[node]; p >= 0; p = rig.parent[p])
        if (p == ancestor) return true;
    return false;
}

Result<RootChoice> chooseRoot(const Rig& rig, const Clip& clip, const Options& options,
                              const std::vector<int>& animated, const glm::dvec3& up) {
    RootChoice choice;
    if (!options.rootNode.empty()) {
        choice.root = findNode(rig, options.rootNode);
        if (choice.root < 0) return Error{"root node \"" + nodeRefLabel(options.rootNode) + "\" is not in the asset"};
        choice.reason = "root: " + nodeLabel(rig, choice.root) + " (given)";
        return choice;
    }
    choice.root = findRoot(rig, clip, up);
    if (choice.root >= 0)
        choice.reason = "root: " + nodeLabel(rig, choice.root) + " - position-animated, " +
                        std::to_string(animatedDescendantCounts(rig, animated)[choice.root]) + " animated descendants";
    else if (std::none_of(clip.channels.begin(), clip.channels.end(),
                          [&](const Channel& c) {
                              return c.path == Path::Translation && !rig.isExpression(c.node);
                          }) &&
             std::any_of(clip.channels.begin(), clip.channels.end(),
                         [](const Channel& c) { return c.path == Path::Translation; }))
        choice.reason =
            "root: none - the clip moves in position only the nodes of facial expressions "
            "(VRMC_vrm_animation), which carry weights, not the character";
    else if (std::any_of(clip.channels.begin(), clip.channels.end(),
                         [](const Channel& c) { return c.path == Path::Translation; }))
        choice.reason =
            "root: none - every node the clip moves in position is a part inside a skeleton (it does "
            "not hold all of its skin's joints at the ground)";
    else
        choice.reason = "root: none - the clip animates no position";
    return choice;
}

Result<int> chooseCharacter(const Rig& rig, const Clip& clip, const Options& options, int anchor) {
    if (options.characterNode.empty()) return -1;
    const int character = findNode(rig, options.characterNode);
    const std::string given = nodeRefLabel(options.characterNode);
    if (character < 0) return Error{"character node \"" + given + "\" is not in the asset"};
    if (!isDescendant(rig, anchor, character))
        return Error{"character node \"" + given + "\" is not an ancestor of the root \"" +
                     nodeLabel(rig, anchor) + "\""};
    const NodeChannels animatedCharacter = channelsOf(clip, character);
    if (animatedCharacter.translation || animatedCharacter.rotation)
        return Error{"character node \"" + given +
                     "\" is animated in position or rotation: it is to receive the motion; pass an ancestor "
                     "the clip does not animate"};
    return character;
}

double measureRestHeight(const Rig& rig, int base, int character, const glm::dvec3& up) {
    const std::vector<glm::dmat4> scene = restScene(rig);
    const glm::dmat4 toCharacter = character >= 0 ? invertTransform(scene[character]) : glm::dmat4(1.0);
    const std::vector<std::uint8_t> under = descendantsOf(rig, base);
    // The vertical extent of base and the joints under it, each at position(n) in the scene.
    auto extent = [&](auto position) {
        auto height = [&](int n) {
            return glm::dot(glm::dvec3(toCharacter * glm::dvec4(position(n), 1.0)), up);
        };
        double lowest = base >= 0 ? height(base) : 0.0;  // the scene's own origin
        double highest = lowest;
        for (int n = 0; n < rig.size(); ++n)
            if (under[n] && !rig.hasMesh[n])
                lowest = std::min(lowest, height(n)), highest = std::max(highest, height(n));
        return highest - lowest;
    };
    auto rest = [&](int n) { return glm::dvec3(scene[n][3]); };
    const double atRest = extent(rest);
    if (rig.bind.size() != std::size_t(rig.size())) return atRest;
    auto bound = [&](int n) { return rig.bind[std::size_t(n)]; };
    // The bind pose is the skeleton at rest only if its bones are as long: an inverse bind
    // read in another space (a skin bound to a scaled hand mesh), or a joint scaled at rest,
    // is not the character's size. Bones keep their length in any pose.
    double restLength = 0.0, boundLength = 0.0;
    for (int n = 0; n < rig.size(); ++n) {
        const int p = rig.parent[n];
        if (!under[n] || rig.hasMesh[n] || p < 0 || (p != base && !under[p])) continue;
        restLength += glm::length(rest(n) - rest(p));
        boundLength += glm::length(bound(n) - bound(p));
    }
    if (!(std::abs(boundLength - restLength) <= kBoneLengthTolerance * restLength)) return atRest;
    // Standing is the tallest a character is: a rest pose may crouch or lift its feet, a
    // bind pose is usually the pose it was modelled in.
    return std::max(atRest, extent(bound));
}

double measureHeight(const Rig& rig, const Frames& frames, int base, const glm::dvec3& up) {
    const std::vector<std::uint8_t> under = descendantsOf(rig, base);
    double lowest = base >= 0 ? glm::dot(frames.at(0, base), up) : 0.0;  // the scene's own origin
    double highest = lowest;
    for (int n = 0; n < rig.size(); ++n) {
        if (!under[n] || rig.hasMesh[n]) continue;
        const double h = glm::dot(frames.at(0, n), up);
        lowest = std::min(lowest, h);
        highest = std::max(highest, h);
    }
    return highest - lowest;
}

}  // namespace core

NodeRef parseNodeRef(std::string text) {
    NodeRef ref;
    const std::string_view prefix = "nodes[";
    if (text.size() > prefix.size() + 1 && text.compare(0, prefix.size(), prefix) == 0 && text.back() == ']') {
        int index = -1;
        const char* first = text.data() + prefix.size();
        const char* last = text.data() + text.size() - 1;
        const auto parsed = std::from_chars(first, last, index);
        if (parsed.ec == std::errc() && parsed.ptr == last && index >= 0) ref.index = index;
    }
    ref.name = std::move(text);
    return ref;
}

std::string nodeRefLabel(const NodeRef& ref) {
    return !ref.name.empty() || ref.index < 0 ? ref.name : "nodes[" + std::to_string(ref.index) + "]";
}

int findNode(const Rig& rig, const NodeRef& ref) {
    if (!ref.name.empty())
        for (int n = 0; n < rig.size(); ++n)
            if (rig.name[n] == ref.name) return n;
    if (ref.index >= 0 && ref.index < static_cast<int>(rig.rigIndexOfGltf.size())) return rig.rigIndexOfGltf[ref.index];
    return -1;
}

namespace core {

namespace {

// The joints of each skin that make up the character's body: those that move its mesh, or
// every joint of a skin whose mesh was not read.
std::vector<std::vector<int>> bodyJoints(const Rig& rig) {
    std::vector<std::vector<int>> skins;
    for (const std::vector<int>& joints : rig.skins) {
        std::vector<int> moving;
        for (int j : joints)
            if (rig.movesMesh(j)) moving.push_back(j);
        skins.push_back(moving.empty() ? joints : std::move(moving));
    }
    return skins;
}

}  // namespace

Skeletons skeletonsOf(const Rig& rig, const glm::dvec3& up) {
    const std::vector<glm::dmat4> scene = restScene(rig);
    // A joint's lowest point at rest: of the mesh it moves, else its own origin.
    auto lowest = [&](int j) {
        double low = glm::dot(glm::dvec3(scene[j][3]), up);
        if (rig.movesMesh(j)) {
            low = std::numeric_limits<double>::infinity();
            for (const glm::dvec3& p : rig.surface[j])
                low = std::min(low, glm::dot(glm::dvec3(scene[j] * glm::dvec4(p, 1.0)), up));
        }
        return low;
    };
    Skeletons out;
    out.body.assign(std::size_t(rig.size()), 0);
    for (const std::vector<int>& joints : bodyJoints(rig)) {
        for (int j : joints) out.body[std::size_t(j)] = 1;
        std::vector<double> low;
        double bottom = std::numeric_limits<double>::infinity(), top = -bottom;
        for (int j : joints) {
            low.push_back(lowest(j));
            bottom = std::min(bottom, low.back());
            top = std::max(top, glm::dot(glm::dvec3(scene[j][3]), up));
        }
        std::vector<int> atGround;
        for (std::size_t k = 0; k < joints.size(); ++k)
            if (low[k] <= bottom + kRestGroundBand * std::max(0.0, top - bottom))
                atGround.push_back(joints[k]);
        out.ground.push_back(std::move(atGround));
    }
    return out;
}

bool carriesSkeleton(const Rig& rig, const Skeletons& skeletons, int node) {
    const auto holds = [&](int j) { return j == node || isDescendant(rig, j, node); };
    bool inSkin = false, carriesGround = false;
    for (std::size_t s = 0; s < rig.skins.size(); ++s) {
        if (!std::any_of(rig.skins[s].begin(), rig.skins[s].end(), holds)) continue;
        inSkin = true;
        const std::vector<int>& ground = skeletons.ground[s];
        carriesGround =
            carriesGround || (!ground.empty() && std::all_of(ground.begin(), ground.end(), holds));
    }
    bool bodyAbove = false;
    for (int p = rig.parent[node]; p >= 0 && !bodyAbove; p = rig.parent[p])
        bodyAbove = skeletons.body[std::size_t(p)];
    // A node that holds no skin's joint (a prop, a rig without skins) is no part of one.
    return !inSkin || carriesGround || !bodyAbove;
}

}  // namespace core

int findRoot(const Rig& rig, const Clip& clip, const glm::dvec3& up) {
    const std::vector<int> animated = core::animatedNodes(rig, clip);
    const core::Skeletons skeletons = core::skeletonsOf(rig, up);
    const std::vector<int> below = core::animatedDescendantCounts(rig, animated);
    std::vector<std::uint8_t> translated(rig.size(), 0);
    for (const Channel& c : clip.channels)
        if (c.path == Path::Translation) translated[c.node] = 1;
    int best = -1, bestCount = -1;
    for (int node : animated) {
        // A VRM animation's expression node moves a weight, not the character.
        if (!translated[node] || rig.isExpression(node)) continue;
        const int count = below[node];
        const bool better =
            count > bestCount || (count == bestCount && best >= 0 && core::isDescendant(rig, best, node));
        // A part inside the skeleton (a tread segment, a wheel, one limb) is not the character's root.
        if (better && core::carriesSkeleton(rig, skeletons, node)) {
            best = node;
            bestCount = count;
        }
    }
    return best;
}

}  // namespace rootbake

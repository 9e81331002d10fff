// The root stage: which node carries the clip's motion, the space it is measured in,
// and the character's height.
#include "stages.h"

#include <algorithm>
#include <charconv>
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
                              const std::vector<int>& animated) {
    RootChoice choice;
    if (!options.rootNode.empty()) {
        choice.root = findNode(rig, options.rootNode);
        if (choice.root < 0) return Error{"root node \"" + nodeRefLabel(options.rootNode) + "\" is not in the asset"};
        choice.reason = "root: " + nodeLabel(rig, choice.root) + " (given)";
        return choice;
    }
    choice.root = findRoot(rig, clip);
    if (choice.root >= 0)
        choice.reason = "root: " + nodeLabel(rig, choice.root) + " - position-animated, " +
                        std::to_string(animatedDescendantCounts(rig, animated)[choice.root]) + " animated descendants";
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

int findRoot(const Rig& rig, const Clip& clip) {
    const std::vector<int> animated = core::animatedNodes(rig, clip);
    const std::vector<int> below = core::animatedDescendantCounts(rig, animated);
    std::vector<std::uint8_t> translated(rig.size(), 0);
    for (const Channel& c : clip.channels)
        if (c.path == Path::Translation) translated[c.node] = 1;
    int best = -1, bestCount = -1;
    for (int node : animated) {
        if (!translated[node]) continue;
        const int count = below[node];
        if (count > bestCount || (count == bestCount && best >= 0 && core::isDescendant(rig, best, node))) {
            best = node;
            bestCount = count;
        }
    }
    return best;
}

}  // namespace rootbake

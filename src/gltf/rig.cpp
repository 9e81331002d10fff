// glTF nodes to the core's Rig: node objects, parents, cycles, depth, scenes (clips.cpp
// does the animations).
#include "gltf/internal.h"
#include "rootbake/num.h"

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include <algorithm>
#include <cmath>

namespace rootbake::gltf {

namespace {

std::string node(std::uint64_t v) {
    return "nodes[" + n(v) + "]";
}

}  // namespace

// A glTF `matrix` is column-major: columns 0..2 are the scaled rotation axes,
// column 3 the translation, and the last row must be (0, 0, 0, 1).
//   translation = column 3
//   scale       = the lengths of columns 0..2; a negative determinant (a
//                 mirror) negates scale.x, so the rotation stays proper
//   rotation    = glm::quat_cast of the columns divided by their scales; a
//                 zero-length column (scale 0) is completed by cross products
// Refused: non-finite entries, columns whose length overflows, a projection
// row, and shear (normalized columns not orthogonal within 1e-3).
bool decomposeMatrix(const double m[16], Transform& out) {
    for (int i = 0; i < 16; ++i)
        if (!std::isfinite(m[i])) return false;
    constexpr double kRowTolerance = 1e-6;
    if (std::abs(m[3]) > kRowTolerance || std::abs(m[7]) > kRowTolerance || std::abs(m[11]) > kRowTolerance ||
        std::abs(m[15] - 1.0) > kRowTolerance)
        return false;
    glm::dvec3 axis[3] = {{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}};
    glm::dvec3 scale(glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2]));
    if (!std::isfinite(scale.x) || !std::isfinite(scale.y) || !std::isfinite(scale.z))
        return false;  // 1e200: length overflows
    if (glm::dot(axis[0], glm::cross(axis[1], axis[2])) < 0.0) scale.x = -scale.x;

    constexpr double kZero = 1e-30;
    int zeros = 0;
    for (int k = 0; k < 3; ++k) {
        if (std::abs(scale[k]) < kZero)
            ++zeros;
        else
            axis[k] /= scale[k];
    }
    constexpr double kShear = 1e-3;
    for (int k = 0; k < 3; ++k) {
        const int j = (k + 1) % 3;
        if (std::abs(scale[k]) >= kZero && std::abs(scale[j]) >= kZero &&
            std::abs(glm::dot(axis[k], axis[j])) > kShear)
            return false;
    }
    // Right-handed: axis[k] = axis[k+1] x axis[k+2] (indices mod 3).
    if (zeros == 3) {
        axis[0] = {1, 0, 0}, axis[1] = {0, 1, 0}, axis[2] = {0, 0, 1};
    } else if (zeros == 2) {
        int k = 0;
        while (std::abs(scale[k]) < kZero) ++k;
        const glm::dvec3 a = axis[k];
        const glm::dvec3 helper = std::abs(a.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        axis[(k + 1) % 3] = glm::normalize(glm::cross(a, helper));
        axis[(k + 2) % 3] = glm::cross(a, axis[(k + 1) % 3]);
    } else if (zeros == 1) {
        int k = 0;
        while (std::abs(scale[k]) >= kZero) ++k;
        axis[k] = glm::cross(axis[(k + 1) % 3], axis[(k + 2) % 3]);
    }
    out.translation = glm::dvec3(m[12], m[13], m[14]);
    out.scale = scale;
    out.rotation = glm::normalize(glm::quat_cast(glm::dmat3(axis[0], axis[1], axis[2])));
    return true;
}

namespace {

// The node's own properties: references, name, rest TRS.
Status readNode(const Json& j, const Where& at, std::size_t meshes, std::size_t skins, std::size_t cameras,
                Transform& rest, std::string& name, bool& hasMesh) {
    const std::string* text = nullptr;
    ROOTBAKE_TRY(getString(j, at, "name", false, text));
    if (text) name = *text;
    int mesh = -1, index = -1;
    ROOTBAKE_TRY(getIndex(j, at, "mesh", false, meshes, "meshes", mesh));
    ROOTBAKE_TRY(getIndex(j, at, "skin", false, skins, "skins", index));
    ROOTBAKE_TRY(getIndex(j, at, "camera", false, cameras, "cameras", index));
    hasMesh = mesh >= 0;

    double t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1}, m[16];
    ROOTBAKE_TRY(getNumbers(j, at, "translation", 3, t));
    ROOTBAKE_TRY(getNumbers(j, at, "rotation", 4, r));
    ROOTBAKE_TRY(getNumbers(j, at, "scale", 3, s));
    ROOTBAKE_TRY(getNumbers(j, at, "matrix", 16, m));
    if (member(j, "matrix")) {
        if (member(j, "translation") || member(j, "rotation") || member(j, "scale"))
            return fail(Where(at, "matrix"),
                        "given with translation/rotation/scale (a node has one or the other)");
        if (!decomposeMatrix(m, rest))
            return fail(Where(at, "matrix"), "not a TRS matrix (shear, projection or overflow)");
        return Ok{};
    }
    // A rest rotation feeds toMatrix() directly: it must be a unit quaternion.
    // Small drift (text with few digits) is normalized away.
    const double length = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (std::abs(length - 1.0) > 1e-2)
        return fail(Where(at, "rotation"), "length " + num(length, 9) + " (a unit quaternion expected)");
    rest.translation = glm::dvec3(t[0], t[1], t[2]);
    rest.rotation = glm::dquat(r[3] / length, r[0] / length, r[1] / length, r[2] / length);
    rest.scale = glm::dvec3(s[0], s[1], s[2]);
    return Ok{};
}

// Per glTF node: parent, rest pose, and children as one flat list.
struct NodeTable {
    std::vector<int> parentOf;
    std::vector<Transform> rest;
    std::vector<std::string> names;
    std::vector<std::uint8_t> hasMesh;
    std::vector<std::size_t> childStart;  // node i's children: children[childStart[i], childStart[i + 1])
    std::vector<int> children;
};

Status readNodes(const Json* nodes, const Json& document, const Where& all, NodeTable& table) {
    const Json *meshes = nullptr, *skins = nullptr, *cameras = nullptr;
    ROOTBAKE_TRY(getCollection(document, "meshes", meshes));
    ROOTBAKE_TRY(getCollection(document, "skins", skins));
    ROOTBAKE_TRY(getCollection(document, "cameras", cameras));
    const std::size_t count = sizeOf(nodes);
    table.parentOf.assign(count, -1);
    table.rest.resize(count);
    table.names.resize(count);
    table.hasMesh.assign(count, 0);
    table.childStart.assign(count + 1, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const Json& j = (*nodes)[i];
        const Where at(all, i);
        bool mesh = false;
        ROOTBAKE_TRY(readNode(j, at, sizeOf(meshes), sizeOf(skins), sizeOf(cameras), table.rest[i],
                              table.names[i], mesh));
        table.hasMesh[i] = mesh ? 1 : 0;
        const Json* list = nullptr;
        ROOTBAKE_TRY(getArray(j, at, "children", false, list));
        const Where ca(at, "children");
        for (std::size_t k = 0; k < sizeOf(list); ++k) {
            int child = -1;
            ROOTBAKE_TRY(toIndex((*list)[k], Where(ca, k), count, "nodes", child));
            if (table.parentOf[child] == static_cast<int>(i))
                return fail(Where(ca, k), node(child) + " is listed twice");
            if (table.parentOf[child] >= 0)
                return fail(Where(ca, k), node(child) + " is " + node(table.parentOf[child]) +
                                              "'s child already (one parent at most)");
            table.parentOf[child] = static_cast<int>(i);
            table.children.push_back(child);
        }
        table.childStart[i + 1] = table.children.size();
    }
    return Ok{};
}

// The error for nodes no root reaches: the cycle above the first of them, parent -> child.
Error cycleError(const std::vector<int>& parentOf, const Rig& rig, const Where& all) {
    const std::size_t count = parentOf.size();
    std::size_t first = 0;
    while (rig.rigIndexOfGltf[first] >= 0) ++first;
    // Walk up from the first unreached node until a node repeats: that is the cycle.
    std::vector<int> seenAt(count, -1);
    std::vector<int> walk;
    int g = static_cast<int>(first);
    while (seenAt[g] < 0) {
        seenAt[g] = static_cast<int>(walk.size());
        walk.push_back(g);
        g = parentOf[g];
    }
    // walk[seenAt[g]..] goes child -> parent; print parent -> child.
    std::string cycle = node(g);
    constexpr std::size_t kShown = 8;
    const std::size_t begin = static_cast<std::size_t>(seenAt[g]);
    for (std::size_t k = walk.size(), shown = 0; k > begin; --k, ++shown) {
        if (shown == kShown && k - begin > 1) {
            cycle += " -> ...";
            k = begin + 1;
        }
        cycle += " -> " + node(walk[k - 1]);
    }
    return fail(Where(all, static_cast<std::size_t>(g)), "cycle in the node hierarchy: " + cycle);
}

// Parent-first (depth-first) order from the roots in index order. Every node has at most
// one parent, so a node never reached is in a cycle or below one: building the order is
// the cycle check. No recursion.
Status orderParentFirst(NodeTable& table, const LoadLimits& limits, const Where& all, Rig& rig) {
    const std::size_t count = table.parentOf.size();
    rig = Rig{};
    rig.rigIndexOfGltf.assign(count, -1);
    rig.parent.reserve(count);
    std::vector<int> depth(count, 0);
    std::vector<int> stack;
    for (std::size_t root = 0; root < count; ++root) {
        if (table.parentOf[root] >= 0) continue;
        stack.push_back(static_cast<int>(root));
        while (!stack.empty()) {
            const int g = stack.back();
            stack.pop_back();
            const int p = table.parentOf[g];
            if (p >= 0 && depth[p] + 1 > limits.maxDepth)
                return fail(Where(all, static_cast<std::size_t>(g)),
                            "deeper than maxDepth (" + n(limits.maxDepth) + " levels) in the node hierarchy");
            depth[g] = p >= 0 ? depth[p] + 1 : 0;
            rig.rigIndexOfGltf[g] = rig.size();
            rig.parent.push_back(p >= 0 ? rig.rigIndexOfGltf[p] : -1);
            rig.gltfIndex.push_back(g);
            rig.rest.push_back(table.rest[g]);
            rig.name.push_back(std::move(table.names[g]));
            rig.hasMesh.push_back(table.hasMesh[g]);
            for (std::size_t k = table.childStart[g + 1]; k > table.childStart[g]; --k)
                stack.push_back(table.children[k - 1]);
        }
    }
    if (static_cast<std::size_t>(rig.size()) != count) return cycleError(table.parentOf, rig, all);
    return Ok{};
}

// Scenes list roots only, each once.
Status validateScenes(const Json* scenes, const std::vector<int>& parentOf) {
    const Where sa(kRoot, "scenes");
    const std::size_t count = parentOf.size();
    std::vector<int> listedIn(count, -1);
    for (std::size_t s = 0; s < sizeOf(scenes); ++s) {
        const Where at(sa, s);
        const Json* list = nullptr;
        ROOTBAKE_TRY(getArray((*scenes)[s], at, "nodes", false, list));
        const Where na(at, "nodes");
        for (std::size_t k = 0; k < sizeOf(list); ++k) {
            int root = -1;
            ROOTBAKE_TRY(toIndex((*list)[k], Where(na, k), count, "nodes", root));
            if (parentOf[root] >= 0)
                return fail(Where(na, k),
                            node(root) + " is not a root (it is a child of " + node(parentOf[root]) + ")");
            if (listedIn[root] == static_cast<int>(s))
                return fail(Where(na, k), node(root) + " is listed twice");
            listedIn[root] = static_cast<int>(s);
        }
    }
    return Ok{};
}

}  // namespace

Status buildRig(const Json& document, const LoadLimits& limits, Rig& rig) {
    const Json *nodes = nullptr, *scenes = nullptr;
    ROOTBAKE_TRY(getCollection(document, "nodes", nodes));
    ROOTBAKE_TRY(getCollection(document, "scenes", scenes));
    const Where all(kRoot, "nodes");
    NodeTable table;
    ROOTBAKE_TRY(readNodes(nodes, document, all, table));
    ROOTBAKE_TRY(orderParentFirst(table, limits, all, rig));
    ROOTBAKE_TRY(validateScenes(scenes, table.parentOf));
    int scene = -1;
    ROOTBAKE_TRY(getIndex(document, kRoot, "scene", false, sizeOf(scenes), "scenes", scene));
    return readExpressionNodes(document, rig);
}

Status readExpressionNodes(const Json& document, Rig& rig) {
    // extensions.VRMC_vrm_animation.expressions.{preset,custom}.<name>.node
    const Json* extensions = nullptr;
    ROOTBAKE_TRY(getObject(document, kRoot, "extensions", false, extensions));
    if (!extensions) return Ok{};
    const Where ea(kRoot, "extensions");
    const Json* vrma = nullptr;
    ROOTBAKE_TRY(getObject(*extensions, ea, "VRMC_vrm_animation", false, vrma));
    if (!vrma) return Ok{};
    const Where va(ea, "VRMC_vrm_animation");
    const Json* expressions = nullptr;
    ROOTBAKE_TRY(getObject(*vrma, va, "expressions", false, expressions));
    if (!expressions) return Ok{};
    const Where xa(va, "expressions");
    for (const char* group : {"preset", "custom"}) {
        const Json* named = nullptr;
        ROOTBAKE_TRY(getObject(*expressions, xa, group, false, named));
        if (!named) continue;
        const Where ga(xa, group);
        for (const auto& [name, expression] : named->items()) {
            const Where at(ga, name.c_str());
            if (!expression.is_object()) return fail(at, "expected an object");
            int node = -1;
            ROOTBAKE_TRY(getIndex(expression, at, "node", true, rig.rigIndexOfGltf.size(), "nodes", node));
            rig.drivesExpression.resize(std::size_t(rig.size()), 0);
            rig.drivesExpression[std::size_t(rig.rigIndexOfGltf[std::size_t(node)])] = 1;
        }
    }
    return Ok{};
}

}  // namespace rootbake::gltf

// The body's ground points: the points of the mesh that a limb end moves, posed like
// joints. docs/analysis.md, "Contacts", says why contacts are points of the mesh.
#include "contacts.h"

namespace rootbake::core {

bool isGroundPoint(const Rig& rig, int node) {
    return rig.hasMesh[std::size_t(node)] == kGroundPoint;
}

std::vector<int> limbEnds(const Rig& rig, int base) {
    if (!rig.hasSurface()) return leafJoints(rig, base);
    const std::vector<std::uint8_t> below = descendantsOf(rig, base);
    // A joint that moves no vertex (a pole target, an `_end` tip, a helper) ends no limb:
    // the limb ends at the last joint above it that moves the mesh.
    std::vector<std::uint8_t> carriesBelow(rig.size(), 0);
    for (int n = rig.size() - 1; n >= 0; --n)
        if (rig.parent[n] >= 0 && (carriesBelow[n] || rig.movesMesh(n))) carriesBelow[rig.parent[n]] = 1;
    std::vector<int> ends;
    for (int n = 0; n < rig.size(); ++n)
        if (below[n] && !rig.hasMesh[n] && rig.movesMesh(n) && !carriesBelow[n]) ends.push_back(n);
    // The character's mesh is not among what the file's meshes move (a prop has the mesh):
    // its joints stand for the body.
    return ends.empty() ? leafJoints(rig, base) : ends;
}

Rig withGroundPoints(const Rig& rig) {
    Rig body = rig;
    if (!rig.hasSurface()) return body;
    for (int end : limbEnds(rig, -1))
        for (const glm::dvec3& point : rig.surface[std::size_t(end)]) {
            body.parent.push_back(end);
            Transform rest;
            rest.translation = point;
            body.rest.push_back(rest);
            body.name.push_back(rig.name[std::size_t(end)]);
            body.gltfIndex.push_back(rig.gltfIndex[std::size_t(end)]);
            body.hasMesh.push_back(kGroundPoint);
            body.surface.emplace_back();
            if (!body.bind.empty())
                body.bind.push_back(rig.bind[std::size_t(end)]);  // not measured: a mesh point
        }
    return body;
}

std::vector<int> groundPointsOf(const Rig& rig, int joint) {
    std::vector<int> points;
    for (int n = joint + 1; n < rig.size(); ++n)
        if (rig.parent[n] == joint && isGroundPoint(rig, n)) points.push_back(n);
    return points;
}

glm::dvec3 soleOf(const Rig& rig, int joint) {
    return rig.movesMesh(joint) ? rig.surface[std::size_t(joint)].front() : glm::dvec3(0.0);
}

int jointOf(const Rig& rig, int node) {
    return node >= 0 && isGroundPoint(rig, node) ? rig.parent[node] : node;
}

}  // namespace rootbake::core

#include "rootbake/bake.h"

#include <glm/gtc/matrix_transform.hpp>

namespace rootbake {

glm::dmat4 toMatrix(const Transform& t) {
    glm::dmat4 m = glm::mat4_cast(t.rotation);
    m[0] *= t.scale.x;
    m[1] *= t.scale.y;
    m[2] *= t.scale.z;
    m[3] = glm::dvec4(t.translation, 1.0);
    return m;
}

std::string nodeLabel(const Rig& rig, int node) {
    const std::string& name = rig.name[node];
    if (!name.empty()) return name;
    return "nodes[" + std::to_string(rig.gltfIndex[node]) + "]";
}

std::string clipName(const Clip& clip) {
    return clip.name.empty() ? "animations[" + std::to_string(clip.gltfIndex) + "]" : clip.name;
}

std::string clipLabel(const Clip& clip) {
    const std::string index = "animations[" + std::to_string(clip.gltfIndex) + "]";
    return clip.name.empty() ? index : index + " \"" + clip.name + "\"";
}

}  // namespace rootbake

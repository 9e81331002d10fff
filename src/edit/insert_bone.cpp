// bake --root-bone: the planned bone (NewRootBone) put into the document, between the root and
// its parent, and into the skins that hold the root.
#include "edit/stages.h"
#include "gltf/internal.h"

#include <algorithm>

namespace rootbake::edit {

using gltf::member;

namespace {

// The bone takes the child's place under its parent, or among the scenes' roots.
void takeChildsPlace(Json& doc, int child, int bone) {
    bool placed = false;
    for (Json& node : doc["nodes"])
        if (member(node, "children"))
            for (Json& c : node["children"])
                if (c.get<int>() == child) c = bone, placed = true;
    if (!placed)  // a scene root: the root bone takes its place in every scene
        for (std::size_t s = 0; s < sizeOf(doc, "scenes"); ++s)
            if (member(doc["scenes"][s], "nodes"))
                for (Json& r : doc["scenes"][s]["nodes"])
                    if (r.get<int>() == child) r = bone;
}

// The child's rest translation (or matrix) less the bone's, so it stays where it was.
void moveChildUnderBone(Json& child, const glm::dvec3& translation) {
    if (translation == glm::dvec3(0.0)) return;
    if (member(child, "matrix")) {
        Json& matrix = child["matrix"];
        for (int i = 0; i < 3; ++i) matrix[12 + i] = matrix[12 + i].get<double>() - translation[i];
        return;
    }
    const Json* old = member(child, "translation");
    Json shifted = Json::array();
    for (int i = 0; i < 3; ++i) shifted.push_back((old ? (*old)[i].get<double>() : 0.0) - translation[i]);
    child["translation"] = std::move(shifted);
}

// The skin's inverse bind matrices with the bone's appended (NewRootBone says which).
Status appendInverseBind(EditState& state, std::size_t s, const NewRootBone& bone) {
    const gltf::Asset& asset = state.asset;
    Json& skin = state.out.document["skins"][s];
    const Json& joints = skin["joints"];
    const int accessor = skin["inverseBindMatrices"].get<int>();
    auto matrices = gltf::decodeAccessor(asset, accessor);
    if (!matrices)
        return Error{asset.fileName + ": skins[" + std::to_string(s) +
                     "]: cannot take the root bone as a joint: its inverseBindMatrices (accessors[" +
                     std::to_string(accessor) + "]) cannot be read: " + matrices.error().message};
    std::vector<float> values = std::move(*matrices);
    const auto at =
        std::find_if(joints.begin(), joints.end(), [&](const Json& j) { return j.get<int>() == bone.child; });
    const std::size_t first = 16 * std::size_t(at - joints.begin());
    if (values.size() < first + 16)
        return Error{asset.fileName + ": skins[" + std::to_string(s) + "]: inverseBindMatrices (accessors[" +
                     std::to_string(accessor) + "]) has no matrix for joint nodes[" +
                     std::to_string(bone.child) + "]"};
    glm::dmat4 childBind, childRest;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            childBind[c][r] = values[first + std::size_t(4 * c + r)];
            childRest[c][r] = bone.childRest[std::size_t(4 * c + r)];
        }
    const glm::dmat4 inverseBind = childRest * childBind;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) values.push_back(float(inverseBind[c][r]));
    int buffer = bufferOfAccessor(state, accessor);
    if (buffer < 0 || hasNoData(asset, state.out, buffer)) {
        auto any = anyDataBuffer(state);
        if (!any) return Error{asset.fileName + ": " + any.error().message};
        buffer = *any;
    }
    // In place when only this skin reads it, as a rewritten sampler output is.
    const int written = writeOutput(state, accessor, buffer, values, 16, "MAT4");
    state.out.document["skins"][s]["inverseBindMatrices"] = written;
    return Ok{};
}

}  // namespace

Status insertRootBone(EditState& state, const NewRootBone& bone) {
    Json& doc = state.out.document;
    const int node = int(doc["nodes"].size());
    state.rootBoneNode = node;
    takeChildsPlace(doc, bone.child, node);
    moveChildUnderBone(doc["nodes"][bone.child], bone.translation);
    Json added{{"name", bone.name}};
    if (bone.translation != glm::dvec3(0.0))
        added["translation"] = Json::array({bone.translation.x, bone.translation.y, bone.translation.z});
    added["children"] = Json::array({bone.child});
    doc["nodes"].push_back(std::move(added));

    for (std::size_t s = 0; s < sizeOf(doc, "skins"); ++s) {
        Json& skin = doc["skins"][s];
        Json& joints = skin["joints"];
        if (std::none_of(joints.begin(), joints.end(),
                         [&](const Json& j) { return j.get<int>() == bone.child; }))
            continue;
        if (const Json* skeleton = member(skin, "skeleton"); skeleton && skeleton->get<int>() == bone.child)
            skin["skeleton"] = node;
        joints.push_back(node);
        if (!member(skin, "inverseBindMatrices"))
            continue;  // every joint's is the identity, the root bone's too
        ROOTBAKE_TRY(appendInverseBind(state, s, bone));
    }
    return Ok{};
}

}  // namespace rootbake::edit

// editDocument: the edit stages composed (edit.h lists them), and the state they share.
#include "edit/stages.h"
#include "gltf/internal.h"

#include <algorithm>

namespace rootbake::edit {

using gltf::member;

namespace {

// Each animation's place and name in the output, as the input has them.
void nameAnimations(EditedDocument& out) {
    const std::size_t animations = sizeOf(out.document, "animations");
    out.animationOf.resize(animations);
    out.nameOf.resize(animations);
    for (std::size_t a = 0; a < animations; ++a) {
        out.animationOf[a] = int(a);
        const Json* name = member(out.document["animations"][a], "name");
        const bool named = name && name->is_string() && !name->get<std::string>().empty();
        out.nameOf[a] = named ? name->get<std::string>() : "animations[" + std::to_string(a) + "]";
    }
}

// Per rewrite (sorted by animation): the animation it edits, -1 for none; with keepSource a copy
// "<name> (in place)" appended to animations[].
std::vector<int> targetAnimations(EditedDocument& out, const std::vector<const ClipRewrite*>& sorted,
                                  bool keepSource) {
    std::vector<int> target;
    for (const ClipRewrite* c : sorted) {
        if (c->animation < 0 || std::size_t(c->animation) >= out.animationOf.size() ||
            (c->channels.empty() && c->rootBoneChannels.empty())) {
            target.push_back(-1);
            continue;
        }
        int index = c->animation;
        if (keepSource) {
            Json copy = out.document["animations"][index];
            const std::string base = out.nameOf[index];
            copy["name"] = base + " (in place)";
            out.document["animations"].push_back(std::move(copy));
            index = int(out.document["animations"].size()) - 1;
            out.nameOf[c->animation] = base + " (in place)";
        }
        out.animationOf[c->animation] = index;
        target.push_back(index);
    }
    return target;
}

// extras.rootbake of each animation played, replacing one a bake wrote before; the
// animation's other extras stay as they are.
void addExtras(EditedDocument& out, const std::vector<AnimationExtras>& extras) {
    for (const AnimationExtras& e : extras) {
        if (e.animation < 0 || std::size_t(e.animation) >= out.animationOf.size()) continue;
        Json& anim = out.document["animations"][std::size_t(out.animationOf[std::size_t(e.animation)])];
        if (!anim.contains("extras")) anim["extras"] = Json::object();
        if (anim["extras"].is_object()) anim["extras"]["rootbake"] = e.rootbake;
    }
}

Result<EditedDocument> runStages(EditState& state, const std::vector<ClipRewrite>& clips, bool keepSource,
                                 const NewRootBone* rootBone, const std::vector<AnimationExtras>& extras) {
    std::vector<const ClipRewrite*> sorted;
    for (const ClipRewrite& c : clips) sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(),
              [](const ClipRewrite* a, const ClipRewrite* b) { return a->animation < b->animation; });
    EditedDocument& out = state.out;
    nameAnimations(out);
    const std::vector<int> target = targetAnimations(out, sorted, keepSource);

    // Collections that get new entries exist before any reference into the
    // document is held (adding a key to the root moves its members).
    if (rootBone || std::any_of(target.begin(), target.end(), [](int t) { return t >= 0; }))
        for (const char* key : {"buffers", "bufferViews", "accessors"})
            if (!member(out.document, key)) out.document[key] = Json::array();
    state.refs = countReferences(out.document);
    state.originalViews = sizeOf(out.document, "bufferViews");
    state.reused.assign(state.originalViews, 0);
    if (rootBone) ROOTBAKE_TRY(insertRootBone(state, *rootBone));
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (target[i] >= 0) ROOTBAKE_TRY(rewriteChannels(state, target[i], *sorted[i]));
    addExtras(out, extras);
    dropDeadRanges(state);
    appendNewKeys(state);
    return std::move(state.out);
}

}  // namespace

void touchBuffer(EditState& state, std::size_t buffer) {
    BufferEdit& edit = state.out.buffers[buffer];
    if (edit.touched) return;
    edit.touched = true;
    // The loader checked the bytes are there.
    edit.kept = uintOf(state.out.document["buffers"][buffer], "byteLength");
}

int bufferOfAccessor(const EditState& state, int accessor) {
    const Json& doc = state.out.document;
    const Json* view = member(doc["accessors"][accessor], "bufferView");
    if (!isIndex(view)) return -1;
    return int(uintOf(doc["bufferViews"][view->get<std::size_t>()], "buffer"));
}

Result<int> anyDataBuffer(EditState& state) {
    EditedDocument& out = state.out;
    for (std::size_t b = 0; b < sizeOf(out.document, "buffers"); ++b)
        if (!hasNoData(state.asset, out, b)) return int(b);
    if (sizeOf(out.document, "buffers") == 0) {  // a new buffers[0]: the BIN chunk, or the new .bin
        out.document["buffers"].push_back(Json{{"byteLength", 0}});
        out.buffers.assign(1, {});
        out.buffers[0].touched = true;
        return 0;
    }
    return Error{"buffers: none can take the rewritten keys (every buffer has no data)"};
}

Result<EditedDocument> editDocument(const gltf::Asset& asset, const std::vector<ClipRewrite>& clips,
                                    bool keepSource, const NewRootBone* rootBone,
                                    const std::vector<AnimationExtras>& extras) {
    EditState state(asset);
    state.out.document = asset.document;
    state.out.buffers.resize(asset.buffers.size());
    return runStages(state, clips, keepSource, rootBone, extras);
}

}  // namespace rootbake::edit

// The edit stages' shared state and the stages themselves, grouped by the file that implements
// them; editDocument (edit.cpp) runs them in order. Only src/edit includes this.
#pragma once

#include "edit/edit.h"

#include <cstdint>
#include <vector>

namespace rootbake::edit {

// ---- references.cpp: what refers to what -------------------------------------------------

// How many times each accessor and bufferView is referenced.
struct References {
    std::vector<int> accessor, view;
    bool opaque = false;  // an unknown extension is present: anything may be referenced
};

// The references of every object the glTF spec and the known extensions define. Any other
// extension might reference anything, so with one present (opaque) nothing is reused in place
// and no byte is moved.
References countReferences(const Json& doc);

// ---- edit.cpp: the state the stages share ----------------------------------------------------

// New bytes for a bufferView, appended to its buffer by appendNewKeys.
struct NewKeys {
    int view = 0, buffer = 0;
    std::vector<std::uint8_t> bytes;
};

struct EditState {
    explicit EditState(const gltf::Asset& input) : asset(input) {}

    const gltf::Asset& asset;
    EditedDocument out;
    References refs;
    std::size_t originalViews = 0;       // bufferViews before any was added
    std::vector<std::uint8_t> reused;    // per original bufferView: now holds rewritten data
    std::vector<ByteRange> deadStreams;  // meshopt streams of reused views: read by nothing now
    std::vector<NewKeys> newKeys;
    int rootBoneNode = -1;  // glTF index of the inserted root bone
};

// Marks a buffer edited: from now on its bytes are the source's first byteLength less the cuts,
// then the tail.
void touchBuffer(EditState& state, std::size_t buffer);
// The buffer of an accessor's bufferView, -1 when it has none.
int bufferOfAccessor(const EditState& state, int accessor);
// The buffer new data goes to when there is no old data to follow (a new buffers[0] when the
// document has none).
Result<int> anyDataBuffer(EditState& state);

// ---- channels.cpp: the clips' channels rewritten -----------------------------------------------

// New data for a sampler's output accessor (or a skin's inverse binds): in place when nothing else
// uses it, else in a new accessor. Returns the accessor to use.
int writeOutput(EditState& state, int accessor, int buffer, const std::vector<float>& values, int width,
                const char* type);
// The clip's channels pointed at its in-place keys, and the root bone's channels added.
Status rewriteChannels(EditState& state, int animation, const ClipRewrite& clip);

// ---- insert_bone.cpp: the root bone inserted --------------------------------------------------

// Puts the root bone into the hierarchy and the child's skins (NewRootBone says how).
Status insertRootBone(EditState& state, const NewRootBone& bone);

// ---- compact.cpp: the dead bytes dropped, the new keys appended -------------------------------

// Cuts the old bytes of reused bufferViews out of their buffers (planCompaction) and moves the
// bufferViews above them down.
void dropDeadRanges(EditState& state);
// Appends the new keys at the end of their buffers, 4-byte aligned.
void appendNewKeys(EditState& state);

}  // namespace rootbake::edit

// frameDocument: the edited document's JSON printed or spliced, its buffers placed (framing.h),
// and the GLB or .gltf framed; rewriteAsset: the edits, then the frame.
#include "gltf/internal.h"
#include "write/framing.h"

#include <algorithm>

namespace rootbake::write {

namespace {

// The output's JSON: the input's text spliced when the container stays, else printed whole
// (RewriteOptions::reprint says why).
std::string outputJson(const FrameState& state, bool glb) {
    const gltf::Asset& asset = state.asset;
    const bool splice = !state.options.reprint && glb == asset.binary && !asset.jsonText.empty();
    if (splice) {
        const std::string_view text(reinterpret_cast<const char*>(asset.jsonText.data()),
                                    asset.jsonText.size());
        // A GLB's trailing whitespace is its padding, which the frame makes again.
        return spliceJson(text, /*keepTrailing=*/!glb, asset.document, state.edited.document);
    }
    const int indent = glb ? -1 : state.options.indent;
    std::string json = state.edited.document.dump(indent, ' ', false, Json::error_handler_t::strict);
    if (indent >= 0) json += '\n';
    return json;
}

// The GLB's bytes: its JSON, then the BIN chunk: buffers[0] as it is (binIsBuffer0: a GLB input),
// or the merged buffers of a .gltf input (bin) with the embedded image files streamed after them.
Status frameGlb(FrameState& state, const std::string& json, OutputBytes& bin, bool hasBin,
                bool binIsBuffer0) {
    const gltf::Asset& asset = state.asset;
    const edit::EditedDocument& edited = state.edited;
    const bool touched0 = binIsBuffer0 && edited.buffers[0].touched;
    const std::uint64_t binSize =
        binIsBuffer0 ? (touched0 ? edit::heldBytes(asset, edited, 0) : edit::sourceBytes(asset, 0).size())
                     : std::max<std::uint64_t>(bin.size, state.binEnd);
    const bool anyBin = hasBin || state.binEnd;
    const std::uint64_t total = glbSize(json.size(), anyBin ? binSize : 0);
    if (total > kMaxGlbBytes)
        return Error{asset.fileName + ": the GLB output would be " + std::to_string(total) +
                     " bytes, more than a GLB can hold (" + std::to_string(kMaxGlbBytes) +
                     ": its lengths are 32-bit); write a .gltf (--gltf)"};
    OutputBytes out = glbHead(json, anyBin, binSize);
    if (binIsBuffer0 && touched0)
        appendBuffer(asset, edited, 0, out);
    else if (binIsBuffer0)
        out.input(edit::sourceBytes(asset, 0));
    for (OutputPiece& p : bin.list) {
        if (p.bytes.empty())
            out.input(p.input);
        else
            out.made(p.bytes.data(), p.bytes.size());
    }
    // Zeros up to the end, unless image files are streamed there (the writer pads after them).
    const bool streamsFiles = state.binEnd && binSize > bin.size;
    if (anyBin && !streamsFiles) out.pad(total);
    // The embedded files' offsets in the GLB: after its header, JSON chunk and BIN header.
    const std::uint64_t binStart = 12 + 8 + edit::align4(json.size()) + 8;
    for (StreamedFile& f : state.embedded) f.offset += binStart;
    state.out.streamed = std::move(state.embedded);
    state.out.main = std::move(out.list);
    state.out.mainSize = total;
    return Ok{};
}

Result<RewrittenAsset> frame(FrameState& state) {
    const gltf::Asset& asset = state.asset;
    for (const std::string& uri : asset.externalUris) {
        auto file = gltf::resolveUri(uri, asset.folder, gltf::Where("uri"));
        if (file) state.out.reads.push_back(*file);
    }
    const bool glb = state.options.container == Container::Glb;
    OutputBytes bin;  // the merged buffers of a .gltf input
    bool hasBin = false, binIsBuffer0 = false;
    if (glb && !asset.binary) {
        ROOTBAKE_TRY(mergeBuffers(state, bin));
        hasBin = bin.size > 0;
    } else {
        ROOTBAKE_TRY(placeBuffersAsTheyAre(state, glb));
        // buffers[0] as read (padding and all) when untouched, else byteLength bytes
        const Json& doc = state.edited.document;
        binIsBuffer0 = hasBin = glb && edit::sizeOf(doc, "buffers") > 0 &&
                                !gltf::member(doc["buffers"][0], "uri") &&
                                edit::heldBytes(asset, state.edited, 0) > 0;
    }
    if (!glb || asset.binary) ROOTBAKE_TRY(copyImageFiles(state));

    const std::string json = outputJson(state, glb);
    if (glb) {
        ROOTBAKE_TRY(frameGlb(state, json, bin, hasBin, binIsBuffer0));
    } else {
        state.out.mainSize = json.size();
        state.out.main.push_back({std::vector<std::uint8_t>(json.begin(), json.end()), {}});
    }
    return std::move(state.out);
}

}  // namespace

Result<RewrittenAsset> frameDocument(const gltf::Asset& asset, edit::EditedDocument edited,
                                     const RewriteOptions& options) {
    FrameState state(asset, std::move(edited), options);
    state.out.animationOf = state.edited.animationOf;
    state.out.nameOf = state.edited.nameOf;
    state.out.bytesAppended = state.edited.bytesAppended;
    state.out.bytesDropped = state.edited.bytesDropped;
    return frame(state);
}

Result<RewrittenAsset> rewriteAsset(const gltf::Asset& asset, const std::vector<edit::ClipRewrite>& clips,
                                    const RewriteOptions& options, const edit::NewRootBone* rootBone,
                                    const std::vector<edit::AnimationExtras>& extras) {
    try {
        auto edited = edit::editDocument(asset, clips, options.keepSource, rootBone, extras);
        if (!edited) return edited.error();
        return frameDocument(asset, std::move(*edited), options);
    } catch (const std::bad_alloc&) {
        return Error{asset.fileName + ": out of memory"};
    } catch (const std::exception& e) {  // nlohmann: a document the loader accepted but we cannot edit
        return Error{asset.fileName + ": cannot rewrite: " + e.what()};
    }
}

}  // namespace rootbake::write

// Where the buffers and images of the edited document go in the container: a GLB's BIN chunk,
// new .bin files, data: URIs, or files copied beside the output as they are.
#include "io/base64.h"
#include "gltf/internal.h"
#include "write/framing.h"

namespace rootbake::write {

namespace fs = std::filesystem;
using edit::sizeOf;
using edit::uintOf;
using gltf::member;

namespace {

// The data: URI header kept when it was base64, else the generic one.
std::string dataUri(const std::string& old, std::span<const std::uint8_t> bytes) {
    const std::size_t comma = old.find(',');
    std::string header = old.substr(0, comma == std::string::npos ? 0 : comma + 1);
    if (header.size() < 8 || header.compare(header.size() - 8, 8, ";base64,") != 0)
        header = "data:application/octet-stream;base64,";
    return header + io::encodeBase64(bytes);
}

// Image media types by file extension, for embedding in a GLB.
const char* mimeTypeOf(const fs::path& file) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
    if (ext == ".png") return "image/png";
    if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
    if (ext == ".webp") return "image/webp";
    if (ext == ".ktx2") return "image/ktx2";
    return nullptr;
}

// The size of a file to embed: what the writer then streams, and checks again.
Result<std::uint64_t> fileSize(const fs::path& file) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec) return Error{file.string() + ": cannot read: " + ec.message()};
    return std::uint64_t(size);
}

Result<fs::path> resolve(const FrameState& state, const std::string& uri, const char* what,
                         std::size_t index) {
    const gltf::Where all(gltf::kRoot, what), at(all, index), uriAt(at, "uri");
    auto file = gltf::resolveUri(uri, state.asset.folder, uriAt);
    if (!file) return Error{state.asset.fileName + ": " + file.error().message};
    return *file;
}

void copyBeside(FrameState& state, const fs::path& file) {
    const fs::path relative = file.lexically_relative(state.asset.folder).lexically_normal();
    for (const SideFile& f : state.out.files)
        if (f.relativePath == relative) return;
    state.out.files.push_back({relative, {}, file});
}

// "walk.bin", then "walk_1.bin", "walk_2.bin"...
std::string nextBinName(FrameState& state) {
    if (state.binNames++ == 0) return state.options.binName;
    const fs::path stem = fs::path(state.options.binName).stem();
    return stem.string() + "_" + std::to_string(state.binNames - 1) + ".bin";
}

// A buffer written to a new .bin beside a .gltf.
void writeBin(FrameState& state, std::size_t b) {
    const std::string name = nextBinName(state);
    state.out.files.push_back({fs::path(name), bufferBytes(state.asset, state.edited, b), {}});
    state.edited.document["buffers"][b]["uri"] = fileNameToUri(name);
}

// Each bufferView (and meshopt stream) of a buffer merged into the BIN chunk points into it:
// the buffer's new index, and its bytes' offset there (base).
void rebaseViews(Json& doc, const std::vector<int>& newIndex, const std::vector<std::uint64_t>& base) {
    auto rebase = [&](Json& holder) {
        const std::size_t b = uintOf(holder, "buffer");
        if (b >= newIndex.size()) return;
        holder["buffer"] = newIndex[b];
        if (base[b] != 0 || member(holder, "byteOffset"))
            holder["byteOffset"] = uintOf(holder, "byteOffset") + base[b];
    };
    for (std::size_t v = 0; v < sizeOf(doc, "bufferViews"); ++v) {
        Json& view = doc["bufferViews"][v];
        rebase(view);
        for (const char* name : edit::kMeshoptExtensions)
            if (edit::extensionOf(view, name)) rebase(view["extensions"][name]);
    }
}

// External images of a known type go into the BIN chunk, after its other bytes (binSize of
// them): not read here, the writer streams them. Sets *any when one is embedded.
Status embedImages(FrameState& state, std::uint64_t binSize, bool* any) {
    Json& doc = state.edited.document;
    for (std::size_t i = 0; i < sizeOf(doc, "images"); ++i) {
        const Json* uri = member(doc["images"][i], "uri");
        if (!uri || gltf::isDataUri(uri->get<std::string>())) continue;
        auto file = resolve(state, uri->get<std::string>(), "images", i);
        if (!file) return file.error();
        const char* mime = mimeTypeOf(*file);
        if (!mime) {
            copyBeside(state, *file);
            continue;
        }
        auto size = fileSize(*file);
        if (!size)
            return Error{state.asset.fileName + ": images[" + std::to_string(i) +
                         "]: " + size.error().message};
        const std::uint64_t offset = edit::align4(state.binEnd ? state.binEnd : binSize);
        if (!member(doc, "bufferViews")) doc["bufferViews"] = Json::array();
        doc["bufferViews"].push_back(Json{{"buffer", 0}, {"byteOffset", offset}, {"byteLength", *size}});
        state.embedded.push_back({*file, offset, *size});
        state.binEnd = offset + *size;
        state.out.bytesAppended += *size;
        Json& image = doc["images"][i];  // fetched again: the root may have moved
        image.erase("uri");
        image["bufferView"] = doc["bufferViews"].size() - 1;
        if (!member(image, "mimeType")) image["mimeType"] = mime;
        *any = true;
    }
    return Ok{};
}

}  // namespace

Status placeBuffersAsTheyAre(FrameState& state, bool glb) {
    const gltf::Asset& asset = state.asset;
    for (std::size_t b = 0; b < sizeOf(state.edited.document, "buffers"); ++b) {
        Json& buffer = state.edited.document["buffers"][b];
        const bool touched = state.edited.buffers[b].touched;
        const Json* uri = member(buffer, "uri");
        if (!uri) {
            // A GLB's BIN chunk: stays in a GLB, becomes a .bin beside a .gltf.
            const bool bin =
                b == 0 && (asset.binary || touched) && edit::heldBytes(asset, state.edited, 0) > 0;
            if (bin && !glb) writeBin(state, b);
            continue;
        }
        const std::string text = uri->get<std::string>();
        if (gltf::isDataUri(text)) {
            if (touched) buffer["uri"] = dataUri(text, bufferBytes(asset, state.edited, b));
        } else if (touched) {
            writeBin(state, b);
        } else {
            auto file = resolve(state, text, "buffers", b);
            if (!file) return file.error();
            copyBeside(state, *file);
        }
    }
    return Ok{};
}

Status mergeBuffers(FrameState& state, OutputBytes& bin) {
    Json& doc = state.edited.document;
    const std::size_t count = sizeOf(doc, "buffers");
    std::vector<int> newIndex(count, 0);
    std::vector<std::uint64_t> base(count, 0);
    Json buffers = Json::array({Json{{"byteLength", 0}}});
    bool anyData = false;
    for (std::size_t b = 0; b < count; ++b) {
        if (edit::hasNoData(state.asset, state.edited, b)) {
            newIndex[b] = int(buffers.size());
            buffers.push_back(doc["buffers"][b]);
            continue;
        }
        anyData = true;
        bin.pad(edit::align4(bin.size));
        base[b] = bin.size;
        appendBuffer(state.asset, state.edited, b, bin);
    }
    if (count > 0 && !anyData)
        return Error{state.asset.fileName + ": buffers: no buffer has data to put in a GLB"};
    rebaseViews(doc, newIndex, base);
    ROOTBAKE_TRY(embedImages(state, bin.size, &anyData));
    if (!anyData) return Ok{};
    buffers[0]["byteLength"] = state.binEnd ? state.binEnd : bin.size;
    doc["buffers"] = std::move(buffers);
    return Ok{};
}

Status copyImageFiles(FrameState& state) {
    const Json& doc = state.edited.document;
    for (std::size_t i = 0; i < sizeOf(doc, "images"); ++i) {
        const Json* uri = member(doc["images"][i], "uri");
        if (!uri || gltf::isDataUri(uri->get<std::string>())) continue;
        auto file = resolve(state, uri->get<std::string>(), "images", i);
        if (!file) return file.error();
        copyBeside(state, *file);
    }
    return Ok{};
}

std::string fileNameToUri(const std::string& name) {
    static const char* digits = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : name) {
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (keep) {
            out += char(c);
        } else {
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

}  // namespace rootbake::write

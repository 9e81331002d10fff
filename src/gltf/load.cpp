// loadAsset: bytes -> JSON -> structure checks -> Rig -> buffers -> key data
// -> Clips. Everything is checked before any file beside the asset is read,
// and every claimed length is compared with what is there before it is used.
#include "gltf/internal.h"
#include "io/read_file.h"

#include <algorithm>
#include <cstring>
#include <system_error>

namespace rootbake::gltf {

namespace fs = std::filesystem;

namespace {

bool endsWithNoCase(const std::string& s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char c = s[s.size() - suffix.size() + i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

void addUnique(std::vector<std::string>& list, const std::string& uri) {
    for (const std::string& u : list)
        if (u == uri) return;
    list.push_back(uri);
}

// The bytes of every buffer: the GLB BIN chunk, a data: URI, or a file beside
// the asset (only its first byteLength bytes).
// assetBytes: the asset file's; a GLB's BIN chunk is a slice of them, not a copy.
Status loadBuffers(const Layout& layout, const GlbChunks* glb, const fs::path& folder,
                   const io::SharedBytes& assetBytes, Asset& asset) {
    const Where all(kRoot, "buffers");
    asset.buffers.resize(layout.buffers.size());
    for (std::size_t i = 0; i < layout.buffers.size(); ++i) {
        const BufferLayout& b = layout.buffers[i];
        const Where at(all, i);
        const Where uriAt(at, "uri");
        io::SharedBytes& bytes = asset.buffers[i];
        if (b.noData) continue;
        if (!b.uri) {  // a GLB's buffers[0]
            if (!glb->hasBin) return fail(at, "no uri, and the GLB has no BIN chunk");
            if (glb->bin.size() < b.byteLength)
                return fail(at, "byteLength " + std::to_string(b.byteLength) +
                                    " is more than the BIN chunk's " + std::to_string(glb->bin.size()) +
                                    " bytes");
            bytes = assetBytes.slice(static_cast<std::size_t>(glb->bin.data() - assetBytes.data()),
                                     glb->bin.size());
        } else if (isDataUri(*b.uri)) {
            std::vector<std::uint8_t> decoded;
            ROOTBAKE_TRY(decodeDataUri(*b.uri, uriAt, decoded));
            bytes = io::SharedBytes(std::move(decoded));
            if (bytes.size() < b.byteLength)
                return fail(at, "byteLength " + std::to_string(b.byteLength) +
                                    " is more than its data: URI's " + std::to_string(bytes.size()) +
                                    " bytes");
        } else {
            auto file = resolveUri(*b.uri, folder, uriAt);
            if (!file) return file.error();
            ROOTBAKE_TRY(readFilePrefix(*file, *b.uri, b.byteLength, uriAt, bytes));
            addUnique(asset.externalUris, *b.uri);
        }
    }
    return Ok{};
}

// Image files are checked (URI rules, a regular file) but not read: images pass through
// untouched. A missing image is a warning (Asset::missingImages): only bake needs images.
// Image files count against maxImageBytes, each file once: bake copies or embeds them.
Status checkImageFiles(const fs::path& folder, const LoadLimits& limits, Asset& asset) {
    const Json* images = member(asset.document, "images");
    const Where ia(kRoot, "images");
    std::vector<fs::path> counted;  // image files already counted
    std::uint64_t imageBytes = 0;
    for (std::size_t i = 0; images && i < images->size(); ++i) {
        const Json* uri = member((*images)[i], "uri");
        if (!uri) continue;
        const std::string& text = uri->get_ref<const std::string&>();
        if (isDataUri(text)) continue;  // kept in the document as it is
        const Where at(ia, i), uriAt(at, "uri");
        bool missing = false;
        auto file = resolveUri(text, folder, uriAt, &missing);
        if (missing) {  // only bake reads images, to copy or embed them
            asset.missingImages.push_back(file.error().message);
            asset.warnings.push_back(file.error().message + " (only bake needs it, to copy or embed it)");
            continue;
        }
        if (!file) return file.error();
        addUnique(asset.externalUris, text);
        if (std::find(counted.begin(), counted.end(), *file) != counted.end()) continue;
        counted.push_back(*file);
        std::error_code ec;
        const std::uintmax_t size = fs::file_size(*file, ec);
        if (!ec) imageBytes += size;
        if (imageBytes > limits.maxImageBytes)
            return fail(uriAt, "image files of " + std::to_string(imageBytes) +
                                   " bytes up to this one, more than " + "maxImageBytes (" +
                                   std::to_string(limits.maxImageBytes) + ")");
    }
    return Ok{};
}

Status load(const io::SharedBytes& file, const fs::path& folder, const LoadLimits& limits, Asset& asset) {
    const Bytes bytes = file;
    if (bytes.size() > limits.maxFileBytes)
        return fail(Where("file"), std::to_string(bytes.size()) + " bytes, more than maxFileBytes (" +
                                       std::to_string(limits.maxFileBytes) + ")");
    GlbChunks glb;
    Bytes text = bytes;
    if (looksLikeGlb(bytes)) {
        auto chunks = splitGlb(bytes);
        if (!chunks) return chunks.error();
        glb = *chunks;
        text = glb.json;
        asset.binary = true;
    } else if (endsWithNoCase(asset.fileName, ".glb")) {
        return fail(Where("GLB header"), "magic is not 'glTF' (not a GLB file)");
    }

    auto document = parseJson(text, limits.maxJsonDepth);
    if (!document) return document.error();
    asset.document = std::move(*document);
    asset.jsonText = file.slice(static_cast<std::size_t>(text.data() - file.data()), text.size());

    Layout layout;
    ROOTBAKE_TRY(validateDocument(asset.document, asset.binary, limits, layout));
    ROOTBAKE_TRY(buildRig(asset.document, limits, asset.rig));
    if (const Json* scene = member(asset.document, "scene")) {
        std::uint64_t index = 0;
        ROOTBAKE_TRY(toUint(*scene, Where(kRoot, "scene"), index));
        asset.scene = static_cast<int>(index);  // buildRig checked the range
    } else {
        asset.scene = sizeOf(member(asset.document, "scenes")) > 0 ? 0 : -1;
    }
    ROOTBAKE_TRY(loadBuffers(layout, asset.binary ? &glb : nullptr, folder, file, asset));
    ROOTBAKE_TRY(checkImageFiles(folder, limits, asset));
    ROOTBAKE_TRY(validateData(layout, asset.buffers));
    ROOTBAKE_TRY(buildClips(asset.document, layout, asset.buffers, asset.rig, asset.clips, asset.warnings));
    ROOTBAKE_TRY(buildSurface(asset.document, layout, asset.buffers, asset.rig, asset.warnings));
    warnOfSplitAnimation(asset.rig, asset.clips, asset.warnings);
    return Ok{};
}

Result<Asset> loadBytes(const io::SharedBytes& file, const std::string& fileName, const fs::path& folder,
                        const LoadLimits& limits) {
    Asset asset;
    asset.fileName = fileName;
    asset.folder = folder;
    try {
        if (Status status = load(file, folder, limits, asset); !status)
            return Error{fileName + ": " + status.error().message};
    } catch (const std::bad_alloc&) {
        return Error{fileName + ": out of memory"};
    } catch (const std::exception& e) {  // nlohmann or std::filesystem: caught at their edge
        return Error{fileName + ": " + e.what()};
    }
    return asset;
}

}  // namespace

Result<Asset> loadAssetFromMemory(std::span<const std::uint8_t> bytes, const std::string& fileName,
                                  const fs::path& folder, const LoadLimits& limits) {
    return loadBytes(io::SharedBytes(std::vector<std::uint8_t>(bytes.begin(), bytes.end())), fileName, folder,
                     limits);
}

Result<io::SharedBytes> readAssetFile(const fs::path& file, const LoadLimits& limits,
                                      std::function<void(const io::SharedBytes&)> progress) {
    io::FileRead read{limits.maxFileBytes, "maxFileBytes"};
    read.progress = std::move(progress);
    auto bytes = io::readFileBytes(file, read);
    if (!bytes) return Error{file.string() + ": " + bytes.error().message};
    return bytes;
}

Result<Asset> loadAssetFile(const io::SharedBytes& bytes, const fs::path& file, const LoadLimits& limits) {
    fs::path folder = file.parent_path();
    if (folder.empty()) folder = ".";
    return loadBytes(bytes, file.string(), folder, limits);
}

Result<Asset> loadAsset(const fs::path& file, const LoadLimits& limits) {
    auto bytes = readAssetFile(file, limits);
    if (!bytes) return bytes.error();
    return loadAssetFile(*bytes, file, limits);
}

}  // namespace rootbake::gltf

// EXT_meshopt_compression (and KHR_meshopt_compression, whose version 0 streams are the same
// bitstream): a bufferView's bytes decoded with Debian's libmeshoptimizer, for the analysis (the
// body's mesh, animation keys) and the root bone's inverse bind matrices. One decoder for all:
// the compressed bytes pass through the writer untouched.
#include "gltf/internal.h"

#include <meshoptimizer.h>

#include <algorithm>

namespace rootbake::gltf {

namespace {

// The most a valid stream decodes to per byte of it: an attribute stream spends at least 2 header
// bits on each 16 deltas of one byte position (64 bytes out per byte in); triangles take a byte
// per triangle (12 bytes of 4-byte indices), indices a byte per index. A view said to decode to
// more is refused before anything is allocated: memory follows the bytes the file holds.
constexpr std::uint64_t kMaxExpansion = 64;

// A non-negative integer property; `required` absent, or another type, is false.
bool uintOf(const Json& object, const char* key, bool required, std::uint64_t& out) {
    const Json* j = member(object, key);
    if (!j) return !required;
    if (j->is_number_unsigned()) {
        out = j->get<std::uint64_t>();
        return true;
    }
    if (j->is_number_integer() && j->get<std::int64_t>() >= 0) {
        out = std::uint64_t(j->get<std::int64_t>());
        return true;
    }
    return false;
}

bool stringIs(const Json* j, const char* value) {
    return j && j->is_string() && j->get_ref<const std::string&>() == value;
}

const char* const kMeshoptExtensions[] = {"EXT_meshopt_compression", "KHR_meshopt_compression"};

}  // namespace

const Json* meshoptOf(const Json& view, const char** name) {
    const Json* extensions = member(view, "extensions");
    if (!extensions || !extensions->is_object()) return nullptr;
    for (const char* extension : kMeshoptExtensions)
        if (const Json* e = member(*extensions, extension)) {
            if (name) *name = extension;
            return e;
        }
    return nullptr;
}

namespace {

enum class StreamMode { Attributes, Triangles, Indices };
enum class StreamFilter { None, Octahedral, Quaternion, Exponential };

// The extension object's fields, checked against the spec's rules, which are also what the
// library's functions assume of their arguments.
struct MeshoptStream {
    std::uint64_t buffer = 0, offset = 0, length = 0, stride = 0, count = 0;
    StreamMode mode = StreamMode::Attributes;
    StreamFilter filter = StreamFilter::None;
};

// Where the stream's bytes are: its buffer, offset and length within the bytes held.
const char* readStreamPlace(const Json& extension, const Layout& layout,
                            const std::vector<io::SharedBytes>& buffers, MeshoptStream& stream) {
    if (!uintOf(extension, "buffer", true, stream.buffer) || stream.buffer >= layout.buffers.size())
        return "buffer is not an index of buffers";
    if (!uintOf(extension, "byteOffset", false, stream.offset) ||
        !uintOf(extension, "byteLength", true, stream.length) || stream.length == 0)
        return "byteOffset or byteLength is not a byte count (byteLength at least 1)";
    if (!uintOf(extension, "byteStride", true, stream.stride) ||
        !uintOf(extension, "count", true, stream.count) || stream.stride == 0 || stream.count == 0)
        return "byteStride or count is missing, or 0";
    const BufferLayout& source = layout.buffers[std::size_t(stream.buffer)];
    if (source.noData) return "its buffer has no data (no uri)";
    const std::uint64_t held =
        std::min<std::uint64_t>(source.byteLength, buffers[std::size_t(stream.buffer)].size());
    if (stream.offset > held || stream.length > held - stream.offset)
        return "byteOffset + byteLength runs past its buffer";
    return nullptr;
}

// Its mode and filter, each fitting the byteStride and count.
const char* readStreamFormat(const Json& extension, MeshoptStream& stream) {
    const Json* mode = member(extension, "mode");
    const Json* filter = member(extension, "filter");
    const bool attributes = stringIs(mode, "ATTRIBUTES"), triangles = stringIs(mode, "TRIANGLES");
    if (!attributes && !triangles && !stringIs(mode, "INDICES"))
        return "mode is not ATTRIBUTES, TRIANGLES or INDICES";
    stream.mode = attributes  ? StreamMode::Attributes
                  : triangles ? StreamMode::Triangles
                              : StreamMode::Indices;
    const std::uint64_t stride = stream.stride;
    if (attributes ? stride % 4 != 0 || stride > 256 : stride != 2 && stride != 4)
        return "byteStride does not fit its mode (ATTRIBUTES: a multiple of 4 up to 256; others: 2 or 4)";
    if (triangles && stream.count % 3 != 0) return "count is not a multiple of 3 (TRIANGLES)";
    if (!filter || stringIs(filter, "NONE")) return nullptr;
    if (stringIs(filter, "OCTAHEDRAL") && attributes && (stride == 4 || stride == 8))
        stream.filter = StreamFilter::Octahedral;
    else if (stringIs(filter, "QUATERNION") && attributes && stride == 8)
        stream.filter = StreamFilter::Quaternion;
    else if (stringIs(filter, "EXPONENTIAL") && attributes)
        stream.filter = StreamFilter::Exponential;
    else if (stringIs(filter, "COLOR"))
        return "filter COLOR is not decoded by Debian's meshoptimizer 0.18";
    else
        return "filter is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL, or does not fit its mode and "
               "byteStride";
    return nullptr;
}

// The library's decoder for the mode, then the filter; false when the stream does not decode.
bool decodeStream(const MeshoptStream& stream, const unsigned char* bytes, std::vector<std::uint8_t>& out) {
    const std::size_t count = std::size_t(stream.count), stride = std::size_t(stream.stride),
                      length = std::size_t(stream.length);
    const int failed = stream.mode == StreamMode::Attributes
                           ? meshopt_decodeVertexBuffer(out.data(), count, stride, bytes, length)
                       : stream.mode == StreamMode::Triangles
                           ? meshopt_decodeIndexBuffer(out.data(), count, stride, bytes, length)
                           : meshopt_decodeIndexSequence(out.data(), count, stride, bytes, length);
    if (failed != 0) return false;
    if (stream.filter == StreamFilter::Octahedral) meshopt_decodeFilterOct(out.data(), count, stride);
    if (stream.filter == StreamFilter::Quaternion) meshopt_decodeFilterQuat(out.data(), count, stride);
    if (stream.filter == StreamFilter::Exponential) meshopt_decodeFilterExp(out.data(), count, stride);
    return true;
}

}  // namespace

const char* decodeMeshoptView(const Json& extension, const Layout& layout,
                              const std::vector<io::SharedBytes>& buffers, std::size_t view,
                              std::uint64_t maxCount, std::vector<std::uint8_t>& out) {
    out.clear();
    if (!extension.is_object()) return "is not an object";
    MeshoptStream stream;
    if (const char* why = readStreamPlace(extension, layout, buffers, stream)) return why;
    if (const char* why = readStreamFormat(extension, stream)) return why;
    const ViewLayout& parent = layout.views[view];
    if (stream.count > parent.length / stream.stride || stream.count * stream.stride != parent.length)
        return "count x byteStride is not the bufferView's byteLength";
    if (stream.count > maxCount) return "holds more elements than rootbake reads";
    if ((parent.length + kMaxExpansion - 1) / kMaxExpansion > stream.length)
        return "says it decodes to more than 64 bytes per byte of it";

    const unsigned char* bytes = buffers[std::size_t(stream.buffer)].data() + stream.offset;
    if (stream.mode == StreamMode::Attributes && bytes[0] == 0xa1)
        return "is a version 1 stream, which Debian's meshoptimizer 0.18 does not decode";
    out.resize(std::size_t(parent.length));
    if (!decodeStream(stream, bytes, out)) {
        out.clear();
        return "does not decode";
    }
    return nullptr;
}

std::string decodeMeshoptViewsOf(const Json& document, const Layout& layout,
                                 const std::vector<io::SharedBytes>& buffers, const AccessorLayout& accessor,
                                 std::uint64_t maxCount, std::vector<std::vector<std::uint8_t>>& decoded) {
    const Json* views = member(document, "bufferViews");
    for (int v : viewsOf(accessor)) {
        if (v < 0 || !decoded[std::size_t(v)].empty() || holdsBytes(layout, v)) continue;
        const char* name = nullptr;
        const Json* extension = views ? meshoptOf((*views)[std::size_t(v)], &name) : nullptr;
        if (!extension) continue;  // missingBytes says why it cannot be read
        if (const char* why = decodeMeshoptView(*extension, layout, buffers, std::size_t(v), maxCount,
                                                decoded[std::size_t(v)]))
            return "bufferViews[" + std::to_string(v) + "].extensions." + name + " " + why;
    }
    return {};
}

}  // namespace rootbake::gltf

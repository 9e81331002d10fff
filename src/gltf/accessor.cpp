// Accessor decoding to float. Ranges were validated by validateDocument, so
// the loops here read without checks; one switch per accessor, not per value.
#include "gltf/internal.h"

#include <algorithm>
#include <cstring>

namespace rootbake::gltf {

namespace {

// glTF 2.0 section 3.11: normalized integers to float.
//   signed byte  c -> max(c / 127, -1)    unsigned byte  c -> c / 255
//   signed short c -> max(c / 32767, -1)  unsigned short c -> c / 65535
template <class T>
float toFloat(T c, bool normalized) {
    if constexpr (std::is_same_v<T, float>) {
        return c;
    } else {
        if (!normalized) return static_cast<float>(c);
        if constexpr (std::is_same_v<T, std::int8_t>) return std::max(static_cast<float>(c) / 127.0f, -1.0f);
        if constexpr (std::is_same_v<T, std::uint8_t>) return static_cast<float>(c) / 255.0f;
        if constexpr (std::is_same_v<T, std::int16_t>)
            return std::max(static_cast<float>(c) / 32767.0f, -1.0f);
        if constexpr (std::is_same_v<T, std::uint16_t>) return static_cast<float>(c) / 65535.0f;
        return static_cast<float>(c);  // UNSIGNED_INT is never normalized
    }
}

// Reads `count` elements starting at `src`, `stride` bytes apart, into
// out[first * components ...].
template <class T>
void readElements(const AccessorLayout& a, const std::uint8_t* src, std::size_t stride, std::uint64_t count,
                  float* out) {
    const int columns = a.components / a.rows;
    for (std::uint64_t e = 0; e < count; ++e, src += stride) {
        for (int col = 0; col < columns; ++col) {
            const std::uint8_t* p =
                src + static_cast<std::size_t>(col) * static_cast<std::size_t>(a.columnStride);
            for (int r = 0; r < a.rows; ++r, p += sizeof(T)) {
                T c;
                std::memcpy(&c, p, sizeof(T));
                *out++ = toFloat(c, a.normalized);
            }
        }
    }
}

void read(const AccessorLayout& a, const std::uint8_t* src, std::size_t stride, std::uint64_t count,
          float* out) {
    switch (a.componentType) {
        case 5120:
            return readElements<std::int8_t>(a, src, stride, count, out);
        case 5121:
            return readElements<std::uint8_t>(a, src, stride, count, out);
        case 5122:
            return readElements<std::int16_t>(a, src, stride, count, out);
        case 5123:
            return readElements<std::uint16_t>(a, src, stride, count, out);
        case 5125:
            return readElements<std::uint32_t>(a, src, stride, count, out);
        default:
            return readElements<float>(a, src, stride, count, out);
    }
}

std::uint64_t readIndex(const std::uint8_t* p, int type) {
    if (type == 5121) return *p;
    if (type == 5123) {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

bool isDecoded(DecodedViews decoded, int view) {
    return static_cast<std::size_t>(view) < decoded.size() &&
           !decoded[static_cast<std::size_t>(view)].empty();
}

const std::uint8_t* viewData(const Layout& layout, int view, const std::vector<io::SharedBytes>& buffers,
                             DecodedViews decoded) {
    if (isDecoded(decoded, view)) return decoded[static_cast<std::size_t>(view)].data();
    const ViewLayout& v = layout.views[view];
    return buffers[v.buffer].data() + v.offset;
}

const char* viewMissingBytes(const Layout& layout, int view, DecodedViews decoded) {
    if (isDecoded(decoded, view)) return nullptr;
    const ViewLayout& v = layout.views[view];
    if (v.compressed) return "its data is compressed with EXT_meshopt_compression (not supported)";
    if (layout.buffers[v.buffer].noData) return "its buffer has no data (no uri)";
    return nullptr;
}

}  // namespace

std::array<int, 3> viewsOf(const AccessorLayout& a) {
    return {a.view, a.sparseCount > 0 ? a.sparseIndexView : -1, a.sparseCount > 0 ? a.sparseValueView : -1};
}

bool holdsBytes(const Layout& layout, int view) {
    const ViewLayout& v = layout.views[std::size_t(view)];
    return !v.compressed && !layout.buffers[std::size_t(v.buffer)].noData;
}

const char* missingBytes(const Layout& layout, const AccessorLayout& a, DecodedViews decoded) {
    const char* why = nullptr;
    if (a.view >= 0 && (why = viewMissingBytes(layout, a.view, decoded))) return why;
    if (a.sparseCount > 0 && (why = viewMissingBytes(layout, a.sparseIndexView, decoded))) return why;
    if (a.sparseCount > 0 && (why = viewMissingBytes(layout, a.sparseValueView, decoded))) return why;
    return nullptr;
}

void decodeAccessor(const Layout& layout, const AccessorLayout& a,
                    const std::vector<io::SharedBytes>& buffers, std::vector<float>& out,
                    DecodedViews decoded) {
    const std::size_t width = static_cast<std::size_t>(a.components);
    out.assign(static_cast<std::size_t>(a.count) * width, 0.0f);
    if (a.view >= 0)
        read(a, viewData(layout, a.view, buffers, decoded) + a.offset, a.stride, a.count, out.data());
    if (a.sparseCount == 0) return;

    const std::uint8_t* indices = viewData(layout, a.sparseIndexView, buffers, decoded) + a.sparseIndexOffset;
    const std::uint8_t* values = viewData(layout, a.sparseValueView, buffers, decoded) + a.sparseValueOffset;
    const int indexSize = a.sparseIndexType == 5121 ? 1 : a.sparseIndexType == 5123 ? 2 : 4;
    for (std::uint64_t k = 0; k < a.sparseCount; ++k) {
        const std::uint64_t index =
            readIndex(indices + k * static_cast<std::uint64_t>(indexSize), a.sparseIndexType);
        if (index >= a.count) continue;  // validateData refuses these
        read(a, values + k * static_cast<std::uint64_t>(a.elementSize),
             static_cast<std::size_t>(a.elementSize), 1, out.data() + index * width);
    }
}

Result<std::vector<float>> decodeAccessor(const Asset& asset, int index) {
    Layout layout;
    ROOTBAKE_TRY(describeAccessors(asset.document, layout));
    const Where all(kRoot, "accessors");
    if (index < 0 || static_cast<std::size_t>(index) >= layout.accessors.size())
        return fail(all, "index " + std::to_string(index) + " out of range");
    const Where at(all, static_cast<std::size_t>(index));
    // The Asset may have been edited since it was loaded.
    if (asset.buffers.size() != layout.buffers.size())
        return fail(at, "Asset::buffers does not match the document");
    for (std::size_t b = 0; b < layout.buffers.size(); ++b)
        if (!layout.buffers[b].noData && asset.buffers[b].size() < layout.buffers[b].byteLength)
            return fail(at, "Asset::buffers[" + std::to_string(b) + "] is shorter than its byteLength");
    const AccessorLayout& a = layout.accessors[static_cast<std::size_t>(index)];
    // Meshopt-compressed views decoded as the loader decodes them, at most 2^20 elements (a
    // skin's matrices, one a joint: maxNodes), checked before anything is allocated.
    std::vector<std::vector<std::uint8_t>> views(layout.views.size());
    if (const std::string why =
            decodeMeshoptViewsOf(asset.document, layout, asset.buffers, a, 1u << 20, views);
        !why.empty())
        return fail(at, why);
    if (const char* why = missingBytes(layout, a, views)) return fail(at, why);
    std::vector<float> out;
    decodeAccessor(layout, a, asset.buffers, out, views);
    return out;
}

}  // namespace rootbake::gltf

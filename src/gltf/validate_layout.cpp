// The byte layout: buffers, bufferViews and accessors (sparse ones too), every index
// and byte range checked against the declared lengths, overflow-safe; then, once the
// buffers are read, the sparse indices against the bytes.
#include "gltf/internal.h"

#include <cstring>

namespace rootbake::gltf {

namespace {

int componentSize(std::uint64_t type) {
    switch (type) {
        case kByte:
        case kUnsignedByte:
            return 1;
        case kShort:
        case kUnsignedShort:
            return 2;
        case kUnsignedInt:
        case kFloat:
            return 4;
        default:
            return 0;
    }
}

const char* componentName(int type) {
    switch (type) {
        case kByte:
            return "BYTE";
        case kUnsignedByte:
            return "UNSIGNED_BYTE";
        case kShort:
            return "SHORT";
        case kUnsignedShort:
            return "UNSIGNED_SHORT";
        case kUnsignedInt:
            return "UNSIGNED_INT";
        case kFloat:
            return "FLOAT";
        default:
            return "?";
    }
}

// components, rows (per matrix column)
bool elementShape(const std::string& type, int& components, int& rows) {
    static const struct {
        const char* name;
        int components, rows;
    } kTypes[] = {{"SCALAR", 1, 1}, {"VEC2", 2, 2}, {"VEC3", 3, 3}, {"VEC4", 4, 4},
                  {"MAT2", 4, 2},   {"MAT3", 9, 3}, {"MAT4", 16, 4}};
    for (const auto& t : kTypes)
        if (type == t.name) {
            components = t.components;
            rows = t.rows;
            return true;
        }
    return false;
}

const char* typeName(int components, int rows) {
    if (rows != components) return components == 4 ? "MAT2" : components == 9 ? "MAT3" : "MAT4";
    switch (components) {
        case 1:
            return "SCALAR";
        case 2:
            return "VEC2";
        case 3:
            return "VEC3";
        default:
            return "VEC4";
    }
}

bool add(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
    return !__builtin_add_overflow(a, b, &out);
}
bool mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
    return !__builtin_mul_overflow(a, b, &out);
}

// offset + stride * (count - 1) + size <= length, without overflow.
bool fits(std::uint64_t offset, std::uint64_t stride, std::uint64_t count, std::uint64_t size,
          std::uint64_t length, std::uint64_t& end) {
    std::uint64_t span = 0;
    if (count == 0) return add(offset, 0, end) && end <= length;
    return mul(stride, count - 1, span) && add(span, size, span) && add(offset, span, end) && end <= length;
}

// "1 element of 12 bytes", "3 elements of 1 byte".
std::string elements(std::uint64_t count, std::uint64_t size) {
    return n(count) + (count == 1 ? " element of " : " elements of ") + n(size) +
           (size == 1 ? " byte" : " bytes");
}

bool hasExtension(const Json& object, const char* name) {
    const Json* extensions = member(object, "extensions");
    return extensions && extensions->is_object() && extensions->contains(name);
}

Status validateBuffers(const Json* buffers, bool binary, const LoadLimits& limits, Layout& layout) {
    const Where all(kRoot, "buffers");
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < sizeOf(buffers); ++i) {
        const Json& b = (*buffers)[i];
        const Where at(all, i);
        BufferLayout out;
        ROOTBAKE_TRY(getUint(b, at, "byteLength", true, out.byteLength));
        if (out.byteLength == 0) return fail(Where(at, "byteLength"), "0 (at least 1)");
        ROOTBAKE_TRY(getString(b, at, "uri", false, out.uri));
        out.noData = !out.uri && !(binary && i == 0);
        if (!add(total, out.byteLength, total) || total > limits.maxBufferBytes)
            return fail(all, "more than maxBufferBytes (" + n(limits.maxBufferBytes) + ") bytes in all");
        layout.buffers.push_back(out);
    }
    return Ok{};
}

Status validateViews(const Json* views, Layout& layout) {
    const Where all(kRoot, "bufferViews");
    for (std::size_t i = 0; i < sizeOf(views); ++i) {
        const Json& v = (*views)[i];
        const Where at(all, i);
        ViewLayout out;
        ROOTBAKE_TRY(getIndex(v, at, "buffer", true, layout.buffers.size(), "buffers", out.buffer));
        ROOTBAKE_TRY(getUint(v, at, "byteOffset", false, out.offset));
        ROOTBAKE_TRY(getUint(v, at, "byteLength", true, out.length));
        if (out.length == 0) return fail(Where(at, "byteLength"), "0 (at least 1)");
        std::uint64_t stride = 0;
        ROOTBAKE_TRY(getUint(v, at, "byteStride", false, stride));
        if (member(v, "byteStride") && (stride < 4 || stride > 252 || stride % 4 != 0))
            return fail(Where(at, "byteStride"), n(stride) + " (a multiple of 4 from 4 to 252)");
        if (stride > out.length)
            return fail(Where(at, "byteStride"), n(stride) + " is more than byteLength " + n(out.length));
        out.stride = static_cast<std::uint32_t>(stride);
        const std::uint64_t bufferLength = layout.buffers[out.buffer].byteLength;
        std::uint64_t end = 0;
        if (!fits(out.offset, 0, 1, out.length, bufferLength, end))
            return fail(at, "byteOffset " + n(out.offset) + " + byteLength " + n(out.length) +
                                " runs past buffers[" + n(out.buffer) + "] (byteLength " + n(bufferLength) +
                                ")");
        out.compressed = hasExtension(v, "EXT_meshopt_compression");
        layout.views.push_back(out);
    }
    return Ok{};
}

Status validateSparse(const Json& sparse, const Where& at, const Layout& layout, AccessorLayout& a) {
    ROOTBAKE_TRY(getUint(sparse, at, "count", true, a.sparseCount));
    if (a.sparseCount == 0 || a.sparseCount > a.count)
        return fail(Where(at, "count"),
                    n(a.sparseCount) + " (from 1 to the accessor's count " + n(a.count) + ")");
    const Json* indices = nullptr;
    const Json* values = nullptr;
    ROOTBAKE_TRY(getObject(sparse, at, "indices", true, indices));
    ROOTBAKE_TRY(getObject(sparse, at, "values", true, values));

    const Where ia(at, "indices");
    ROOTBAKE_TRY(
        getIndex(*indices, ia, "bufferView", true, layout.views.size(), "bufferViews", a.sparseIndexView));
    ROOTBAKE_TRY(getUint(*indices, ia, "byteOffset", false, a.sparseIndexOffset));
    std::uint64_t type = 0;
    ROOTBAKE_TRY(getUint(*indices, ia, "componentType", true, type));
    if (type != kUnsignedByte && type != kUnsignedShort && type != kUnsignedInt)
        return fail(Where(ia, "componentType"), n(type) + " (5121, 5123 or 5125 expected)");
    a.sparseIndexType = static_cast<int>(type);

    const Where va(at, "values");
    ROOTBAKE_TRY(
        getIndex(*values, va, "bufferView", true, layout.views.size(), "bufferViews", a.sparseValueView));
    ROOTBAKE_TRY(getUint(*values, va, "byteOffset", false, a.sparseValueOffset));

    struct Part {
        const Where& at;
        int view;
        std::uint64_t offset, size;
    } parts[] = {
        {ia, a.sparseIndexView, a.sparseIndexOffset, static_cast<std::uint64_t>(componentSize(type))},
        {va, a.sparseValueView, a.sparseValueOffset, static_cast<std::uint64_t>(a.elementSize)}};
    const std::uint64_t lastSizes[] = {parts[0].size, static_cast<std::uint64_t>(a.lastSize)};
    for (int k = 0; k < 2; ++k) {
        const Part& p = parts[k];
        const ViewLayout& view = layout.views[p.view];
        if (view.stride != 0)
            return fail(Where(p.at, "bufferView"),
                        "bufferViews[" + n(p.view) + "] has a byteStride (sparse data is packed)");
        std::uint64_t end = 0;
        if (!fits(p.offset, p.size, a.sparseCount, lastSizes[k], view.length, end))
            return fail(p.at, elements(a.sparseCount, p.size) + " from byte " + n(p.offset) +
                                  ": past bufferViews[" + n(p.view) + "]'s " + n(view.length) + " bytes");
    }
    return Ok{};
}

// Element, last element and column sizes in bytes; the stride of a packed view.
void setElementSizes(AccessorLayout& a) {
    // Matrix columns start on 4-byte boundaries (glTF 2.0 section 3.6.2.4).
    a.columnStride = (a.rows * a.componentSize + 3) & ~3;
    a.elementSize =
        a.rows == a.components ? a.components * a.componentSize : a.columnStride * (a.components / a.rows);
    a.lastSize = a.rows == a.components
                     ? a.elementSize
                     : a.columnStride * (a.components / a.rows - 1) + a.rows * a.componentSize;
    a.stride = static_cast<std::uint32_t>(a.elementSize);
}

// The accessor's elements within its bufferView, at the view's byteStride when it has one.
Status checkAccessorView(const ViewLayout& view, const Where& at, AccessorLayout& a) {
    if (view.stride != 0) {
        if (view.stride < static_cast<std::uint32_t>(a.elementSize))
            return fail(at, "bufferViews[" + n(a.view) + "].byteStride " + n(view.stride) +
                                " is smaller than one element (" + n(a.elementSize) + " bytes)");
        a.stride = view.stride;
    }
    std::uint64_t end = 0;
    if (!fits(a.offset, a.stride, a.count, a.lastSize, view.length, end))
        return fail(at,
                    elements(a.count, a.elementSize) +
                        (a.stride != std::uint32_t(a.elementSize) ? ", stride " + n(a.stride) + "," : "") +
                        " from byte " + n(a.offset) + ": past bufferViews[" + n(a.view) + "]'s " +
                        n(view.length) + " bytes");
    return Ok{};
}

Status validateAccessors(const Json* accessors, const LoadLimits& limits, Layout& layout) {
    const Where all(kRoot, "accessors");
    for (std::size_t i = 0; i < sizeOf(accessors); ++i) {
        const Json& j = (*accessors)[i];
        const Where at(all, i);
        AccessorLayout a;
        ROOTBAKE_TRY(getIndex(j, at, "bufferView", false, layout.views.size(), "bufferViews", a.view));
        ROOTBAKE_TRY(getUint(j, at, "byteOffset", false, a.offset));
        if (a.view < 0 && member(j, "byteOffset"))
            return fail(Where(at, "byteOffset"), "given without a bufferView");
        std::uint64_t type = 0;
        ROOTBAKE_TRY(getUint(j, at, "componentType", true, type));
        a.componentSize = componentSize(type);
        if (a.componentSize == 0)
            return fail(Where(at, "componentType"), n(type) + " is not a glTF component type");
        a.componentType = static_cast<int>(type);
        ROOTBAKE_TRY(getBool(j, at, "normalized", a.normalized));
        if (a.normalized && (type == kFloat || type == kUnsignedInt))
            return fail(Where(at, "normalized"), std::string("true for ") + componentName(a.componentType) +
                                                     " (only byte and short types are normalized)");
        ROOTBAKE_TRY(getUint(j, at, "count", true, a.count));
        if (a.count == 0) return fail(Where(at, "count"), "0 (at least 1)");
        if (a.count > limits.maxAccessorElements)
            return fail(Where(at, "count"), n(a.count) + " elements, more than maxAccessorElements (" +
                                                n(limits.maxAccessorElements) + ")");
        const std::string* shape = nullptr;
        ROOTBAKE_TRY(getString(j, at, "type", true, shape));
        if (!elementShape(*shape, a.components, a.rows))
            return fail(Where(at, "type"), "'" + *shape + "' is not an accessor type");
        setElementSizes(a);
        if (a.view >= 0) ROOTBAKE_TRY(checkAccessorView(layout.views[a.view], at, a));
        const Json* sparse = nullptr;
        ROOTBAKE_TRY(getObject(j, at, "sparse", false, sparse));
        if (sparse) ROOTBAKE_TRY(validateSparse(*sparse, Where(at, "sparse"), layout, a));
        layout.accessors.push_back(a);
    }
    return Ok{};
}

}  // namespace

std::string accessorFormat(const AccessorLayout& a) {
    return std::string(typeName(a.components, a.rows)) + " " + (a.normalized ? "normalized " : "") +
           componentName(a.componentType);
}

Status validateLayout(const Json& document, bool binary, const LoadLimits& limits, Layout& layout) {
    const Json *buffers = nullptr, *views = nullptr, *accessors = nullptr;
    ROOTBAKE_TRY(getCollection(document, "buffers", buffers));
    ROOTBAKE_TRY(getCollection(document, "bufferViews", views));
    ROOTBAKE_TRY(getCollection(document, "accessors", accessors));
    ROOTBAKE_TRY(validateBuffers(buffers, binary, limits, layout));
    ROOTBAKE_TRY(validateViews(views, layout));
    ROOTBAKE_TRY(validateAccessors(accessors, limits, layout));
    return Ok{};
}

Status describeAccessors(const Json& document, Layout& layout) {
    LoadLimits unlimited;
    unlimited.maxBufferBytes = ~0ull;
    unlimited.maxAccessorElements = ~0ull;
    return validateLayout(document, true, unlimited, layout);
}

Status checkSparseIndices(const AccessorLayout& a, const std::uint8_t* p, const Where& accessorAt) {
    const int size = componentSize(static_cast<std::uint64_t>(a.sparseIndexType));
    std::uint64_t previous = 0;
    for (std::uint64_t k = 0; k < a.sparseCount; ++k, p += size) {
        std::uint64_t index = 0;
        if (size == 1)
            index = *p;
        else if (size == 2) {
            std::uint16_t v;
            std::memcpy(&v, p, 2);
            index = v;
        } else {
            std::uint32_t v;
            std::memcpy(&v, p, 4);
            index = v;
        }
        const Where sparse(accessorAt, "sparse"), indices(sparse, "indices"), at(indices, k);
        if (index >= a.count)
            return fail(at, "index " + n(index) + " out of range (" + n(a.count) + " elements)");
        if (k > 0 && index <= previous)
            return fail(at, "index " + n(index) + " after " + n(previous) +
                                " (sparse indices must strictly increase)");
        previous = index;
    }
    return Ok{};
}

Status validateData(const Layout& layout, const std::vector<io::SharedBytes>& buffers) {
    const Where all(kRoot, "accessors");
    for (std::size_t i = 0; i < layout.accessors.size(); ++i) {
        const AccessorLayout& a = layout.accessors[i];
        if (a.sparseCount == 0) continue;
        const ViewLayout& view = layout.views[a.sparseIndexView];
        // Bytes we cannot see: a compressed view is checked once decoded (checkSparseIndices).
        if (view.compressed || layout.buffers[view.buffer].noData) continue;
        const std::uint8_t* p = buffers[view.buffer].data() + view.offset + a.sparseIndexOffset;
        ROOTBAKE_TRY(checkSparseIndices(a, p, Where(all, i)));
    }
    return Ok{};
}

}  // namespace rootbake::gltf

// Structure, indices and byte ranges: checked once here, trusted afterwards.
// Objects we never read (materials, textures, cameras, mesh data) only get
// their references checked, so the writer passes through a consistent file.
#include "gltf/internal.h"

#include <cstring>

namespace rootbake::gltf {

namespace {

constexpr int kByte = 5120, kUnsignedByte = 5121, kShort = 5122, kUnsignedShort = 5123, kUnsignedInt = 5125,
              kFloat = 5126;

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

std::string format(const AccessorLayout& a) {
    return std::string(typeName(a.components, a.rows)) + " " + (a.normalized ? "normalized " : "") +
           componentName(a.componentType);
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

std::string n(std::uint64_t v) {
    return std::to_string(v);
}

// "1 element of 12 bytes", "3 elements of 1 byte".
std::string elements(std::uint64_t count, std::uint64_t size) {
    return n(count) + (count == 1 ? " element of " : " elements of ") + n(size) +
           (size == 1 ? " byte" : " bytes");
}

Status validateAsset(const Json& document) {
    const Json* asset = nullptr;
    ROOTBAKE_TRY(getObject(document, kRoot, "asset", true, asset));
    const Where at(kRoot, "asset");
    const std::string* version = nullptr;
    ROOTBAKE_TRY(getString(*asset, at, "version", true, version));
    // "2.0", "2.1": a major version of 2.
    if (version->size() < 3 || (*version)[0] != '2' || (*version)[1] != '.')
        return fail(Where(at, "version"), "'" + *version + "' is not a glTF 2.x version");
    return Ok{};
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
            return fail(p.at, elements(a.sparseCount, p.size) + " from byte " + n(p.offset) + ": past bufferViews[" +
                                  n(p.view) + "]'s " + n(view.length) + " bytes");
    }
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
        // Matrix columns start on 4-byte boundaries (glTF 2.0 section 3.6.2.4).
        a.columnStride = (a.rows * a.componentSize + 3) & ~3;
        a.elementSize = a.rows == a.components ? a.components * a.componentSize
                                               : a.columnStride * (a.components / a.rows);
        a.lastSize = a.rows == a.components
                         ? a.elementSize
                         : a.columnStride * (a.components / a.rows - 1) + a.rows * a.componentSize;
        a.stride = static_cast<std::uint32_t>(a.elementSize);

        if (a.view >= 0) {
            const ViewLayout& view = layout.views[a.view];
            if (view.stride != 0) {
                if (view.stride < static_cast<std::uint32_t>(a.elementSize))
                    return fail(at, "bufferViews[" + n(a.view) + "].byteStride " + n(view.stride) +
                                        " is smaller than one element (" + n(a.elementSize) + " bytes)");
                a.stride = view.stride;
            }
            std::uint64_t end = 0;
            if (!fits(a.offset, a.stride, a.count, a.lastSize, view.length, end))
                return fail(at, elements(a.count, a.elementSize) +
                                    (a.stride != std::uint32_t(a.elementSize) ? ", stride " + n(a.stride) + "," : "") +
                                    " from byte " + n(a.offset) + ": past bufferViews[" + n(a.view) + "]'s " +
                                    n(view.length) + " bytes");
        }
        const Json* sparse = nullptr;
        ROOTBAKE_TRY(getObject(j, at, "sparse", false, sparse));
        if (sparse) ROOTBAKE_TRY(validateSparse(*sparse, Where(at, "sparse"), layout, a));
        layout.accessors.push_back(a);
    }
    return Ok{};
}

// An object of accessor indices: primitive attributes and morph targets.
Status validateAttributes(const Json& attributes, const Where& at, std::size_t accessors) {
    int index = -1;
    for (auto it = attributes.begin(); it != attributes.end(); ++it)
        ROOTBAKE_TRY(toIndex(it.value(), Where(at, it.key().c_str()), accessors, "accessors", index));
    return Ok{};
}

Status validateMeshes(const Json* meshes, std::size_t accessors, std::size_t materials) {
    const Where all(kRoot, "meshes");
    int index = -1;
    for (std::size_t i = 0; i < sizeOf(meshes); ++i) {
        const Where at(all, i);
        const Json* primitives = nullptr;
        ROOTBAKE_TRY(getArray((*meshes)[i], at, "primitives", true, primitives));
        const Where pa(at, "primitives");
        for (std::size_t p = 0; p < primitives->size(); ++p) {
            const Json& prim = (*primitives)[p];
            const Where pat(pa, p);
            if (!prim.is_object()) return fail(pat, "expected an object");
            const Json* attributes = nullptr;
            ROOTBAKE_TRY(getObject(prim, pat, "attributes", true, attributes));
            ROOTBAKE_TRY(validateAttributes(*attributes, Where(pat, "attributes"), accessors));
            ROOTBAKE_TRY(getIndex(prim, pat, "indices", false, accessors, "accessors", index));
            ROOTBAKE_TRY(getIndex(prim, pat, "material", false, materials, "materials", index));
            const Json* targets = nullptr;
            ROOTBAKE_TRY(getArray(prim, pat, "targets", false, targets));
            const Where ta(pat, "targets");
            for (std::size_t t = 0; t < sizeOf(targets); ++t) {
                if (!(*targets)[t].is_object()) return fail(Where(ta, t), "expected an object");
                ROOTBAKE_TRY(validateAttributes((*targets)[t], Where(ta, t), accessors));
            }
        }
    }
    return Ok{};
}

Status validateSkins(const Json* skins, std::size_t accessors, std::size_t nodes) {
    const Where all(kRoot, "skins");
    int index = -1;
    for (std::size_t i = 0; i < sizeOf(skins); ++i) {
        const Json& s = (*skins)[i];
        const Where at(all, i);
        ROOTBAKE_TRY(getIndex(s, at, "inverseBindMatrices", false, accessors, "accessors", index));
        ROOTBAKE_TRY(getIndex(s, at, "skeleton", false, nodes, "nodes", index));
        const Json* joints = nullptr;
        ROOTBAKE_TRY(getArray(s, at, "joints", true, joints));
        const Where ja(at, "joints");
        for (std::size_t j = 0; j < joints->size(); ++j)
            ROOTBAKE_TRY(toIndex((*joints)[j], Where(ja, j), nodes, "nodes", index));
    }
    return Ok{};
}

Status validateImagesTexturesMaterials(const Json& document, std::size_t views) {
    const Json *images = nullptr, *textures = nullptr, *samplers = nullptr, *materials = nullptr;
    ROOTBAKE_TRY(getCollection(document, "images", images));
    ROOTBAKE_TRY(getCollection(document, "textures", textures));
    ROOTBAKE_TRY(getCollection(document, "samplers", samplers));
    ROOTBAKE_TRY(getCollection(document, "materials", materials));
    int index = -1;
    const Where ia(kRoot, "images");
    for (std::size_t i = 0; i < sizeOf(images); ++i) {
        const std::string* uri = nullptr;
        ROOTBAKE_TRY(getString((*images)[i], Where(ia, i), "uri", false, uri));
        ROOTBAKE_TRY(getIndex((*images)[i], Where(ia, i), "bufferView", false, views, "bufferViews", index));
        // The schema's oneOf: an image's bytes come from exactly one place.
        if (!uri && index < 0) return fail(Where(ia, i), "neither uri nor bufferView (one of them is required)");
        if (uri && index >= 0) return fail(Where(ia, i), "both uri and bufferView (only one is allowed)");
    }
    const Where ta(kRoot, "textures");
    for (std::size_t i = 0; i < sizeOf(textures); ++i) {
        ROOTBAKE_TRY(
            getIndex((*textures)[i], Where(ta, i), "source", false, sizeOf(images), "images", index));
        ROOTBAKE_TRY(
            getIndex((*textures)[i], Where(ta, i), "sampler", false, sizeOf(samplers), "samplers", index));
    }
    // The core material's texture references.
    const Where ma(kRoot, "materials");
    for (std::size_t i = 0; i < sizeOf(materials); ++i) {
        const Json& m = (*materials)[i];
        const Where at(ma, i);
        const Json* pbr = nullptr;
        ROOTBAKE_TRY(getObject(m, at, "pbrMetallicRoughness", false, pbr));
        struct Ref {
            const Json* owner;
            const Where& at;
            const char* key;
        };
        const Where pa(at, "pbrMetallicRoughness");
        const Ref refs[] = {{pbr, pa, "baseColorTexture"},
                            {pbr, pa, "metallicRoughnessTexture"},
                            {&m, at, "normalTexture"},
                            {&m, at, "occlusionTexture"},
                            {&m, at, "emissiveTexture"}};
        for (const Ref& r : refs) {
            if (!r.owner) continue;
            const Json* info = nullptr;
            ROOTBAKE_TRY(getObject(*r.owner, r.at, r.key, false, info));
            if (info)
                ROOTBAKE_TRY(
                    getIndex(*info, Where(r.at, r.key), "index", true, sizeOf(textures), "textures", index));
        }
    }
    return Ok{};
}

// The formats glTF 2.0 section 3.11 (and KHR_mesh_quantization for
// translation and scale) allows for animation outputs.
bool isOutputFormat(const AccessorLayout& a, Path path) {
    const bool integer = a.componentType >= kByte && a.componentType <= kUnsignedShort;
    if (path == Path::Rotation)
        return a.components == 4 && a.rows == 4 && (a.componentType == kFloat || (integer && a.normalized));
    return a.components == 3 && a.rows == 3 && (a.componentType == kFloat || integer);
}

// One sampler: its accessors, its interpolation, its input's keys within the limits.
Status validateSampler(const Json& js, const Where& sat, const LoadLimits& limits, const Layout& layout,
                       SamplerLayout& sampler) {
    const std::size_t accessors = layout.accessors.size();
    if (!js.is_object()) return fail(sat, "expected an object");
    ROOTBAKE_TRY(getIndex(js, sat, "input", true, accessors, "accessors", sampler.input));
    ROOTBAKE_TRY(getIndex(js, sat, "output", true, accessors, "accessors", sampler.output));
    const std::string* interpolation = nullptr;
    ROOTBAKE_TRY(getString(js, sat, "interpolation", false, interpolation));
    if (interpolation) {
        if (*interpolation == "LINEAR")
            sampler.interpolation = Interpolation::Linear;
        else if (*interpolation == "STEP")
            sampler.interpolation = Interpolation::Step;
        else if (*interpolation == "CUBICSPLINE")
            sampler.interpolation = Interpolation::CubicSpline;
        else
            return fail(Where(sat, "interpolation"), "'" + *interpolation + "' (LINEAR, STEP or CUBICSPLINE expected)");
    }
    const AccessorLayout& input = layout.accessors[sampler.input];
    const Where ia(sat, "input");
    if (input.components != 1 || input.componentType != kFloat || input.normalized)
        return fail(ia, "accessors[" + n(sampler.input) + "] is " + format(input) +
                            (input.components != 1 ? ", not SCALAR" : ", not FLOAT"));
    if (input.count > static_cast<std::uint64_t>(limits.maxKeysPerChannel))
        return fail(ia, "accessors[" + n(sampler.input) + "] has " + n(input.count) +
                            " keys, more than maxKeysPerChannel (" + n(limits.maxKeysPerChannel) + ")");
    // Zeros repeat: refused here, before decoding a count no bytes back.
    if (input.view < 0 && input.count > input.sparseCount + 1)
        return fail(ia, "accessors[" + n(sampler.input) + "] has no bufferView: time 0 repeats");
    if (sampler.interpolation == Interpolation::CubicSpline && input.count < 2)
        return fail(ia, "CUBICSPLINE needs at least 2 keys, accessors[" + n(sampler.input) + "] has " +
                            n(input.count));
    return Ok{};
}

// A channel's output against its sampler's keys: the format its path needs (slot 0..2 TRS,
// 3 weights), and as many elements as keys (weights: a multiple, one per morph target).
Status validateOutput(const Where& cat, int slot, std::size_t samplerIndex, const SamplerLayout& sampler,
                      const Layout& layout) {
    const AccessorLayout& input = layout.accessors[sampler.input];
    const AccessorLayout& output = layout.accessors[sampler.output];
    const std::uint64_t perKey = sampler.interpolation == Interpolation::CubicSpline ? 3 : 1;
    const std::string outputName = "samplers[" + n(samplerIndex) + "].output (accessors[" + n(sampler.output) + "])";
    const Where at(cat, "sampler");
    if (slot < 3) {
        const Path trs = slot == 1 ? Path::Rotation : slot == 2 ? Path::Scale : Path::Translation;
        // What is wrong of the two: the type, else the component type.
        const bool vec = output.components == (trs == Path::Rotation ? 4 : 3) && output.rows == output.components;
        if (!isOutputFormat(output, trs))
            return fail(at, "output accessors[" + n(sampler.output) + "] is " + format(output) + ", not " +
                                (!vec                    ? std::string(trs == Path::Rotation ? "VEC4" : "VEC3")
                                 : trs == Path::Rotation ? "FLOAT or normalized BYTE/SHORT"
                                                         : "FLOAT, BYTE or SHORT"));
        if (output.count != input.count * perKey)
            return fail(at, "output accessors[" + n(sampler.output) + "]: " + n(output.count) + " elements for " +
                                n(input.count) + (input.count == 1 ? " key" : " keys") +
                                (perKey == 3 ? " (CUBICSPLINE: 3 a key)" : ""));
        return Ok{};
    }
    const bool integer = output.componentType >= kByte && output.componentType <= kUnsignedShort;
    if (output.components != 1 || !(output.componentType == kFloat || (integer && output.normalized)))
        return fail(at, outputName + " is " + format(output) + ", but weights needs SCALAR FLOAT or normalized BYTE/SHORT");
    if (output.count % (input.count * perKey) != 0)
        return fail(at, outputName + " has " + n(output.count) + " elements, not a multiple of " +
                            n(input.count * perKey) + " (keys x morph targets" + (perKey == 3 ? " x 3)" : ")"));
    return Ok{};
}

// What the channels of all animations so far have claimed.
struct ChannelClaims {
    std::vector<int> firstChannel;  // per node and slot, the channel of this animation animating it; -1: none
    std::vector<std::size_t> used;  // the slots this animation set, to reset after it
    std::uint64_t keyBytes = 0;     // decoded floats of every node channel so far: each gets its own copy
    std::vector<std::uint8_t> viewClaimed;  // per bufferView: its decoded bytes counted in keyBytes
};

// The views without bytes in their buffer (meshopt-compressed) that the key data reads are
// decoded whole (docs/limits.md): their byteLength counts against maxKeyBytes, once per view.
void claimDecodedViews(const Layout& layout, int accessor, ChannelClaims& claims) {
    if (claims.viewClaimed.empty()) claims.viewClaimed.assign(layout.views.size(), 0);
    for (int v : viewsOf(layout.accessors[std::size_t(accessor)])) {
        if (v < 0 || claims.viewClaimed[std::size_t(v)] || holdsBytes(layout, v)) continue;
        claims.viewClaimed[std::size_t(v)] = 1;
        claims.keyBytes += layout.views[std::size_t(v)].length;
    }
}

Status checkKeyBytes(const Where& at, std::size_t animation, const LoadLimits& limits,
                     const ChannelClaims& claims) {
    if (claims.keyBytes <= limits.maxKeyBytes) return Ok{};
    return fail(at, "the key data of animations[0.." + n(animation) + "] decodes to more than maxKeyBytes (" +
                        n(limits.maxKeyBytes) + " bytes in all)");
}

// Channel c of animations[animation]: its sampler and target, its output, and no node path
// animated twice in one animation.
Status validateChannel(const Json& jc, const Where& cat, std::size_t c, std::size_t animation, std::size_t nodes,
                       const LoadLimits& limits, const Layout& layout, const AnimationLayout& out,
                       ChannelClaims& claims, ChannelLayout& channel) {
    if (!jc.is_object()) return fail(cat, "expected an object");
    ROOTBAKE_TRY(getIndex(jc, cat, "sampler", true, out.samplers.size(), "samplers", channel.sampler));
    const Json* target = nullptr;
    ROOTBAKE_TRY(getObject(jc, cat, "target", true, target));
    const Where tat(cat, "target");
    int node = -1;
    ROOTBAKE_TRY(getIndex(*target, tat, "node", false, nodes, "nodes", node));
    const std::string* path = nullptr;
    ROOTBAKE_TRY(getString(*target, tat, "path", true, path));
    int slot = -1;  // 0..2 TRS, 3 weights
    if (*path == "translation")
        channel.path = Path::Translation, slot = 0;
    else if (*path == "rotation")
        channel.path = Path::Rotation, slot = 1;
    else if (*path == "scale")
        channel.path = Path::Scale, slot = 2;
    else if (*path == "weights")
        slot = 3;
    // KHR_animation_pointer ("pointer"), other extensions' paths and
    // channels without a node are kept aside, unread.
    if (node < 0) slot = -1;
    channel.trs = slot >= 0 && slot < 3;
    channel.node = channel.trs ? node : -1;

    const SamplerLayout& sampler = out.samplers[channel.sampler];
    if (channel.trs) {
        // Channels sharing a sampler each get a copy of its keys: a small file can name
        // one large sampler from thousands of channels.
        const AccessorLayout& input = layout.accessors[sampler.input];
        const AccessorLayout& output = layout.accessors[sampler.output];
        claims.keyBytes += 4 * (input.count + output.count * static_cast<std::uint64_t>(output.components));
        claimDecodedViews(layout, sampler.output, claims);
        ROOTBAKE_TRY(checkKeyBytes(cat, animation, limits, claims));
    }
    if (slot < 0) return Ok{};
    ROOTBAKE_TRY(validateOutput(cat, slot, std::size_t(channel.sampler), sampler, layout));
    if (claims.firstChannel.empty()) claims.firstChannel.assign(nodes * 4, -1);
    const std::size_t key = static_cast<std::size_t>(node) * 4 + static_cast<std::size_t>(slot);
    if (claims.firstChannel[key] >= 0)
        return fail(tat, "nodes[" + n(node) + "] " + *path + " is already animated by channels[" +
                             n(claims.firstChannel[key]) + "]");
    claims.firstChannel[key] = static_cast<int>(c);
    claims.used.push_back(key);
    return Ok{};
}

Status validateAnimations(const Json* animations, const LoadLimits& limits, std::size_t nodes,
                          Layout& layout) {
    const Where all(kRoot, "animations");
    ChannelClaims claims;
    for (std::size_t i = 0; i < sizeOf(animations); ++i) {
        const Json& anim = (*animations)[i];
        const Where at(all, i);
        AnimationLayout out;
        const std::string* name = nullptr;
        ROOTBAKE_TRY(getString(anim, at, "name", false, name));
        const Json *samplers = nullptr, *channels = nullptr;
        ROOTBAKE_TRY(getArray(anim, at, "samplers", true, samplers));
        ROOTBAKE_TRY(getArray(anim, at, "channels", true, channels));
        const Where sa(at, "samplers");
        for (std::size_t s = 0; s < samplers->size(); ++s) {
            SamplerLayout sampler;
            ROOTBAKE_TRY(validateSampler((*samplers)[s], Where(sa, s), limits, layout, sampler));
            claimDecodedViews(layout, sampler.input, claims);  // every sampler's times are read
            ROOTBAKE_TRY(checkKeyBytes(Where(Where(sa, s), "input"), i, limits, claims));
            out.samplers.push_back(sampler);
        }
        const Where ca(at, "channels");
        claims.used.clear();
        for (std::size_t c = 0; c < channels->size(); ++c) {
            ChannelLayout channel;
            ROOTBAKE_TRY(validateChannel((*channels)[c], Where(ca, c), c, i, nodes, limits, layout, out, claims, channel));
            out.channels.push_back(channel);
        }
        for (std::size_t key : claims.used) claims.firstChannel[key] = -1;  // reset only what this animation set
        layout.animations.push_back(std::move(out));
    }
    return Ok{};
}

Status describe(const Json& document, bool binary, const LoadLimits& limits, Layout& layout) {
    const Json *buffers = nullptr, *views = nullptr, *accessors = nullptr;
    ROOTBAKE_TRY(getCollection(document, "buffers", buffers));
    ROOTBAKE_TRY(getCollection(document, "bufferViews", views));
    ROOTBAKE_TRY(getCollection(document, "accessors", accessors));
    ROOTBAKE_TRY(validateBuffers(buffers, binary, limits, layout));
    ROOTBAKE_TRY(validateViews(views, layout));
    ROOTBAKE_TRY(validateAccessors(accessors, limits, layout));
    return Ok{};
}

}  // namespace

Status validateDocument(const Json& document, bool binary, const LoadLimits& limits, Layout& layout) {
    ROOTBAKE_TRY(validateAsset(document));
    // Every collection is an array of objects, whether we read it or not, and
    // names are strings (the writer copies them).
    static const char* kNamed[] = {"scenes",    "nodes",       "meshes",   "skins",     "cameras",
                                   "textures",  "images",      "samplers", "materials", "animations",
                                   "accessors", "bufferViews", "buffers"};
    for (const char* key : kNamed) {
        const Json* list = nullptr;
        ROOTBAKE_TRY(getCollection(document, key, list));
        const Where all(kRoot, key);
        const std::string* name = nullptr;
        for (std::size_t i = 0; i < sizeOf(list); ++i)
            ROOTBAKE_TRY(getString((*list)[i], Where(all, i), "name", false, name));
    }
    ROOTBAKE_TRY(describe(document, binary, limits, layout));

    const Json *meshes = nullptr, *skins = nullptr, *nodes = nullptr, *materials = nullptr,
               *animations = nullptr;
    ROOTBAKE_TRY(getCollection(document, "meshes", meshes));
    ROOTBAKE_TRY(getCollection(document, "skins", skins));
    ROOTBAKE_TRY(getCollection(document, "nodes", nodes));
    ROOTBAKE_TRY(getCollection(document, "materials", materials));
    ROOTBAKE_TRY(getCollection(document, "animations", animations));
    if (sizeOf(nodes) > static_cast<std::size_t>(limits.maxNodes))
        return fail(Where(kRoot, "nodes"),
                    n(sizeOf(nodes)) + " nodes, more than maxNodes (" + n(limits.maxNodes) + ")");
    ROOTBAKE_TRY(validateMeshes(meshes, layout.accessors.size(), sizeOf(materials)));
    ROOTBAKE_TRY(validateSkins(skins, layout.accessors.size(), sizeOf(nodes)));
    ROOTBAKE_TRY(validateImagesTexturesMaterials(document, layout.views.size()));
    ROOTBAKE_TRY(validateAnimations(animations, limits, sizeOf(nodes), layout));
    return Ok{};
}

Status describeAccessors(const Json& document, Layout& layout) {
    LoadLimits unlimited;
    unlimited.maxBufferBytes = ~0ull;
    unlimited.maxAccessorElements = ~0ull;
    return describe(document, true, unlimited, layout);
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

Status validateData(const Layout& layout, const std::vector<SharedBytes>& buffers) {
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

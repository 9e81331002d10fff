// Structure, indices and byte ranges: checked once here, trusted afterwards.
// Objects we never read (materials, textures, cameras, mesh data) only get
// their references checked, so the writer passes through a consistent file.
// The byte layout is validate_layout.cpp's, the animations validate_animations.cpp's.
#include "gltf/internal.h"

namespace rootbake::gltf {

namespace {

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
        if (!uri && index < 0)
            return fail(Where(ia, i), "neither uri nor bufferView (one of them is required)");
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
    ROOTBAKE_TRY(validateLayout(document, binary, limits, layout));

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

}  // namespace rootbake::gltf

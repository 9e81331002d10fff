// Reference counting over the document: an accessor or bufferView that only the rewritten sampler
// reads can take the new keys in place; one that anything else reads must stay as it is.
#include "edit/stages.h"
#include "gltf/internal.h"

#include <set>
#include <string>

namespace rootbake::edit {

using gltf::member;

namespace {

// Extensions that reference no accessor, bufferView or buffer, or whose
// references are counted below.
bool knownExtension(const std::string& name) {
    static const char* const prefixes[] = {"KHR_materials_", "KHR_texture_", "EXT_texture_", "KHR_lights_",
                                           "EXT_lights_",    "KHR_xmp",      "KHR_node_"};
    static const char* const names[] = {"KHR_mesh_quantization",
                                        "KHR_animation_pointer",
                                        "KHR_draco_mesh_compression",
                                        "EXT_meshopt_compression",
                                        "KHR_meshopt_compression",
                                        "EXT_mesh_gpu_instancing",
                                        "MSFT_lod",
                                        "MSFT_texture_dds"};
    for (const char* p : prefixes)
        if (name.rfind(p, 0) == 0) return true;
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

// Every name under an "extensions" object anywhere in the document. Numbers and strings, most
// of it, are passed over without a call.
void collectExtensions(const Json& value, std::set<std::string>& out) {
    if (value.is_object()) {
        for (const auto& [key, child] : value.get_ref<const Json::object_t&>()) {
            if (child.is_primitive()) continue;
            if (key == "extensions" && child.is_object())
                for (const auto& [name, ignored] : child.get_ref<const Json::object_t&>()) out.insert(name);
            collectExtensions(child, out);
        }
    } else if (value.is_array()) {
        for (const Json& child : value.get_ref<const Json::array_t&>())
            if (!child.is_primitive()) collectExtensions(child, out);
    }
}

// Whether the document names an extension whose references are not counted.
bool hasUnknownExtension(const Json& doc) {
    std::set<std::string> extensions;
    collectExtensions(doc, extensions);
    if (const Json* used = member(doc, "extensionsUsed"))
        for (const Json& name : *used)
            if (name.is_string()) extensions.insert(name.get<std::string>());
    for (const std::string& name : extensions)
        if (!knownExtension(name)) return true;
    return false;
}

void countIndex(std::vector<int>& counts, const Json* index) {
    if (isIndex(index) && index->get<std::uint64_t>() < counts.size()) ++counts[index->get<std::size_t>()];
}

void countValues(std::vector<int>& counts, const Json* object) {
    if (!object || !object->is_object()) return;
    for (const auto& [key, index] : object->items()) countIndex(counts, &index);
}

// The accessors that animations, meshes, skins and GPU instancing read; the Draco views.
void countAccessorUsers(const Json& doc, References& refs) {
    for (std::size_t a = 0; a < sizeOf(doc, "animations"); ++a)
        for (const Json& sampler : doc["animations"][a]["samplers"]) {
            countIndex(refs.accessor, member(sampler, "input"));
            countIndex(refs.accessor, member(sampler, "output"));
        }
    for (std::size_t m = 0; m < sizeOf(doc, "meshes"); ++m)
        for (const Json& primitive : doc["meshes"][m]["primitives"]) {
            countValues(refs.accessor, member(primitive, "attributes"));
            countIndex(refs.accessor, member(primitive, "indices"));
            if (const Json* targets = member(primitive, "targets"))
                for (const Json& target : *targets) countValues(refs.accessor, &target);
            if (const Json* draco = extensionOf(primitive, "KHR_draco_mesh_compression"))
                countIndex(refs.view, member(*draco, "bufferView"));
        }
    for (std::size_t s = 0; s < sizeOf(doc, "skins"); ++s)
        countIndex(refs.accessor, member(doc["skins"][s], "inverseBindMatrices"));
    for (std::size_t n = 0; n < sizeOf(doc, "nodes"); ++n)
        if (const Json* instancing = extensionOf(doc["nodes"][n], "EXT_mesh_gpu_instancing"))
            countValues(refs.accessor, member(*instancing, "attributes"));
}

// The bufferViews that accessors (sparse parts too) and images read.
void countViewUsers(const Json& doc, References& refs) {
    for (std::size_t a = 0; a < sizeOf(doc, "accessors"); ++a) {
        const Json& accessor = doc["accessors"][a];
        countIndex(refs.view, member(accessor, "bufferView"));
        if (const Json* sparse = member(accessor, "sparse")) {
            countIndex(refs.view, member((*sparse)["indices"], "bufferView"));
            countIndex(refs.view, member((*sparse)["values"], "bufferView"));
        }
    }
    for (std::size_t i = 0; i < sizeOf(doc, "images"); ++i)
        countIndex(refs.view, member(doc["images"][i], "bufferView"));
}

}  // namespace

References countReferences(const Json& doc) {
    References refs;
    refs.accessor.assign(sizeOf(doc, "accessors"), 0);
    refs.view.assign(sizeOf(doc, "bufferViews"), 0);
    countAccessorUsers(doc, refs);
    countViewUsers(doc, refs);
    refs.opaque = hasUnknownExtension(doc);
    return refs;
}

}  // namespace rootbake::edit

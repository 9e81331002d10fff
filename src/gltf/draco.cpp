// KHR_draco_mesh_compression: a primitive's vertices decoded with Debian's libdraco, for the
// analysis only (the compressed bytes pass through the writer untouched).
#include "gltf/internal.h"

#include <draco/compression/decode.h>

namespace rootbake::gltf {

namespace {

// The attribute `name` of the extension's map as `components` floats per point; false when
// the map or the mesh lacks it.
bool readAttribute(const draco::Mesh& mesh, const Json& attributes, const char* name, int components,
                   std::vector<float>& out) {
    out.clear();
    const Json* id = member(attributes, name);
    if (!id || !id->is_number_unsigned()) return false;
    const draco::PointAttribute* attribute = mesh.GetAttributeByUniqueId(id->get<std::uint32_t>());
    if (!attribute || attribute->num_components() != components) return false;
    out.resize(std::size_t(mesh.num_points()) * std::size_t(components));
    for (draco::PointIndex p(0); p < mesh.num_points(); ++p)
        if (!attribute->ConvertValue<float>(attribute->mapped_index(p), std::int8_t(components),
                                            &out[std::size_t(p.value()) * std::size_t(components)]))
            return false;
    return true;
}

}  // namespace

const char* decodeDracoVertices(const Json& extension, const Layout& layout,
                                const std::vector<io::SharedBytes>& buffers, std::uint64_t maxPoints,
                                DecodedVertices& out) {
    const Json* view = member(extension, "bufferView");
    const Json* attributes = member(extension, "attributes");
    if (!view || !view->is_number_unsigned() || view->get<std::size_t>() >= layout.views.size() ||
        !attributes || !attributes->is_object())
        return "has a KHR_draco_mesh_compression without a bufferView or attributes";
    const ViewLayout& v = layout.views[view->get<std::size_t>()];
    if (v.compressed || layout.buffers[std::size_t(v.buffer)].noData)
        return "has its Draco bytes in no buffer";
    draco::DecoderBuffer bytes;
    bytes.Init(reinterpret_cast<const char*>(buffers[std::size_t(v.buffer)].data() + v.offset), v.length);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&bytes);
    if (!decoded.ok() || !decoded.value()) return "is Draco-compressed, and its bytes do not decode";
    const draco::Mesh& mesh = *decoded.value();
    if (mesh.num_points() > maxPoints)
        return "is Draco-compressed with more points than rootbake reads (2^20)";
    if (!readAttribute(mesh, *attributes, "POSITION", 3, out.positions))
        return "is Draco-compressed without a 3-number POSITION";
    // A skinned primitive without readable weights moves with no joint (as uncompressed).
    out.weighted = readAttribute(mesh, *attributes, "JOINTS_0", 4, out.joints) &&
                   readAttribute(mesh, *attributes, "WEIGHTS_0", 4, out.weights);
    return nullptr;
}

}  // namespace rootbake::gltf

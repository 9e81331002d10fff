#include "edit/document.h"

#include "gltf/internal.h"

namespace rootbake::edit {

using gltf::member;

std::size_t sizeOf(const Json& doc, const char* key) {
    const Json* array = member(doc, key);
    return array && array->is_array() ? array->size() : 0;
}

bool isIndex(const Json* value) {
    if (!value || !value->is_number()) return false;
    const double v = value->get<double>();
    return v >= 0.0 && v == double(value->get<std::uint64_t>());
}

std::uint64_t uintOf(const Json& object, const char* key, std::uint64_t otherwise) {
    const Json* value = member(object, key);
    return value && value->is_number() ? value->get<std::uint64_t>() : otherwise;
}

const Json* extensionOf(const Json& object, const char* name) {
    const Json* extensions = member(object, "extensions");
    return extensions && extensions->is_object() ? member(*extensions, name) : nullptr;
}

std::uint64_t align4(std::uint64_t n) {
    return (n + 3) / 4 * 4;
}

std::span<const std::uint8_t> sourceBytes(const gltf::Asset& asset, std::size_t buffer) {
    return buffer < asset.buffers.size() ? std::span<const std::uint8_t>(asset.buffers[buffer])
                                         : std::span<const std::uint8_t>();
}

bool hasNoData(const gltf::Asset& asset, const EditedDocument& edited, std::size_t buffer) {
    const Json& b = edited.document["buffers"][buffer];
    return !member(b, "uri") && !(asset.binary && buffer == 0) && !edited.buffers[buffer].touched;
}

std::uint64_t heldBytes(const gltf::Asset& asset, const EditedDocument& edited, std::size_t buffer) {
    const BufferEdit& edit = edited.buffers[buffer];
    return edit.touched ? edit.kept + edit.tail.size() : sourceBytes(asset, buffer).size();
}

}  // namespace rootbake::edit

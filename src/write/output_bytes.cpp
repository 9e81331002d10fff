// The output as pieces: bytes made here, and ranges of the input's buffers written from where
// they are (a GLB's mesh bytes are never copied in memory).
#include "write/framing.h"

#include <algorithm>

namespace rootbake::write {

void OutputBytes::input(std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return;
    list.push_back({{}, bytes});
    size += bytes.size();
}

void OutputBytes::made(const void* data, std::size_t n) {
    if (n == 0) return;
    if (list.empty() || list.back().bytes.empty()) list.emplace_back();
    const auto* p = static_cast<const std::uint8_t*>(data);
    list.back().bytes.insert(list.back().bytes.end(), p, p + n);
    size += n;
}

void OutputBytes::pad(std::uint64_t to, std::uint8_t byte) {
    const std::vector<std::uint8_t> fill(to > size ? std::size_t(to - size) : 0, byte);
    made(fill.data(), fill.size());
}

void OutputBytes::put32(std::uint32_t v) {
    std::uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = std::uint8_t(v >> (8 * i));
    made(b, 4);
}

void appendBuffer(const gltf::Asset& asset, const edit::EditedDocument& edited, std::size_t buffer,
                  OutputBytes& out) {
    const std::span<const std::uint8_t> source = edit::sourceBytes(asset, buffer);
    const edit::BufferEdit& edit = edited.buffers[buffer];
    if (!edit.touched) {
        const std::size_t length = std::min<std::size_t>(
            source.size(), edit::uintOf(edited.document["buffers"][buffer], "byteLength"));
        out.input(source.first(length));
        return;
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts = edit.cuts;
    std::sort(cuts.begin(), cuts.end());
    std::uint64_t from = 0, left = edit.kept;
    for (const auto& [offset, length] : cuts) {
        out.input(source.subspan(std::size_t(from), std::size_t(offset - from)));
        left -= offset - from;
        from = offset + length;
    }
    out.input(source.subspan(std::size_t(from), std::size_t(left)));
    out.made(edit.tail.data(), edit.tail.size());
}

std::vector<std::uint8_t> bufferBytes(const gltf::Asset& asset, const edit::EditedDocument& edited,
                                      std::size_t buffer) {
    OutputBytes out;
    appendBuffer(asset, edited, buffer, out);
    return joinPieces(out.list);
}

std::vector<std::uint8_t> joinPieces(const std::vector<OutputPiece>& pieces) {
    std::vector<std::uint8_t> out;
    for (const OutputPiece& p : pieces) {
        const std::span<const std::uint8_t> bytes =
            p.bytes.empty() ? p.input : std::span<const std::uint8_t>(p.bytes);
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    return out;
}

}  // namespace rootbake::write

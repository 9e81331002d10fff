// The buffers compacted: bytes that only the old keys held are cut out (planCompaction's
// arithmetic on byte ranges, then applied to the bufferViews), and the new keys appended.
#include "edit/stages.h"
#include "gltf/internal.h"

#include <algorithm>
#include <tuple>

namespace rootbake::edit {

using gltf::member;

namespace {

bool startsBefore(const ByteRange& a, const ByteRange& b) {
    return std::tie(a.buffer, a.offset) < std::tie(b.buffer, b.offset);
}

// The ranges sorted, those that touch or overlap in one buffer merged.
std::vector<ByteRange> mergeRanges(std::span<const ByteRange> ranges) {
    std::vector<ByteRange> sorted(ranges.begin(), ranges.end());
    std::sort(sorted.begin(), sorted.end(), startsBefore);
    std::vector<ByteRange> merged;
    for (const ByteRange& d : sorted) {
        if (!merged.empty() && merged.back().buffer == d.buffer &&
            d.offset <= merged.back().offset + merged.back().length) {
            ByteRange& m = merged.back();
            m.length = std::max(m.offset + m.length, d.offset + d.length) - m.offset;
        } else {
            merged.push_back(d);
        }
    }
    return merged;
}

// Whether any of a set of ranges overlaps [start, end) of a buffer, in O(log n) a question: the
// ranges by start, with the furthest any of them before reaches in its buffer.
class OverlapTest {
public:
    explicit OverlapTest(std::span<const ByteRange> ranges) : byStart_(ranges.begin(), ranges.end()) {
        std::sort(byStart_.begin(), byStart_.end(), startsBefore);
        reach_.resize(byStart_.size());
        for (std::size_t i = 0; i < byStart_.size(); ++i) {
            const bool sameBuffer = i > 0 && byStart_[i - 1].buffer == byStart_[i].buffer;
            reach_[i] = std::max(sameBuffer ? reach_[i - 1] : 0, byStart_[i].offset + byStart_[i].length);
        }
    }
    bool overlaps(int buffer, std::uint64_t start, std::uint64_t end) const {
        const auto after =
            std::lower_bound(byStart_.begin(), byStart_.end(), ByteRange{buffer, end, 0}, startsBefore);
        if (after == byStart_.begin() || std::prev(after)->buffer != buffer) return false;
        return reach_[std::size_t(after - byStart_.begin()) - 1] > start;
    }

private:
    std::vector<ByteRange> byStart_;
    std::vector<std::uint64_t> reach_;
};

// How far each live range moves: the sum of the cuts that end at or before its start, found by
// binary search among its buffer's cuts (ordered by end, with running totals).
std::vector<std::uint64_t> movesOf(std::span<const ByteRange> live, std::vector<ByteRange> cuts) {
    auto end = [](const ByteRange& r) { return r.offset + r.length; };
    auto endsBefore = [&](const ByteRange& a, const ByteRange& b) {
        return std::make_tuple(a.buffer, end(a)) < std::make_tuple(b.buffer, end(b));
    };
    std::sort(cuts.begin(), cuts.end(), endsBefore);
    std::vector<std::uint64_t> cutBelow(cuts.size());  // cut by cuts[first of its buffer .. i]
    for (std::size_t i = 0; i < cuts.size(); ++i)
        cutBelow[i] = (i > 0 && cuts[i - 1].buffer == cuts[i].buffer ? cutBelow[i - 1] : 0) + cuts[i].length;
    std::vector<std::uint64_t> moved(live.size(), 0);
    for (std::size_t i = 0; i < live.size(); ++i) {
        const ByteRange& r = live[i];
        const auto above =
            std::upper_bound(cuts.begin(), cuts.end(), ByteRange{r.buffer, r.offset, 0}, endsBefore);
        if (above == cuts.begin() || std::prev(above)->buffer != r.buffer) continue;
        moved[i] = cutBelow[std::size_t(above - cuts.begin()) - 1];
    }
    return moved;
}

// A bufferView's byte range, or its meshopt stream's (ext names the extension).
struct ViewRange {
    ByteRange range;
    std::size_t view = 0;
    const char* ext = nullptr;  // nullptr: the bufferView itself
};

// The original bufferViews' ranges, live or dead (reused for new keys), and their meshopt streams
// (live); false for a malformed stream (then nothing is moved).
bool collectRanges(const EditState& state, std::vector<ViewRange>& live, std::vector<ByteRange>& dead) {
    const Json& doc = state.out.document;
    const std::size_t buffers = sizeOf(doc, "buffers");
    for (std::size_t v = 0; v < state.originalViews; ++v) {
        const Json& view = doc["bufferViews"][v];
        const ByteRange range{int(uintOf(view, "buffer")), uintOf(view, "byteOffset"),
                              uintOf(view, "byteLength")};
        if (state.reused[v])
            dead.push_back(range);
        else
            live.push_back({range, v, nullptr});
        for (const char* name : kMeshoptExtensions) {
            const Json* ext = extensionOf(view, name);
            if (!ext) continue;
            const Json* b = member(*ext, "buffer");
            if (!isIndex(b) || b->get<std::size_t>() >= buffers) return false;
            const ByteRange r{b->get<int>(), uintOf(*ext, "byteOffset"), uintOf(*ext, "byteLength")};
            if (r.offset + r.length > uintOf(doc["buffers"][r.buffer], "byteLength")) return false;
            live.push_back({r, v, name});
        }
    }
    for (const ByteRange& d : state.deadStreams)
        if (d.offset + d.length <= uintOf(doc["buffers"][d.buffer], "byteLength")) dead.push_back(d);
    return true;
}

}  // namespace

Compaction planCompaction(std::span<const ByteRange> live, std::span<const ByteRange> dead) {
    Compaction out;
    const std::vector<ByteRange> merged = mergeRanges(dead);
    const OverlapTest liveTest(live);
    // From the end of each buffer down, so earlier ranges keep their offsets.
    for (auto it = merged.rbegin(); it != merged.rend(); ++it) {
        const std::uint64_t cut = it->length / 4 * 4;  // keeps every later offset's alignment
        if (cut == 0 || liveTest.overlaps(it->buffer, it->offset, it->offset + it->length)) continue;
        out.cuts.push_back({it->buffer, it->offset, cut});
        out.bytesCut += cut;
    }
    out.movedDown = movesOf(live, out.cuts);
    return out;
}

void dropDeadRanges(EditState& state) {
    std::vector<ViewRange> views;
    std::vector<ByteRange> dead;
    if (!collectRanges(state, views, dead)) return;  // malformed: move nothing
    // A buffer without data has no bytes to cut.
    std::erase_if(dead, [&](const ByteRange& d) { return hasNoData(state.asset, state.out, d.buffer); });
    if (dead.empty()) return;
    std::vector<ByteRange> live;
    for (const ViewRange& v : views) live.push_back(v.range);
    const Compaction compaction = planCompaction(live, dead);
    for (const ByteRange& cut : compaction.cuts) {
        touchBuffer(state, cut.buffer);
        BufferEdit& edit = state.out.buffers[cut.buffer];
        edit.cuts.emplace_back(cut.offset, cut.length);  // in source offsets
        edit.kept -= cut.length;
    }
    state.out.bytesDropped += compaction.bytesCut;
    for (std::size_t i = 0; i < views.size(); ++i) {
        if (compaction.movedDown[i] == 0) continue;
        Json& view = state.out.document["bufferViews"][views[i].view];
        Json& holder = views[i].ext ? view["extensions"][views[i].ext] : view;
        holder["byteOffset"] = views[i].range.offset - compaction.movedDown[i];
    }
}

void appendNewKeys(EditState& state) {
    Json& doc = state.out.document;
    for (NewKeys& keys : state.newKeys) {
        touchBuffer(state, keys.buffer);
        BufferEdit& edit = state.out.buffers[keys.buffer];
        edit.tail.resize(align4(edit.kept + edit.tail.size()) - edit.kept, 0);
        Json& view = doc["bufferViews"][keys.view];
        view["buffer"] = keys.buffer;
        view["byteOffset"] = edit.kept + edit.tail.size();
        view["byteLength"] = keys.bytes.size();
        view.erase("byteStride");
        view.erase("target");
        edit.tail.insert(edit.tail.end(), keys.bytes.begin(), keys.bytes.end());
        state.out.bytesAppended += keys.bytes.size();
    }
    for (std::size_t b = 0; b < state.out.buffers.size(); ++b)
        if (state.out.buffers[b].touched)
            doc["buffers"][b]["byteLength"] = heldBytes(state.asset, state.out, b);
}

}  // namespace rootbake::edit

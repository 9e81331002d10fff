// edit::planCompaction's range arithmetic, on ranges laid out by hand: which dead bytes are cut
// (merged, rounded down to a multiple of 4, kept where a live range overlaps), and how far each
// live range moves (the sum of the cuts before its start, in its own buffer).
#include "edit/edit.h"

#include <doctest/doctest.h>

#include <vector>

using rootbake::edit::ByteRange;
using rootbake::edit::Compaction;
using rootbake::edit::planCompaction;

namespace {

bool sameRanges(const std::vector<ByteRange>& a, const std::vector<ByteRange>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].buffer != b[i].buffer || a[i].offset != b[i].offset || a[i].length != b[i].length)
            return false;
    return true;
}

}  // namespace

TEST_CASE("compaction: a dead range between two live ones is cut, the one above moves down by its length") {
    // buffer 0: live [0,8), dead [8,20), live [20,28)
    const std::vector<ByteRange> live{{0, 0, 8}, {0, 20, 8}}, dead{{0, 8, 12}};
    const Compaction c = planCompaction(live, dead);
    CHECK(sameRanges(c.cuts, {{0, 8, 12}}));
    CHECK(c.movedDown == std::vector<std::uint64_t>{0, 12});
    CHECK(c.bytesCut == 12);
}

TEST_CASE("compaction: a cut is rounded down to a multiple of 4, so later offsets keep their alignment") {
    // dead [8,18): 10 bytes, 8 cut; live [18,20) and [20,24) move by 8 (18 -> 10, 20 -> 12: same mod 4)
    const std::vector<ByteRange> live{{0, 0, 8}, {0, 18, 2}, {0, 20, 4}}, dead{{0, 8, 10}};
    const Compaction c = planCompaction(live, dead);
    CHECK(sameRanges(c.cuts, {{0, 8, 8}}));
    CHECK(c.movedDown == std::vector<std::uint64_t>{0, 8, 8});
    CHECK(c.bytesCut == 8);

    // 3 dead bytes round down to none: nothing is cut, nothing moves.
    const std::vector<ByteRange> small{{0, 8, 3}};
    const Compaction none = planCompaction(live, small);
    CHECK(none.cuts.empty());
    CHECK(none.movedDown == std::vector<std::uint64_t>{0, 0, 0});
    CHECK(none.bytesCut == 0);
}

TEST_CASE("compaction: dead bytes that a live range overlaps stay, and so does everything above them") {
    // dead [40,60) with live [50,54) inside it; live [60,64) above
    const std::vector<ByteRange> live{{0, 50, 4}, {0, 60, 4}}, dead{{0, 40, 20}};
    const Compaction c = planCompaction(live, dead);
    CHECK(c.cuts.empty());
    CHECK(c.movedDown == std::vector<std::uint64_t>{0, 0});

    // A live range that starts before the dead one and reaches into it: [36,44) over [40,60).
    const std::vector<ByteRange> reaching{{0, 36, 8}, {0, 60, 4}};
    CHECK(planCompaction(reaching, dead).cuts.empty());
    // One that ends where the dead one starts does not overlap it: [36,40), 20 bytes cut.
    const std::vector<ByteRange> touching{{0, 36, 4}, {0, 60, 4}};
    const Compaction cut = planCompaction(touching, dead);
    CHECK(sameRanges(cut.cuts, {{0, 40, 20}}));
    CHECK(cut.movedDown == std::vector<std::uint64_t>{0, 20});
}

TEST_CASE("compaction: dead ranges that touch or overlap merge into one cut") {
    // [0,4) + [4,12) touch, [6,10) is inside: one range [0,12); live [12,16) moves by 12
    const std::vector<ByteRange> live{{0, 12, 4}}, dead{{0, 4, 8}, {0, 0, 4}, {0, 6, 4}};
    const Compaction c = planCompaction(live, dead);
    CHECK(sameRanges(c.cuts, {{0, 0, 12}}));
    CHECK(c.movedDown == std::vector<std::uint64_t>{12});
    CHECK(c.bytesCut == 12);
}

TEST_CASE("compaction: cuts go from the end of each buffer down, a range moves by the cuts below it only") {
    // buffer 0: dead [0,4), live [4,8), dead [8,12), live [12,16): the first live moves 4, the second 8
    // buffer 1: dead [4,8), live [8,12): it moves 4, not by buffer 0's cuts
    const std::vector<ByteRange> live{{0, 4, 4}, {0, 12, 4}, {1, 8, 4}, {1, 0, 4}};
    const std::vector<ByteRange> dead{{0, 8, 4}, {1, 4, 4}, {0, 0, 4}};
    const Compaction c = planCompaction(live, dead);
    CHECK(sameRanges(c.cuts, {{1, 4, 4}, {0, 8, 4}, {0, 0, 4}}));
    CHECK(c.movedDown == std::vector<std::uint64_t>{4, 8, 4, 0});
    CHECK(c.bytesCut == 12);
}

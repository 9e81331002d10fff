// The HTML report (`rootbake report`): one self-contained page, inline SVG
// drawn here, no scripts, no fonts or styles from the network. Two stages, both
// in memory: describeClip() samples what the pictures draw of a clip the pipeline analysed
// (core calls only), writeReport() turns the descriptions into the page's
// bytes. Nothing here reads or writes a file; the command writes the page.
#pragma once

#include "rootbake/bake.h"
#include "rootbake/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace rootbake::report {

// One contact node's lane in the contact timeline.
struct ContactLane {
    std::string label;                     // nodeLabel()
    std::vector<PlantedInterval> planted;  // s, from the clip start
};

// Where a contact stood while planted, as the baked clip plays with its motion
// applied: character space, scene units.
struct PlantedMark {
    int lane = 0;                   // index in ClipReport::lanes
    double start = 0.0, end = 0.0;  // s, the planted interval
    glm::dvec3 foothold{0.0};       // at the interval's sample where the contact is lowest
    glm::dvec3 touchDown{0.0};      // at the interval's first sample
    glm::dvec3 liftOff{0.0};        // at its last sample
    double slip = 0.0;  // largest horizontal distance from the foothold over the interval, scene units
};

// One clip, analysed, with the numbers the table prints and the points the
// pictures draw.
struct ClipReport {
    std::string name;        // the clip's name, may be empty
    int animationIndex = 0;  // glTF animations[i]
    ClipAnalysis analysis;
    LoopSeam loop;              // measureLoopSeam on the in-place clip
    bool bakedInPlace = false;  // removeMotion rewrote the root's keys

    std::string root, character, worstNode;  // node labels; empty for -1
    std::vector<std::string> contacts;       // labels of analysis.contacts

    // The analysis's planted intervals, one lane per contact: what the sidecar's
    // contacts[] hold. Empty for a clip without contacts (its motion is in the
    // root's keys, or there is none): the page then draws no lanes.
    std::vector<ContactLane> lanes;
    std::vector<PlantedMark> marks;

    // One point per motion-track sample, character space: the root in the
    // source clip and in the baked (in-place) clip; empty without a root.
    std::vector<glm::dvec3> sourceRootPath, bakedRootPath;
};

// A clip that moves the character (travel or turn: source root or
// footContact). The page lists these first; the others, idle and pose clips,
// are folded into a short list after them.
inline bool movesCharacter(const ClipReport& clip) {
    return clip.analysis.source != Source::None;
}

// A loop seam the page flags: above kLoopGapDefault of the character height,
// where `--fail-on loop-gap` fails a clip.
inline bool seamAboveLoopGap(const LoopSeam& loop) {
    return loop.positionFraction > kLoopGapDefault;
}

struct AssetReport {
    std::string label;              // how the page names the file: relative, never an absolute path
    std::vector<ClipReport> clips;  // file order
};

struct ReportSettings {
    std::string generator = "rootbake";  // "rootbake <version>", printed in the page
    Options options;                     // the analysis options, printed in the page
};

// The clip as the pipeline analysed it and made it in place (its analysis, channels and
// loop seam), with the points the pictures draw.
ClipReport describeClip(const Rig& rig, const Clip& clip, const BakedClip& inPlace);

// The page: a jump list, then one section per asset with one per clip (key
// figures, top view, the contact timeline of a clip with contacts, speed and,
// for turning clips, turn over time); in each, the clips that move first, then
// the idle and pose clips (figures and top view only). The same descriptions
// give the same bytes.
std::string writeReport(const std::vector<AssetReport>& assets, const ReportSettings& settings);

// The page's one precision rule: every figure is rounded to a fixed step for
// its unit and printed with that step's decimals, trailing zeros kept so a
// column lines up; C locale, never an exponent, never "-0".
inline constexpr int kLengthDecimals = 3;     // m and m/s: to the millimetre
inline constexpr int kTimeDecimals = 3;       // s: to the millisecond
inline constexpr int kAngleDecimals = 1;      // degrees and degrees/s: to a tenth of a degree
inline constexpr int kPercentDecimals = 1;    // % (of the height, of the clip): to a tenth
inline constexpr int kDirectionDecimals = 3;  // components of a unit vector

// `value` with `decimals` decimals ("1.200", "0.000" for -0.0004 at 3).
std::string formatFixed(double value, int decimals);

// An axis tick at a multiple of `step` (1, 2 or 5 times a power of ten), with the decimals the step needs.
std::string formatTick(double value, double step);

// Text or an attribute value with & < > " ' as character references.
std::string escapeHtml(std::string_view text);

// The id of a clip's section ("a0-c3": asset 0 in the batch, animations[3]).
std::string clipSectionId(int asset, int animationIndex);

}  // namespace rootbake::report

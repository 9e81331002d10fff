// The HTML report (`rootbake report`): one self-contained page, inline SVG
// drawn here, no scripts, no fonts or styles from the network. Two stages, both
// in memory: describeClip() analyses a clip and samples what the pictures draw
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
    int lane = 0;               // index in ClipReport::lanes
    double start = 0.0, end = 0.0;  // s, the planted interval
    glm::dvec3 foothold{0.0};   // at the interval's sample where the contact is lowest
    glm::dvec3 touchDown{0.0};  // at the interval's first sample
    glm::dvec3 liftOff{0.0};    // at its last sample
    double slip = 0.0;          // largest horizontal distance from the foothold over the interval, scene units
};

// One clip, analysed, with the numbers the table prints and the points the
// pictures draw.
struct ClipReport {
    std::string name;        // the clip's name, may be empty
    int animationIndex = 0;  // glTF animations[i]
    ClipAnalysis analysis;
    LoopSeam loop;           // measureLoopSeam on the in-place clip
    bool bakedInPlace = false;  // removeMotion rewrote the root's keys

    std::string root, character, worstNode;  // node labels; empty for -1
    std::vector<std::string> contacts;       // labels of analysis.contacts

    // The analysis's planted intervals; for a clip whose analysis used no
    // contacts (root, none), those a contact-only analysis of the same clip
    // finds, so the gait still shows (lanesFromAnalysis is then false).
    std::vector<ContactLane> lanes;
    bool lanesFromAnalysis = true;
    std::vector<PlantedMark> marks;

    // One point per motion-track sample, character space: the root in the
    // source clip and in the baked (in-place) clip; empty without a root.
    std::vector<glm::dvec3> sourceRootPath, bakedRootPath;
};

struct AssetReport {
    std::string label;  // how the page names the file: relative, never an absolute path
    std::vector<ClipReport> clips;  // file order
};

struct ReportSettings {
    std::string generator = "rootbake";  // "rootbake <version>", printed in the page
    Options options;                     // the analysis options, printed in the page
};

// analyzeClip, removeMotion, the in-place clip's loop seam, and the points the
// pictures draw. The error is analyzeClip's.
Result<ClipReport> describeClip(const Rig& rig, const Clip& clip, const Options& options);

// The page: a jump list, then one section per asset with one per clip (key
// figures, top view, contact timeline, speed and, for turning clips, turn over
// time). The same descriptions give the same bytes.
std::string writeReport(const std::vector<AssetReport>& assets, const ReportSettings& settings);

// How the page prints a figure: 4 significant digits, C locale, no exponent
// between 1e-4 and 1e15; "0" for zero (and -0) and for anything smaller in
// magnitude than `resolution`.
std::string formatNumber(double value, double resolution = 0.0);

// The resolutions the page prints figures with: below them is float noise.
inline constexpr double kLengthResolution = 1e-6;     // scene units (lengths, speeds in units/s)
inline constexpr double kDirectionResolution = 1e-9;  // components of a unit vector
inline constexpr double kAngleResolution = 1e-4;      // degrees (angles, angular speeds in degrees/s)

// Text or an attribute value with & < > " ' as character references.
std::string escapeHtml(std::string_view text);

// The id of a clip's section ("a0-c3": asset 0 in the batch, animations[3]).
std::string clipSectionId(int asset, int animationIndex);

}  // namespace rootbake::report

// --fail-on: checks that turn a baked or inspected clip into a failed run (exit 4)
// with a one-line reason per clip, for CI.
#pragma once

#include "rootbake/bake.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::cli {

struct Gates {
    bool noMotion = false;          // a clip named like locomotion found no travel
    std::optional<double> loopGap;  // loop-seam position mismatch above this fraction of the height
    bool noRoot = false;            // a clip with no root (it animates no position)
    bool warnings = false;          // a clip with analysis warnings
};

inline bool anyGate(const Gates& g) { return g.noMotion || g.loopGap || g.noRoot || g.warnings; }

// "no-motion,loop-gap=0.05,no-root,warnings"; a bare "loop-gap" is kLoopGapDefault. An error names the item.
bool parseGates(const std::string& text, Gates& gates, std::string& error);

// walk, run, jog, sprint, strafe or crawl as a word of the name ("Walk_Fwd", "mixamo.com|Running").
bool looksLikeLocomotion(std::string_view clipName);

// "rootbake: failed: walk.glb: animations[0] \"walk\": <reason>\n" for each reason, for stderr
// (messageLines: wrapped under the place when longer than kColumns).
std::string failedGateLines(const std::string& file, const Clip& clip, const std::vector<std::string>& reasons);

// Why a clip's result may not be what its author meant, whatever the gates: each of
// the analysis's warnings; a clip named like locomotion without travel; a stride over
// kMaxStridePerCycle times the character height (no gait covers that per cycle). A
// footContact clip's stride is the analysis's own warning, per counted cycle.
std::vector<std::string> doubts(const std::string& clipName, const ClipAnalysis& analysis);

// "rootbake: warning: walk.glb: animations[0] \"walk\": <doubt>\n" for each doubt, for stderr
// (messageLines, as failedGateLines).
std::string doubtLines(const std::string& file, const Clip& clip, const std::vector<std::string>& doubts);

// One reason per failed gate: "no-motion: named like locomotion, but no travel was found".
std::vector<std::string> failedGates(const Gates& gates, const std::string& clipName, const ClipAnalysis& analysis,
                                     const LoopSeam& loop);

}  // namespace rootbake::cli

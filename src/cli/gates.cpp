// --fail-on gates.
#include "cli/gates.h"

#include "cli/cli.h"
#include "rootbake/num.h"

#include <charconv>
#include <cmath>
#include <cctype>

namespace rootbake::cli {

bool parseGates(const std::string& text, Gates& gates, std::string& error) {
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(begin, end - begin);
        if (item == "no-motion") gates.noMotion = true;
        else if (item == "no-root") gates.noRoot = true;
        else if (item == "warnings") gates.warnings = true;
        else if (item == "loop-gap") gates.loopGap = kLoopGapDefault;  // the seam the report flags
        else if (item.rfind("loop-gap=", 0) == 0) {
            const std::string value = item.substr(9);
            double gap = 0;
            const auto parsed = std::from_chars(value.data(), value.data() + value.size(), gap);
            if (parsed.ec != std::errc() || parsed.ptr != value.data() + value.size() || !(gap >= 0 && gap < 1e6)) {
                error = "--fail-on " + item + ": expected loop-gap=F, F a fraction of the character height (0.02)";
                return false;
            }
            gates.loopGap = gap;
        } else {
            error = "--fail-on: \"" + item + "\" is not a gate (no-motion, loop-gap[=F], no-root, warnings)";
            return false;
        }
        begin = end + 1;
    }
    return true;
}

bool looksLikeLocomotion(std::string_view name) {
    static const char* const kWords[] = {"walk", "run", "jog", "sprint", "strafe", "crawl"};
    const std::string lower = lowerAscii(std::string(name));
    for (const char* word : kWords) {
        const std::string_view w = word;
        for (std::size_t at = lower.find(w); at != std::string::npos; at = lower.find(w, at + 1)) {
            // A word's start: the name's start, or after a letter that is not one (so
            // "rerun" and "prune" are not runs, while "WalkFwd" and "Run01" are).
            const bool starts = at == 0 || !(std::isalpha(static_cast<unsigned char>(lower[at - 1])) &&
                                             !std::isupper(static_cast<unsigned char>(name[at])));
            if (starts) return true;
        }
    }
    return false;
}

std::string failedGateLines(const std::string& file, const Clip& clip, const std::vector<std::string>& reasons) {
    std::string out;
    for (const std::string& r : reasons) out += messageLines("failed", file + ": " + clipLabel(clip), r);
    return out;
}

namespace {

bool noTravel(const std::string& clipName, const ClipAnalysis& analysis) {
    return analysis.source == Source::None && looksLikeLocomotion(clipName);
}

// The cause alone: the reason's facts are inspect -v's (and bake -v's), one a line.
const char* const kNoTravel = "named like locomotion, but no travel was found";

}  // namespace

std::vector<std::string> doubts(const std::string& clipName, const ClipAnalysis& analysis) {
    std::vector<std::string> out;
    for (const std::string& warning : analysis.warnings) out.push_back(warning);
    if (noTravel(clipName, analysis)) out.push_back(kNoTravel);
    if (analysis.source != Source::FootContact && analysis.characterHeight > 0 &&
        std::abs(analysis.strideLength) > kMaxStridePerCycle * analysis.characterHeight) {
        out.push_back("a stride of " + num(std::abs(analysis.strideLength), 3) + " m per cycle, more than " +
                      num(kMaxStridePerCycle, 3) + " times the character height (" + num(analysis.characterHeight, 3) +
                      " m)");
    }
    return out;
}

std::string doubtLines(const std::string& file, const Clip& clip, const std::vector<std::string>& doubts) {
    std::string out;
    for (const std::string& d : doubts) out += messageLines("warning", file + ": " + clipLabel(clip), d);
    return out;
}

std::vector<std::string> failedGates(const Gates& gates, const std::string& clipName, const ClipAnalysis& analysis,
                                     const LoopSeam& loop) {
    std::vector<std::string> out;
    if (gates.noMotion && noTravel(clipName, analysis))
        out.push_back(std::string("no-motion: ") + kNoTravel);
    if (gates.noRoot && analysis.root < 0) out.push_back("no-root: the clip animates no node's position");
    if (gates.loopGap && loop.positionFraction > *gates.loopGap) {
        out.push_back("loop-gap: the loop seam is " + num(loop.positionFraction, 3) + " of the height (" +
                      num(loop.position, 4) + " units), above " + num(*gates.loopGap, 3));
    }
    if (gates.warnings)
        for (const std::string& warning : analysis.warnings) out.push_back("warnings: " + warning);
    return out;
}

}  // namespace rootbake::cli

// The page: figures per clip, the pictures, the jump list and the style sheet, as one
// self-contained HTML document (no scripts, no fonts or styles from the network).
#include "report/charts.h"
#include "report/report.h"
#include "report/text.h"

#include <algorithm>
#include <cmath>

namespace rootbake::report {

namespace {

// ---- one clip's section -------------------------------------------------------------

void row(std::string& out, const char* name, const std::string& valueHtml, const char* cls = nullptr) {
    out += "<tr";
    if (cls) out += std::string(" class=\"") + cls + "\"";
    out += "><th>" + std::string(name) + "</th><td>" + valueHtml + "</td></tr>\n";
}

const char* sourceExplanation(Source source) {
    switch (source) {
        case Source::Root:
            return "the motion is in the root's keys: taken out of them, applied to the character";
        case Source::FootContact:
            return "in place: the travel is deduced from the planted contacts; keys unchanged";
        case Source::None:
            break;
    }
    return "no travel and no turn: the clip produces no motion";
}

// The loop seam as the figures print it, flagged above the loop-gap default.
std::string seamText(const ClipReport& c) {
    std::string seam = length(c.loop.position) + " (" + percent(c.loop.positionFraction) +
                       " of the height), " + formatFixed(c.loop.rotationDegrees, kAngleDecimals) + "\u00B0";
    if (!c.worstNode.empty() && !printsAsZero(c.loop.position, kLengthDecimals))
        seam += ", largest at " + escapeHtml(c.worstNode);
    if (seamAboveLoopGap(c.loop))
        seam += "<br/><span class=\"seam-flag\">\u26A0 above " + percent(kLoopGapDefault) +
                " of the height (the loop-gap default): the last frame does not meet the first</span>";
    return seam;
}

// The contacts, and for a clip whose travel comes from them, how well they bear it out
// (docs/analysis.md, "Contacts").
void appendContactRows(std::string& out, const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    std::string contacts;
    for (const std::string& label : c.contacts)
        contacts += (contacts.empty() ? "" : ", ") + escapeHtml(label);
    row(out, "Contacts",
        !contacts.empty()          ? contacts
        : a.source == Source::Root ? "none: the motion is in the root's keys, the feet are not read"
                                   : "none: no travel is deduced from the feet");
    if (a.source == Source::FootContact) {
        const ContactEvidence& e = a.evidence;
        std::string stance;
        for (size_t i = 0; i < c.contacts.size() && i < e.stanceShare.size(); ++i)
            stance += (i ? ", " : "") + escapeHtml(c.contacts[i]) + " " + percent(e.stanceShare[i]);
        row(out, "Contact evidence",
            "in stance: " + stance + "; flight (interpolated) " + percent(e.flightShare) +
                "; stance speeds differ by " + percent(e.speedSpread) + "; " + std::to_string(e.touchDowns) +
                " touch-downs; " + length(e.stridePerCycle) + " per cycle");
    }
}

// Where the baked clip's root goes on the ground: the extent of its path.
std::string bakedRootExtent(const ClipReport& c) {
    const glm::dvec2 size = groundExtent(c.bakedRootPath, c.analysis.upAxis);
    const bool still = printsAsZero(size.x, kLengthDecimals) && printsAsZero(size.y, kLengthDecimals);
    return still ? std::string("does not move on the ground")
                 : "stays within " + formatFixed(size.x, kLengthDecimals) + " \u00D7 " + length(size.y) +
                       " on the ground";
}

// The analysis's reasons, one a line, and its warnings.
void appendDecisions(std::string& out, const ClipAnalysis& a) {
    out += "<h4>Decisions</h4>\n<ol class=\"reasons\">\n";
    for (const std::string& reason : splitReason(a.reason)) out += "<li>" + escapeHtml(reason) + "</li>\n";
    out += "</ol>\n";
    if (!a.warnings.empty()) {
        out += "<div class=\"warnings\"><h4>\u26A0 Warnings</h4>\n<ul>\n";
        for (const std::string& w : a.warnings) out += "<li>" + escapeHtml(w) + "</li>\n";
        out += "</ul></div>\n";
    }
}

void appendFigures(std::string& out, const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    const bool moves = movesCharacter(c);
    out += "<table class=\"figures\">\n";
    row(out, "Source",
        "<span class=\"badge\">" + std::string(sourceName(a.source)) + "</span> " +
            sourceExplanation(a.source));
    row(out, "Root", c.root.empty() ? "none" : escapeHtml(c.root));
    row(out, "Character space", c.character.empty() ? "the scene" : escapeHtml(c.character));
    appendContactRows(out, c);
    row(out, "Duration",
        seconds(a.duration) + " (" + formatFixed(a.from, kTimeDecimals) + " to " + seconds(a.to) + ")");
    row(out, "Character height", length(a.characterHeight));
    if (moves) {  // an idle or pose clip has no travel, turn or speed to show
        row(out, "Stride", length(a.strideLength), "key");
        row(out, "Stride vector", vectorText(a.stride, kLengthDecimals) + " m");
        row(out, "Direction of travel",
            printsAsZero(a.strideLength, kLengthDecimals) ? "none (no travel)"
                                                          : directionText(a.travelDirection));
        row(out, "Turn",
            degrees(a.turn) + (a.extractsRotation ? " per cycle, extracted" : " per cycle, not extracted"),
            "key");
        row(out, "Average speed", speed(a.averageSpeed), "key");
        row(out, "Angular speed", degrees(a.averageAngularSpeed) + "/s");
    }
    row(out, "Loop seam", seamText(c), seamAboveLoopGap(c.loop) ? "flagged" : nullptr);
    if (!c.bakedRootPath.empty()) row(out, moves ? "Baked root" : "Root on the ground", bakedRootExtent(c));
    row(out, "Baked clip", c.bakedInPlace ? "the root's keys rewritten in place" : "written as it is");
    out += "</table>\n";

    appendDecisions(out, a);
}

// A clip's section. An idle or pose clip's holds its figures and top view only: its
// motion track is zero, so speed over time is a flat line.
void appendClip(std::string& out, int asset, const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    out += "<section class=\"clip\" id=\"" + clipSectionId(asset, c.animationIndex) + "\">\n";
    out += "<h3>" + escapeHtml(clipTitle(c)) + " <span class=\"index\">animations[" +
           std::to_string(c.animationIndex) + "]</span>";
    if (!a.warnings.empty())
        out += " <span class=\"warn-badge\">\u26A0 " + std::to_string(a.warnings.size()) +
               (a.warnings.size() == 1 ? " warning" : " warnings") + "</span>";
    out += "</h3>\n<div class=\"row\">\n<div class=\"figures-box\">\n";
    appendFigures(out, c);
    out += "</div>\n<figure class=\"topview-box\">\n" + topView(c) +
           "\n<figcaption>Top view: the root in the source clip, the character as the motion track moves it, "
           "and the root in the baked clip, which should stay in a small "
           "region.</figcaption>\n</figure>\n</div>\n";

    // Lanes only for the contacts the analysis read: a clip without contacts has none to show.
    if (!c.lanes.empty())
        out += "<figure>\n<figcaption>Contact timeline: planted intervals per contact node.</figcaption>\n" +
               contactTimeline(c) + "\n</figure>\n";
    if (movesCharacter(c))
        out += "<figure>\n<figcaption>Speed over time: the ground speed of the motion track.</figcaption>\n" +
               speedChart(c) + "\n</figure>\n";
    if (a.extractsRotation)
        out +=
            "<figure>\n<figcaption>Turn over time: the turn about the up axis the motion track applies."
            "</figcaption>\n" +
            turnChart(c) + "\n</figure>\n";
    out += "<p class=\"back\"><a href=\"#top\">\u2191 back to the list</a></p>\n</section>\n";
}

// ---- the page ------------------------------------------------------------------------

constexpr const char* kStyle = R"(
body { margin: 0; background: #FFFFFF; color: #1A1A1A;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header, main { max-width: 1140px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 28px 0 6px; }
h3 { font-size: 17px; margin: 0 0 10px; }
nav h3 { font-size: 15px; margin: 10px 0 2px; }
h4 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: 0.04em; color: #555555; }
a { color: #0062A0; }
.meta { color: #555555; margin: 0 0 8px; }
.index { font-weight: normal; color: #777777; font-size: 13px; }
table { border-collapse: collapse; }
.jump { margin: 4px 0 10px; }
.jump th, .jump td { padding: 3px 12px 3px 0; text-align: left; white-space: nowrap; }
.jump th { font-size: 12px; color: #555555; border-bottom: 1px solid #CCCCCC; }
.jump td.n, .jump th.n { text-align: right; font-variant-numeric: tabular-nums; }
.figures th { text-align: left; font-weight: 600; color: #444444; padding: 2px 14px 2px 0;
  vertical-align: top; white-space: nowrap; }
.figures td { padding: 2px 0; font-variant-numeric: tabular-nums; }
.figures tr.key td { font-weight: 700; }
.badge { display: inline-block; padding: 0 6px; border: 1px solid #888888; border-radius: 3px;
  font-size: 12px; font-weight: 600; background: #F2F2F2; }
.reasons { margin: 0; padding-left: 22px; color: #333333; }
.warnings { background: #FFF1D6; border-left: 5px solid #E69F00; padding: 4px 12px 6px; margin: 10px 0; }
.warnings h4 { color: #8A4B00; margin-top: 4px; }
.warn, .warn-badge, .seam-flag { color: #8A4B00; font-weight: 700; }
.figures tr.flagged td { background: #FFF1D6; }
.still { margin: 4px 0 10px; line-height: 1.7; }
.still-head { font-size: 12px; color: #555555; font-weight: 600; margin-right: 4px; }
.still-clip { white-space: nowrap; }
h3.group { font-size: 15px; color: #555555; border-top: 2px solid #D0D0D0; padding-top: 16px; margin: 8px 0 0; }
.warn-badge { font-size: 13px; background: #FFF1D6; border: 1px solid #E69F00; border-radius: 3px; padding: 0 6px; }
.clip { border-top: 2px solid #D0D0D0; padding: 16px 0 8px; }
.row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
.figures-box { flex: 1 1 440px; min-width: 0; }
figure { margin: 10px 0 0; }
figcaption { color: #555555; font-size: 12.5px; margin: 0 0 2px; }
.topview-box { flex: 0 0 auto; margin: 0; }
.topview-box figcaption { max-width: 460px; margin: 4px 0 0; }
svg { display: block; max-width: 100%; height: auto; }
.back { margin: 6px 0 0; font-size: 12px; }
@media print {
  body { font-size: 10pt; }
  header, main { max-width: none; padding: 0; }
  .clip { break-before: page; }
  figure, tr { break-inside: avoid; }
  .back { display: none; }
  a { color: inherit; text-decoration: none; }
}
)";

// The precision rule (report.h) and the seam flag, as the page states them.
std::string precisionNote() {
    return "Lengths in metres (glTF scene units) and speeds in m/s to the millimetre, times in seconds from "
           "the clip "
           "start to the millisecond, angles to a tenth of a degree, shares to a tenth of a percent.";
}

std::string seamNote() {
    return "\u26A0 on a loop seam: the clip\u2019s last frame is more than " + percent(kLoopGapDefault) +
           " of the character height from its first, the default of --fail-on loop-gap.";
}

std::string optionsText(const Options& o) {
    std::string s = "up axis " + axisName(glm::normalize(o.upAxis));
    s += " \u00B7 " + setting(o.samplesPerSecond) + " samples/s";
    s += " \u00B7 minimum travel " + setting(o.minimumTravel) + " \u00D7 height";
    s += " \u00B7 minimum turn " + degrees(o.minimumTurn);
    s += " \u00B7 direction snap " +
         (o.directionSnapAngle ? degrees(*o.directionSnapAngle) : std::string("auto"));
    s += std::string(" \u00B7 lateral ") + (o.extractLateralMotion ? "on" : "off");
    s += std::string(" \u00B7 rotation ") + kToggleNames[int(o.extractRotation)];
    s += std::string(" \u00B7 source ") + kSourceChoiceNames[int(o.source)];
    s += " \u00B7 root " + (o.rootNode.empty() ? std::string("found") : nodeRefLabel(o.rootNode));
    if (!o.characterNode.empty()) s += " \u00B7 character node " + nodeRefLabel(o.characterNode);
    std::string contacts;
    for (const NodeRef& c : o.contactNodes) contacts += (contacts.empty() ? "" : ", ") + nodeRefLabel(c);
    s += " \u00B7 contacts " + (contacts.empty() ? std::string("found") : contacts);
    return s;
}

// A clip's link in the jump list.
std::string clipLink(int asset, const ClipReport& c) {
    return "<a href=\"#" + clipSectionId(asset, c.animationIndex) + "\">" + escapeHtml(clipTitle(c)) + "</a>";
}

std::string warningCount(const ClipAnalysis& a) {
    return a.warnings.empty()
               ? std::string()
               : "<span class=\"warn\">\u26A0 " + std::to_string(a.warnings.size()) + "</span>";
}

std::size_t movingCount(const AssetReport& asset) {
    return static_cast<std::size_t>(std::count_if(asset.clips.begin(), asset.clips.end(), movesCharacter));
}

// The clips that move, then the idle and pose clips, each in file order.
std::vector<const ClipReport*> pageOrder(const AssetReport& asset) {
    std::vector<const ClipReport*> order;
    for (bool moving : {true, false})
        for (const ClipReport& c : asset.clips)
            if (movesCharacter(c) == moving) order.push_back(&c);
    return order;
}

// Per asset: a table of the clips that move, then the idle and pose clips folded
// into one short list (name, duration, and a flag where there is one).
void appendJumpList(std::string& out, const std::vector<AssetReport>& assets) {
    out += "<nav id=\"top\">\n<h2>Clips</h2>\n";
    for (std::size_t i = 0; i < assets.size(); ++i) {
        const AssetReport& asset = assets[i];
        const int index = static_cast<int>(i);
        out += "<h3><a href=\"#a" + std::to_string(i) + "\">" + escapeHtml(asset.label) + "</a></h3>\n";
        if (asset.clips.empty()) {
            out += "<p class=\"meta\">No animations.</p>\n";
            continue;
        }
        const auto moving = movingCount(asset);
        if (moving > 0) {
            out +=
                "<table class=\"jump\">\n<tr><th>clip</th><th>source</th><th class=\"n\">duration</th>"
                "<th class=\"n\">stride</th><th class=\"n\">turn</th><th class=\"n\">speed</th>"
                "<th class=\"n\">loop seam (of height)</th><th>warnings</th></tr>\n";
            for (const ClipReport& c : asset.clips) {
                if (!movesCharacter(c)) continue;
                const ClipAnalysis& a = c.analysis;
                out += "<tr><td>" + clipLink(index, c) + "</td><td>" + sourceName(a.source) +
                       "</td><td class=\"n\">" + seconds(a.duration) + "</td><td class=\"n\">" +
                       length(a.strideLength) + "</td><td class=\"n\">" + degrees(a.turn) +
                       "</td><td class=\"n\">" + speed(a.averageSpeed) + "</td><td class=\"n\">";
                out += seamAboveLoopGap(c.loop) ? "<span class=\"seam-flag\">\u26A0 " +
                                                      percent(c.loop.positionFraction) + "</span>"
                                                : percent(c.loop.positionFraction);
                out += "</td><td>" + warningCount(a) + "</td></tr>\n";
            }
            out += "</table>\n";
        } else {
            out += "<p class=\"meta\">No clip moves the character.</p>\n";
        }
        if (moving == asset.clips.size()) continue;
        out += "<p class=\"still\"><span class=\"still-head\">Idle and pose clips (" +
               std::to_string(asset.clips.size() - moving) + ", no travel, no turn):</span> ";
        bool first = true;
        for (const ClipReport& c : asset.clips) {
            if (movesCharacter(c)) continue;
            out += std::string(first ? "" : " \u00B7 ") + "<span class=\"still-clip\">" + clipLink(index, c) +
                   " " + seconds(c.analysis.duration);
            if (seamAboveLoopGap(c.loop))
                out += " <span class=\"seam-flag\">\u26A0 loop seam " + percent(c.loop.positionFraction) +
                       "</span>";
            if (!c.analysis.warnings.empty()) out += " " + warningCount(c.analysis);
            out += "</span>";
            first = false;
        }
        out += "</p>\n";
    }
    out += "</nav>\n";
}

}  // namespace

std::string writeReport(const std::vector<AssetReport>& assets, const ReportSettings& settings) {
    std::size_t clipCount = 0;
    for (const AssetReport& asset : assets) clipCount += asset.clips.size();
    std::string title = "Root motion report";
    if (!assets.empty()) title += ": " + assets.front().label;
    if (assets.size() > 1) title += " and " + std::to_string(assets.size() - 1) + " more";

    std::string out;
    out +=
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        "<meta name=\"generator\" content=\"" +
        escapeHtml(settings.generator) +
        "\"/>\n"
        "<title>" +
        escapeHtml(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    out += "<header>\n<h1>Root motion report</h1>\n<p class=\"meta\">" + escapeHtml(settings.generator) +
           " \u00B7 " + std::to_string(assets.size()) + (assets.size() == 1 ? " asset" : " assets") +
           " \u00B7 " + std::to_string(clipCount) + (clipCount == 1 ? " clip" : " clips") +
           "</p>\n<p class=\"meta\">Analysis: " + escapeHtml(optionsText(settings.options)) +
           ".</p>\n<p class=\"meta\">" + precisionNote() + " " + seamNote() + "</p>\n";
    appendJumpList(out, assets);
    out += "</header>\n<main>\n";
    for (std::size_t i = 0; i < assets.size(); ++i) {
        const AssetReport& asset = assets[i];
        const std::size_t moving = movingCount(asset);
        out += "<section class=\"asset\" id=\"a" + std::to_string(i) + "\">\n<h2>" + escapeHtml(asset.label) +
               "</h2>\n<p class=\"meta\">" + std::to_string(asset.clips.size()) +
               (asset.clips.size() == 1 ? " clip" : " clips") + ": " + std::to_string(moving) + " moving, " +
               std::to_string(asset.clips.size() - moving) + " idle or pose</p>\n";
        bool stillHeading = false;
        for (const ClipReport* c : pageOrder(asset)) {
            if (!movesCharacter(*c) && !stillHeading) {
                out += "<h3 class=\"group\">Idle and pose clips: no travel, no turn</h3>\n";
                stillHeading = true;
            }
            appendClip(out, static_cast<int>(i), *c);
        }
        out += "</section>\n";
    }
    out += "</main>\n</body>\n</html>\n";
    return out;
}

}  // namespace rootbake::report

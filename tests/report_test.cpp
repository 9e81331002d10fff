// The HTML report: well-formed markup (checked by a small XHTML-ish parser
// here), each clip's numbers and pictures in its section, the biped's
// closed-form footholds in the top view, every corpus asset, and the command.
#include "report/report.h"
#include "biped.h"
#include "gltf/asset.h"
#include "pipeline/bake.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>

#include <sys/wait.h>
#include <unistd.h>

using namespace rootbake;
namespace fs = std::filesystem;

namespace {

// ---- a well-formedness checker -------------------------------------------------------

struct Markup {
    std::string error;  // empty: well-formed
    std::vector<std::string> ids, hrefs;
    int elements = 0;
};

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ':';
}

// A character reference at text[i] ('&'): one of the five we write, or numeric.
bool isReference(std::string_view text, std::size_t i) {
    for (std::string_view named : {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"})
        if (text.substr(i, named.size()) == named) return true;
    if (text.substr(i, 2) != "&#") return false;
    std::size_t j = i + 2;
    const bool hex = j < text.size() && text[j] == 'x';
    if (hex) ++j;
    const std::size_t digits = j;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) ||
                               (hex && std::isxdigit(static_cast<unsigned char>(text[j])))))
        ++j;
    return j > digits && j < text.size() && text[j] == ';';
}

// Balanced tags, one root <html>, quoted attributes, escaped text and values,
// void elements closed with "/>", unique ids.
Markup checkMarkup(std::string_view html) {
    static const std::set<std::string> voids = {"meta",  "link", "br",   "hr",   "img",
                                                "input", "col",  "area", "base", "wbr"};
    Markup m;
    std::vector<std::string> open;
    std::set<std::string> seenIds;
    bool rootClosed = false;
    std::size_t i = 0;
    auto fail = [&](const std::string& what) {
        m.error = what + " at byte " + std::to_string(i) + ": \"" + std::string(html.substr(i, 60)) + "\"";
        return m;
    };
    if (html.substr(0, 15) == "<!DOCTYPE html>") i = 15;
    while (i < html.size()) {
        if (html[i] != '<') {
            if (html[i] == '>') return fail("raw '>' in text");
            if (html[i] == '&' && !isReference(html, i)) return fail("raw '&' in text");
            if (!std::isspace(static_cast<unsigned char>(html[i])) && (open.empty() || rootClosed))
                return fail("text outside the root element");
            ++i;
            continue;
        }
        if (html.substr(i, 4) == "<!--") {
            const std::size_t end = html.find("-->", i + 4);
            if (end == std::string_view::npos) return fail("unterminated comment");
            i = end + 3;
            continue;
        }
        const bool closing = html.substr(i, 2) == "</";
        std::size_t j = i + (closing ? 2 : 1);
        const std::size_t nameStart = j;
        while (j < html.size() && isNameChar(html[j])) ++j;
        const std::string name(html.substr(nameStart, j - nameStart));
        if (name.empty()) return fail("a tag without a name");
        if (closing) {
            if (j >= html.size() || html[j] != '>') return fail("junk in a closing tag");
            if (open.empty() || open.back() != name)
                return fail("</" + name + "> closes <" +
                            (open.empty() ? std::string("nothing") : open.back()) + ">");
            open.pop_back();
            if (open.empty()) rootClosed = true;
            i = j + 1;
            continue;
        }
        if (rootClosed || (open.empty() && name != "html")) return fail("an element outside <html>");
        ++m.elements;
        std::set<std::string> attributes;
        bool selfClosed = false;
        while (true) {
            const std::size_t before = j;
            while (j < html.size() && std::isspace(static_cast<unsigned char>(html[j]))) ++j;
            if (j >= html.size()) return fail("unterminated tag <" + name + ">");
            if (html[j] == '>') break;
            if (html.substr(j, 2) == "/>") {
                selfClosed = true;
                ++j;
                break;
            }
            if (j == before) return fail("attributes not separated by space in <" + name + ">");
            const std::size_t attrStart = j;
            while (j < html.size() && isNameChar(html[j])) ++j;
            const std::string attr(html.substr(attrStart, j - attrStart));
            if (attr.empty()) return fail("junk in <" + name + ">");
            if (!attributes.insert(attr).second)
                return fail("attribute " + attr + " twice in <" + name + ">");
            if (html.substr(j, 2) != "=\"")
                return fail("attribute " + attr + " of <" + name + "> not quoted");
            j += 2;
            const std::size_t valueStart = j;
            while (j < html.size() && html[j] != '"') {
                if (html[j] == '<') return fail("'<' in attribute " + attr);
                if (html[j] == '&' && !isReference(html, j)) return fail("raw '&' in attribute " + attr);
                ++j;
            }
            if (j >= html.size()) return fail("unterminated attribute " + attr);
            const std::string value(html.substr(valueStart, j - valueStart));
            if (attr == "id") {
                if (!seenIds.insert(value).second) return fail("id \"" + value + "\" twice");
                m.ids.push_back(value);
            }
            if (attr == "href") m.hrefs.push_back(value);
            ++j;  // the closing quote
        }
        const bool isVoid = voids.count(name) > 0;
        if (isVoid && !selfClosed) return fail("void element <" + name + "> not closed with />");
        if (!selfClosed) open.push_back(name);
        i = j + 1;
    }
    if (!open.empty()) return fail("<" + open.back() + "> never closed");
    if (!rootClosed) return fail("no root element");
    return m;
}

// The markup of one clip's section (clip sections hold no sections).
std::string clipSection(const std::string& html, const std::string& id) {
    const std::string start = "<section class=\"clip\" id=\"" + id + "\">";
    const std::size_t from = html.find(start);
    if (from == std::string::npos) return {};
    const std::size_t to = html.find("</section>", from);
    return html.substr(from, to - from);
}

std::size_t countOf(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

// The well-formedness, the links and the self-containment of a page.
void requireGoodPage(const std::string& html, const std::string& what) {
    CAPTURE(what);
    const Markup m = checkMarkup(html);
    REQUIRE_MESSAGE(m.error.empty(), m.error);
    const std::set<std::string> ids(m.ids.begin(), m.ids.end());
    for (const std::string& href : m.hrefs) {
        CAPTURE(href);
        REQUIRE(href.size() > 1);
        CHECK(href[0] == '#');  // links go to the page itself
        CHECK(ids.count(href.substr(1)) == 1);
    }
    // Nothing from the network, nothing to run.
    for (const char* banned :
         {"<script", "<link", "<img", "<iframe", " src=", "url(", "@import", "http:", "https:"})
        CHECK_MESSAGE(html.find(banned) == std::string::npos, banned);
}

// Every element <tag class="cls" ...>...</tag> of the page (no nesting of the same tag).
std::vector<std::string> elements(const std::string& html, const std::string& tag, const std::string& cls) {
    std::vector<std::string> out;
    const std::string start = "<" + tag + " class=\"" + cls + "\"", end = "</" + tag + ">";
    for (std::size_t at = html.find(start); at != std::string::npos; at = html.find(start, at + 1)) {
        const std::size_t to = html.find(end, at);
        if (to == std::string::npos) break;
        out.push_back(html.substr(at, to + end.size() - at));
    }
    return out;
}

// The text of some markup: tags left out, each replaced by a space.
std::string textOf(const std::string& markup) {
    std::string out;
    bool inTag = false;
    for (char c : markup) {
        if (c == '<') inTag = true;
        if (!inTag) out += c;
        if (c == '>') inTag = false, out += ' ';
    }
    return out;
}

// The page's one precision rule, on every figure of the clip list and the figures tables:
// three decimals for m, m/s and s, one for degrees and percentages, never an exponent.
void requireOnePrecision(const std::string& html) {
    const std::string deg = "\u00B0";
    static const std::regex figure(R"((^|[^\w.\-])(-?\d+(\.\d+)?)(e[-+]?\d+)? ?(m/s|m|s|)" + deg + "/s|" +
                                   deg + R"(|%)(?![\w/]))");
    std::vector<std::string> parts = elements(html, "table", "figures");
    for (const std::string& t : elements(html, "table", "jump")) parts.push_back(t);
    for (const std::string& p : elements(html, "p", "still")) parts.push_back(p);
    if (parts.empty()) return;  // an asset without animations
    int figures = 0;
    for (const std::string& part : parts) {
        const std::string text = textOf(part);
        for (auto m = std::sregex_iterator(text.begin(), text.end(), figure); m != std::sregex_iterator();
             ++m) {
            const std::string number = (*m)[2], unit = (*m)[5];
            CAPTURE(number + " " + unit);
            CHECK((*m)[4].length() == 0);  // no exponent
            const std::size_t decimals = (*m)[3].length() > 0 ? (*m)[3].length() - 1 : 0;
            const bool fine = unit == "m" || unit == "m/s" || unit == "s" ? decimals == 3 : decimals == 1;
            CHECK(fine);
            ++figures;
        }
    }
    CHECK(figures > 0);
}

// No two texts of a picture overlap (issue 33 item 8: "baked root" drawn over the "+X" of the
// compass). Each <text>'s box is reckoned from its font size and characters: 0.6 em a
// character (sans-serif's average), 1.1 times in bold, 0.8 em above the baseline and 0.2
// below; an svg's font-size is its texts' default.
void requireNoOverlappingText(const std::string& html) {
    struct Box {
        double x0, y0, x1, y1;
        std::string text;
    };
    static const std::regex svgTag(R"re(<svg [^>]*font-size="([0-9.]+)")re");
    static const std::regex textTag(R"re(<text([^>]*)>([^<]*)</text>)re");
    auto attribute = [](const std::string& attributes, const std::string& name,
                        const std::string& otherwise) {
        const std::size_t at = attributes.find(" " + name + "=\"");
        if (at == std::string::npos) return otherwise;
        const std::size_t from = at + name.size() + 3;
        return attributes.substr(from, attributes.find('"', from) - from);
    };
    for (std::size_t at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1)) {
        const std::string svg = html.substr(at, html.find("</svg>", at) - at);
        std::smatch m;
        REQUIRE(std::regex_search(svg, m, svgTag));
        const std::string base = m[1];
        std::vector<Box> boxes;
        for (auto t = std::sregex_iterator(svg.begin(), svg.end(), textTag); t != std::sregex_iterator();
             ++t) {
            const std::string attributes = (*t)[1], text = (*t)[2];
            const double x = std::stod(attribute(attributes, "x", "0")),
                         y = std::stod(attribute(attributes, "y", "0"));
            const double size = std::stod(attribute(attributes, "font-size", base));
            const std::string anchor = attribute(attributes, "text-anchor", "start");
            std::size_t characters = 0;
            for (std::size_t i = 0; i < text.size(); ++i) {
                if (text[i] == '&') i = text.find(';', i);  // one character reference
                characters += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
            }
            const double width = 0.6 * size * double(characters) *
                                 (attribute(attributes, "font-weight", "") == "bold" ? 1.1 : 1.0);
            const double x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
            boxes.push_back({x0, y - 0.8 * size, x0 + width, y + 0.2 * size, text});
        }
        for (std::size_t i = 0; i < boxes.size(); ++i)
            for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                const Box &a = boxes[i], &b = boxes[j];
                const bool overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
                CHECK_MESSAGE(!overlap, "\"" << a.text << "\" overlaps \"" << b.text << "\"");
            }
    }
}

// Each clip's section holds its pictures (a moving clip's speed, a turning
// clip's turn, a clip with contacts its timeline) and the figures as the
// table prints them, from an analysis made here.
void requireClipSections(const std::string& html, int asset, const gltf::Asset& input,
                         const std::vector<report::ClipReport>& clips) {
    REQUIRE(clips.size() == input.clips.size());
    for (std::size_t c = 0; c < clips.size(); ++c) {
        const Clip& clip = input.clips[c];
        CAPTURE(clip.name);
        const std::string section = clipSection(html, report::clipSectionId(asset, clip.gltfIndex));
        REQUIRE(!section.empty());
        auto a = analyzeClip(input.rig, clip, {});
        REQUIRE(a.ok());
        const bool moves = a->source != Source::None;
        CHECK(countOf(section, "<svg class=\"topview\"") == 1);
        CHECK(countOf(section, "<svg class=\"timeline\"") == (a->contacts.empty() ? 0u : 1u));
        CHECK(countOf(section, "<svg class=\"speed\"") == (moves ? 1u : 0u));
        CHECK(countOf(section, "<svg class=\"turn\"") == (a->extractsRotation ? 1u : 0u));
        CHECK((section.find("<th>Stride</th><td>" +
                            report::formatFixed(a->strideLength, report::kLengthDecimals) + " m</td>") !=
               std::string::npos) == moves);
        CHECK((section.find("<th>Average speed</th><td>" +
                            report::formatFixed(a->averageSpeed, report::kLengthDecimals) + " m/s</td>") !=
               std::string::npos) == moves);
        CHECK(section.find("<th>Duration</th><td>" + report::formatFixed(a->duration, report::kTimeDecimals) +
                           " s") != std::string::npos);
        // A seam flag exactly where the seam is above the loop-gap default.
        CHECK((section.find("seam-flag") != std::string::npos) ==
              (clips[c].loop.positionFraction > kLoopGapDefault));
        // The contact evidence row, for a clip whose travel the feet bear out.
        CHECK((section.find("<th>Contact evidence</th>") != std::string::npos) ==
              (a->source == Source::FootContact));
        CHECK(section.find("<span class=\"badge\">" + std::string(sourceName(a->source)) + "</span>") !=
              std::string::npos);
        CHECK(countOf(section, "<li>") >= 1);  // the decisions
        for (const std::string& w : a->warnings)
            CHECK(section.find("<li>" + report::escapeHtml(w) + "</li>") != std::string::npos);
    }
}

std::vector<report::ClipReport> describeAll(const gltf::Asset& asset) {
    std::vector<report::ClipReport> clips;
    for (const Clip& clip : asset.clips) {
        auto baked = pipeline::makeClipInPlace(asset.rig, clip, {});
        REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
        clips.push_back(report::describeClip(asset.rig, clip, *baked));
    }
    return clips;
}

const gltf::Asset& biped() {
    static const gltf::Asset asset = [] {
        const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
        auto loaded = gltf::loadAssetFromMemory(glb, "biped.glb", {});
        REQUIRE(loaded.ok());
        return std::move(loaded).value();
    }();
    return asset;
}

const std::vector<report::ClipReport>& bipedClips() {
    static const std::vector<report::ClipReport> clips = describeAll(biped());
    return clips;
}

const report::ClipReport& bipedClip(const std::string& name) {
    for (const report::ClipReport& c : bipedClips())
        if (c.name == name) return c;
    FAIL("no clip " << name);
    return bipedClips().front();
}

double horizontalExtent(const std::vector<glm::dvec3>& path) {
    double extent = 0.0;
    for (const glm::dvec3& p : path)
        for (const glm::dvec3& q : path) extent = std::max(extent, std::hypot(p.x - q.x, p.z - q.z));
    return extent;
}

}  // namespace

// ---- the checker itself ---------------------------------------------------------------

TEST_CASE("report: the markup checker accepts good pages and refuses broken ones") {
    CHECK(checkMarkup(
              "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/></head><body><p id=\"x\">a &amp; b</p>"
              "<svg><line x1=\"0\"/></svg></body></html>\n")
              .error.empty());
    for (const char* bad : {"<html><p></html>", "<html><p></b></p></html>", "<html><p class=x></p></html>",
                            "<html><p>a & b</p></html>", "<html><p>a > b</p></html>",
                            "<html><p title=\"a&b\"></p></html>", "<html><meta charset=\"utf-8\"></html>",
                            "<html></html><p></p>", "<html><p id=\"a\"></p><p id=\"a\"></p></html>",
                            "<html><p class=\"a\"class=\"b\"></p></html>", "<html>"}) {
        CAPTURE(bad);
        CHECK(!checkMarkup(bad).error.empty());
    }
}

TEST_CASE("report: numbers print in the C locale with the decimals of their unit") {
    CHECK(report::formatFixed(1.2, 3) == "1.200");
    CHECK(report::formatFixed(1.1693944, 3) == "1.169");
    CHECK(report::formatFixed(-0.0, 3) == "0.000");
    CHECK(report::formatFixed(-0.0004, 3) == "0.000");  // no "-0.000"
    CHECK(report::formatFixed(-0.0006, 3) == "-0.001");
    CHECK(report::formatFixed(45.000000001, 1) == "45.0");
    CHECK(report::formatFixed(14488.1, 3) == "14488.100");
    CHECK(report::formatFixed(3.2e-8, 3) == "0.000");  // never an exponent
    CHECK(report::formatFixed(1e20, 1) == "100000000000000000000.0");
    CHECK(report::formatTick(0.30000000000000004, 0.1) == "0.3");
    CHECK(report::formatTick(0.15, 0.05) == "0.15");
    CHECK(report::formatTick(40, 20) == "40");
    CHECK(report::escapeHtml("<a & \"b\" 'c'>") == "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;");
}

// ---- the biped ---------------------------------------------------------------------------

TEST_CASE("report: the biped's page is well-formed and each clip's section holds its numbers and pictures") {
    const std::string html = report::writeReport({{"biped.glb", bipedClips()}}, {});
    requireGoodPage(html, "biped.glb");
    requireClipSections(html, 0, biped(), bipedClips());
    requireOnePrecision(html);
    CHECK(countOf(html, "<section class=\"asset\"") == 1);

    // Closed-form figures (samples/README.md), as the table prints them.
    auto section = [&](const char* name) {
        for (const Clip& c : biped().clips)
            if (c.name == name) return clipSection(html, report::clipSectionId(0, c.gltfIndex));
        return std::string();
    };
    CHECK(section("walk").find("<th>Stride</th><td>1.200 m</td>") != std::string::npos);
    CHECK(section("walk").find("<th>Average speed</th><td>1.200 m/s</td>") != std::string::npos);
    CHECK(section("walk").find("<th>Direction of travel</th><td>+Z</td>") != std::string::npos);
    CHECK(section("strafe").find("<th>Stride</th><td>0.500 m</td>") != std::string::npos);
    CHECK(section("turn_walk").find("<th>Turn</th><td>45.0\u00B0 per cycle, extracted</td>") !=
          std::string::npos);
    CHECK(section("turn_spot").find("<th>Turn</th><td>90.0\u00B0 per cycle, extracted</td>") !=
          std::string::npos);
    CHECK(section("idle").find("<span class=\"badge\">none</span>") != std::string::npos);

    // The gait, in the clips whose travel comes from the feet: both toes have lanes; only the run has a
    // flight.
    for (const std::string name : {"walk_inplace", "run_inplace"}) {
        CAPTURE(name);
        const std::string s = section(name.c_str());
        CHECK(s.find(">LeftFoot</text>") != std::string::npos);
        CHECK(s.find(">RightFoot</text>") != std::string::npos);
        CHECK((s.find("flight: no contact planted") != std::string::npos) == (name == "run_inplace"));
    }
    // The jump list links to every clip.
    for (const Clip& c : biped().clips)
        CHECK(html.find("<a href=\"#" + report::clipSectionId(0, c.gltfIndex) + "\">" + c.name + "</a>") !=
              std::string::npos);
}

TEST_CASE("report: the biped's top view has the closed-form footholds and a baked root that stays put") {
    // Walk: the source root travels 1.2 m, the baked one only sways.
    const report::ClipReport& walk = bipedClip("walk");
    CHECK(horizontalExtent(walk.sourceRootPath) == doctest::Approx(1.2).epsilon(0.01));
    CHECK(horizontalExtent(walk.bakedRootPath) < 0.1);
    CHECK(walk.lanes.empty());  // a root clip: the analysis read no contacts
    CHECK(walk.marks.empty());
    // Footholds as the baked walk plays with its motion: the soles' centres (samples/README.md: the
    // foot is flat when planted, its box's underside runs from the ankle - 0.03 to + 0.17 along +Z,
    // so its centre is the ankle + 0.07).
    for (const std::string name : {"walk_inplace"}) {
        const report::ClipReport& c = bipedClip(name);
        CAPTURE(name);
        auto mark = [&](const std::string& lane, double from, double to) {
            const auto m =
                std::find_if(c.marks.begin(), c.marks.end(), [&](const report::PlantedMark& candidate) {
                    return c.lanes[candidate.lane].label == lane && candidate.start >= from &&
                           candidate.start <= to;
                });
            REQUIRE_MESSAGE(m != c.marks.end(), lane << " planted from " << from << " to " << to << " s");
            return *m;
        };
        struct Foothold {
            const char* lane;
            double from, to, x, z;  // the interval's start (s) between from and to
        } expected[] = {{"LeftFoot", 0.0, 0.0, 0.09, 0.43},
                        {"RightFoot", 0.0, 0.0, -0.09, -0.17},
                        {"RightFoot", 0.4, 0.5, -0.09, 1.03}};
        for (const Foothold& f : expected) {
            CAPTURE(f.lane);
            CAPTURE(f.from);
            const report::PlantedMark m = mark(f.lane, f.from, f.to);
            CHECK(std::abs(m.foothold.x - f.x) < 0.005);
            CHECK(std::abs(m.foothold.z - f.z) < 0.005);
        }
        // The stances of the closed form (samples/README.md: left 0-0.6 s, right from 0.5 s on,
        // duty 0.6), and no more: the left foot coming down from 0.95 s is not planted yet.
        CHECK(c.marks.size() == 3);
    }
    // Where the intervals match the closed form, a planted toe stays put (<= 3.7 mm for the run).
    for (const report::PlantedMark& m : bipedClip("run_inplace").marks) CHECK(m.slip < 0.004);
    // Turn on the spot: the root stays at the origin in both clips.
    CHECK(horizontalExtent(bipedClip("turn_spot").bakedRootPath) < 0.05);
}

TEST_CASE("report: the same descriptions give the same bytes, names are escaped") {
    const report::ReportSettings settings;
    CHECK(report::writeReport({{"biped.glb", bipedClips()}}, settings) ==
          report::writeReport({{"biped.glb", describeAll(biped())}}, settings));

    std::vector<report::ClipReport> clips = {bipedClip("walk")};
    clips[0].name = "<walk & \"run\">";
    const std::string html = report::writeReport({{"a&b <c>.glb", clips}}, settings);
    requireGoodPage(html, "escaped names");
    CHECK(html.find("&lt;walk &amp; &quot;run&quot;&gt;") != std::string::npos);
    CHECK(html.find("a&amp;b &lt;c&gt;.glb") != std::string::npos);
    CHECK(html.find("<walk") == std::string::npos);
}

// ---- what an animator reads first (issue 18, item 14) ------------------------------------

namespace {

// Where a clip's section starts in the page; npos when it has none.
std::size_t sectionAt(const std::string& html, int asset, const report::ClipReport& c) {
    return html.find("<section class=\"clip\" id=\"" + report::clipSectionId(asset, c.animationIndex) +
                     "\">");
}

std::string linkTo(int asset, const report::ClipReport& c) {
    return "<a href=\"#" + report::clipSectionId(asset, c.animationIndex) + "\">";
}

}  // namespace

TEST_CASE("report: the clips that move come first, idle and pose clips are folded into a short list") {
    // The idle first in the file, as in Xbot.glb (agree, headShake, idle, run, ...).
    const std::vector<report::ClipReport> clips = {bipedClip("idle"), bipedClip("walk"),
                                                   bipedClip("turn_spot"), bipedClip("walk_inplace")};
    const std::string html = report::writeReport({{"biped.glb", clips}}, {});
    requireGoodPage(html, "idle first");
    const report::ClipReport& idle = clips[0];
    REQUIRE(!report::movesCharacter(idle));
    for (const report::ClipReport& c : clips) {
        CAPTURE(c.name);
        REQUIRE(sectionAt(html, 0, c) != std::string::npos);
        if (report::movesCharacter(c)) CHECK(sectionAt(html, 0, c) < sectionAt(html, 0, idle));
    }
    // The list: a table row per moving clip, in file order; the idle in the short list after it.
    const std::vector<std::string> tables = elements(html, "table", "jump"),
                                   still = elements(html, "p", "still");
    REQUIRE(tables.size() == 1);
    REQUIRE(still.size() == 1);
    CHECK(tables[0].find(linkTo(0, idle)) == std::string::npos);
    CHECK(still[0].find(linkTo(0, idle)) != std::string::npos);
    CHECK(tables[0].find(linkTo(0, clips[1])) < tables[0].find(linkTo(0, clips[2])));
    CHECK(tables[0].find(linkTo(0, clips[2])) < tables[0].find(linkTo(0, clips[3])));
    for (std::size_t i = 1; i < clips.size(); ++i)
        CHECK(still[0].find(linkTo(0, clips[i])) == std::string::npos);
    CHECK(html.find("<nav") < html.find(still[0]));
    CHECK(html.find(still[0]) < html.find("</nav>"));
    // An idle clip's section: no travel figures, no speed over time (its track is zero).
    const std::string idleSection = clipSection(html, report::clipSectionId(0, idle.animationIndex));
    CHECK(idleSection.find("<th>Stride</th>") == std::string::npos);
    CHECK(idleSection.find("<svg class=\"speed\"") == std::string::npos);
    CHECK(idleSection.find("<svg class=\"topview\"") != std::string::npos);

    // An asset with only moving clips has no short list; one with none, no table.
    CHECK(elements(report::writeReport({{"walk.glb", {bipedClip("walk")}}}, {}), "p", "still").empty());
    const std::string idleOnly = report::writeReport({{"idle.glb", {bipedClip("idle")}}}, {});
    CHECK(elements(idleOnly, "table", "jump").empty());
    CHECK(elements(idleOnly, "p", "still").size() == 1);
}

TEST_CASE("report: a loop seam is flagged exactly when it is above the loop-gap default") {
    const double height = bipedClip("walk").analysis.characterHeight;
    std::vector<report::ClipReport> clips;
    for (double fraction : {0.0, 0.0199, kLoopGapDefault, 0.0201, 0.5}) {
        report::ClipReport c = bipedClip(fraction < 0.3 ? "walk" : "idle");
        c.animationIndex = static_cast<int>(clips.size());
        c.name = "seam " + std::to_string(fraction);
        c.loop.positionFraction = fraction;
        c.loop.position = fraction * height;
        clips.push_back(std::move(c));
    }
    const std::string html = report::writeReport({{"biped.glb", clips}}, {});
    requireGoodPage(html, "seams");
    std::string list;
    for (const std::string& part : elements(html, "table", "jump")) list += part;
    for (const std::string& part : elements(html, "p", "still")) list += part;
    for (const report::ClipReport& c : clips) {
        CAPTURE(c.loop.positionFraction);
        const bool above = c.loop.positionFraction > kLoopGapDefault;
        const std::string section = clipSection(html, report::clipSectionId(0, c.animationIndex));
        CHECK((section.find("<tr class=\"flagged\"><th>Loop seam</th>") != std::string::npos) == above);
        CHECK((section.find("seam-flag") != std::string::npos) == above);
        // In the list, the flag follows the clip's link (in its table row, or its entry of the short list).
        const std::size_t at = list.find(linkTo(0, c));
        REQUIRE(at != std::string::npos);
        const std::size_t next = std::min(list.find("</tr>", at), list.find("still-clip", at));
        CHECK((list.substr(at, next - at).find("seam-flag") != std::string::npos) == above);
    }
    // The page says what the flag means.
    CHECK(html.find("the default of --fail-on loop-gap") != std::string::npos);
}

TEST_CASE("report: the top view names each axis by where it grows") {
    const std::string html = report::writeReport({{"biped.glb", {bipedClip("walk")}}}, {});
    const std::vector<std::string> views = elements(html, "svg", "topview");
    REQUIRE(views.size() == 1);
    // Seen from above with +Y up and +Z up the page, +X points to the left: an arrow named "+X"
    // pointing left, not one named "-X" pointing right.
    CHECK(views[0].find("\u2212X") == std::string::npos);
    CHECK(views[0].find("\u2212Z") == std::string::npos);
    CHECK(views[0].find("<title>the +X axis</title>") != std::string::npos);
    CHECK(views[0].find("<title>the +Z axis</title>") != std::string::npos);
    CHECK(views[0].find("+X to the left, +Z up the page") != std::string::npos);
    // The +X arrow's head lies left of its start.
    const std::size_t x = views[0].find("<title>the +X axis</title>");
    const std::regex line("<line x1=\"([-0-9.]+)\" y1=\"[-0-9.]+\" x2=\"([-0-9.]+)\"");
    std::smatch m;
    const std::string group = views[0].substr(x, views[0].find("</g>", x) - x);
    REQUIRE(std::regex_search(group, m, line));
    CHECK(std::stod(m[2]) < std::stod(m[1]));
}

TEST_CASE("report: no two texts of a picture overlap, wherever the baked root lands") {
    // The biped's pictures as they are, then with the baked root's box in each corner of the top
    // view: beside the compass (top right), under the scale bar (bottom left).
    requireNoOverlappingText(report::writeReport({{"biped.glb", bipedClips()}}, {}));
    for (const glm::dvec3 corner :
         {glm::dvec3(-3, 0, 3), glm::dvec3(3, 0, 3), glm::dvec3(3, 0, -3), glm::dvec3(-3, 0, -3),
          glm::dvec3(-2.6, 0, 2.8), glm::dvec3(-2.8, 0, 2.4)}) {
        CAPTURE(corner.x);
        CAPTURE(corner.z);
        report::ClipReport moved = bipedClip("walk");
        // The frame holds every path: the source root spans the corners, the baked one sits in one.
        moved.sourceRootPath = {glm::dvec3(-3, 0, -3), glm::dvec3(3, 0, 3)};
        for (glm::dvec3& p : moved.bakedRootPath) p = corner + 0.02 * (p - moved.bakedRootPath.front());
        requireNoOverlappingText(report::writeReport({{"biped.glb", {moved}}}, {}));
    }
}

TEST_CASE("report: no planted lanes for a clip without contacts") {
    const std::string html = report::writeReport({{"biped.glb", bipedClips()}}, {});
    for (const report::ClipReport& c : bipedClips()) {
        CAPTURE(c.name);
        const std::string section = clipSection(html, report::clipSectionId(0, c.animationIndex));
        const bool contacts = !c.analysis.contacts.empty();
        CHECK(contacts == (c.analysis.source == Source::FootContact));
        CHECK(c.lanes.size() == c.analysis.contacts.size());
        CHECK((section.find("<svg class=\"timeline\"") != std::string::npos) == contacts);
        CHECK((section.find("Contact timeline") != std::string::npos) == contacts);
        CHECK((section.find(">LeftFoot</text>") != std::string::npos) == contacts);
        if (!contacts) {
            CHECK(c.marks.empty());  // no footholds in the top view either
            CHECK(section.find("<th>Contacts</th><td>none") != std::string::npos);
        }
    }
    CHECK(bipedClip("walk").analysis.contacts.empty());  // a root clip: the case the issue met
}

// ---- the corpus ---------------------------------------------------------------------------

TEST_CASE("report: every corpus asset gives a well-formed page with each clip's numbers and pictures") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(shared / "corpus")) {
        const fs::path rel = e.path().lexically_relative(shared / "corpus");
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".glb" || ext == ".gltf") && *rel.begin() != "bad")
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    std::vector<report::AssetReport> batch;
    int clipsSeen = 0;
    for (const fs::path& file : files) {
        const std::string label = file.lexically_relative(shared / "corpus").generic_string();
        CAPTURE(label);
        auto asset = gltf::loadAsset(file);
        REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
        std::vector<report::ClipReport> clips = describeAll(*asset);
        const std::string html = report::writeReport({{label, clips}}, {});
        requireGoodPage(html, label);
        requireClipSections(html, 0, *asset, clips);
        requireOnePrecision(html);
        requireNoOverlappingText(html);
        clipsSeen += static_cast<int>(clips.size());
        if (batch.size() < 3) batch.push_back({label, std::move(clips)});
    }
    MESSAGE(files.size() << " corpus assets, " << clipsSeen << " clips");

    // A batch: one section per asset, each clip's id under its asset.
    const std::string html = report::writeReport(batch, {});
    requireGoodPage(html, "batch");
    CHECK(countOf(html, "<section class=\"asset\"") == batch.size());
    for (std::size_t a = 0; a < batch.size(); ++a)
        for (const report::ClipReport& c : batch[a].clips)
            CHECK(!clipSection(html, report::clipSectionId(static_cast<int>(a), c.animationIndex)).empty());
}

// ---- the command -------------------------------------------------------------------------

namespace {

using Run = rootbake::test::Exit;

Run runRootbake(const std::string& args) {
    return rootbake::test::runExe(args);
}

using rootbake::test::readText;

// A fresh folder for the command's files.
struct Folder : rootbake::test::TempDir {
    Folder() : TempDir("report") {}
};

using rootbake::test::q;

}  // namespace

TEST_CASE("report: the command writes one deterministic page, with no absolute path in it") {
    Folder dir;
    const fs::path glb = dir.path / "biped.glb";
    {
        const std::vector<std::uint8_t> bytes = samples::toGlb(samples::makeBiped());
        std::ofstream(glb, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    const fs::path page = dir.path / "report.html";
    const Run run = runRootbake("report " + q(glb) + " " + q(glb) + " -o " + q(page));
    REQUIRE_MESSAGE(run.code == 0, run.output);
    CHECK(run.output.find("14 clips of 2 assets") != std::string::npos);
    const std::string html = readText(page);
    requireGoodPage(html, "command");
    CHECK(html.find(dir.path.string()) == std::string::npos);  // the absolute input is named by its file name
    CHECK(countOf(html, "<section class=\"asset\"") == 2);
    CHECK(html.find("<meta name=\"generator\" content=\"rootbake ") != std::string::npos);

    // The same again, byte for byte; an existing page needs --force.
    const Run again = runRootbake("report " + q(glb) + " " + q(glb) + " -o " + q(page));
    CHECK(again.code == 3);
    CHECK(readText(page) == html);
    CHECK(runRootbake("report " + q(glb) + " " + q(glb) + " -o " + q(page) + " --force").code == 0);
    CHECK(readText(page) == html);
}

TEST_CASE("report: a failed run writes nothing") {
    Folder dir;
    const fs::path glb = dir.path / "biped.glb";
    const std::vector<std::uint8_t> bytes = samples::toGlb(samples::makeBiped());
    std::ofstream(glb, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const fs::path page = dir.path / "report.html";

    struct Case {
        std::string args;
        int code;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"report " + q(dir.path / "missing.glb") + " -o " + q(page), 2, "missing.glb"},
        {"report " + q(glb) + " " + q(dir.path / "missing.glb") + " -o " + q(page), 2, "missing.glb"},
        {"report " + q(glb) + " --root Nope -o " + q(page), 2, "root node \"Nope\" is not in the asset"},
        {"report " + q(glb) + " --up-axis sideways -o " + q(page), 1, "--up-axis"},
        {"report " + q(glb) + " -o " + q(dir.path / "missing" / "report.html"), 3, ""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const Run run = runRootbake(c.args);
        CHECK(run.code == c.code);
        CHECK(run.output.find(c.message) != std::string::npos);
        CHECK(!fs::exists(page));
    }
    // The output is the input: refused, the input left as it was.
    const Run onto = runRootbake("report " + q(glb) + " -o " + q(glb) + " --force");
    CHECK(onto.code == 1);
    CHECK(fs::file_size(glb) == bytes.size());
    std::vector<fs::path> left;
    for (const auto& e : fs::directory_iterator(dir.path)) left.push_back(e.path().filename());
    CHECK(left == std::vector<fs::path>{"biped.glb"});  // no temporary files either
}

TEST_CASE("report: bake --report writes the page beside the baked asset") {
    const fs::path biped = fs::path(ROOTBAKE_EXE).parent_path() / "samples" / "biped.glb";
    REQUIRE(fs::exists(biped));
    const fs::path dir = fs::temp_directory_path() / "rootbake-bake-report";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const rootbake::test::Exit run = rootbake::test::runExe(
        "bake " + rootbake::test::q(biped) + " -o " + rootbake::test::q(dir / "biped.glb") + " --report " +
        rootbake::test::q(dir / "biped.html"));
    CHECK(run.code == 0);
    std::ifstream in(dir / "biped.html");
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(page.find("run_inplace") != std::string::npos);
    CHECK(fs::exists(dir / "biped.rootmotion.json"));
    fs::remove_all(dir);
}

// The HTML report: well-formed markup (checked by a small XHTML-ish parser
// here), each clip's numbers and pictures in its section, the biped's
// closed-form footholds in the top view, every corpus asset, and the command.
#include "biped.h"
#include "gltf/asset.h"
#include "report/report.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
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
    static const std::set<std::string> voids = {"meta", "link", "br", "hr", "img", "input", "col", "area", "base", "wbr"};
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
                return fail("</" + name + "> closes <" + (open.empty() ? std::string("nothing") : open.back()) + ">");
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
            if (!attributes.insert(attr).second) return fail("attribute " + attr + " twice in <" + name + ">");
            if (html.substr(j, 2) != "=\"") return fail("attribute " + attr + " of <" + name + "> not quoted");
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
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
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
    for (const char* banned : {"<script", "<link", "<img", "<iframe", " src=", "url(", "@import", "http:", "https:"})
        CHECK_MESSAGE(html.find(banned) == std::string::npos, banned);
}

// Each clip's section holds its three pictures (four when it turns) and the
// figures as the table prints them, from an analysis made here.
void requireClipSections(const std::string& html, int asset, const Asset& input,
                         const std::vector<report::ClipReport>& clips) {
    REQUIRE(clips.size() == input.clips.size());
    for (std::size_t c = 0; c < clips.size(); ++c) {
        const Clip& clip = input.clips[c];
        CAPTURE(clip.name);
        const std::string section = clipSection(html, report::clipSectionId(asset, clip.gltfIndex));
        REQUIRE(!section.empty());
        auto a = analyzeClip(input.rig, clip, {});
        REQUIRE(a.ok());
        CHECK(countOf(section, "<svg class=\"topview\"") == 1);
        CHECK(countOf(section, "<svg class=\"timeline\"") == 1);
        CHECK(countOf(section, "<svg class=\"speed\"") == 1);
        CHECK(countOf(section, "<svg class=\"turn\"") == (a->extractsRotation ? 1u : 0u));
        CHECK(section.find("<th>Stride</th><td>" + report::formatNumber(a->strideLength, report::kLengthResolution) + " m</td>") !=
              std::string::npos);
        CHECK(section.find("<th>Average speed</th><td>" + report::formatNumber(a->averageSpeed, report::kLengthResolution) +
                                  " m/s</td>") !=
              std::string::npos);
        CHECK(section.find("<th>Duration</th><td>" + report::formatNumber(a->duration) + " s") != std::string::npos);
        CHECK(section.find("<span class=\"badge\">" + std::string(sourceName(a->source)) + "</span>") !=
              std::string::npos);
        CHECK(countOf(section, "<li>") >= 1);  // the decisions
        for (const std::string& w : a->warnings)
            CHECK(section.find("<li>" + report::escapeHtml(w) + "</li>") != std::string::npos);
    }
}

std::vector<report::ClipReport> describeAll(const Asset& asset) {
    std::vector<report::ClipReport> clips;
    for (const Clip& clip : asset.clips) {
        auto described = report::describeClip(asset.rig, clip, {});
        REQUIRE_MESSAGE(described.ok(), (described.ok() ? "" : described.error().message));
        clips.push_back(std::move(*described));
    }
    return clips;
}

const Asset& biped() {
    static const Asset asset = [] {
        const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
        auto loaded = loadAssetFromMemory(glb, "biped.glb", {});
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
    CHECK(checkMarkup("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/></head><body><p id=\"x\">a &amp; b</p>"
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

TEST_CASE("report: numbers print in the C locale with four significant digits") {
    CHECK(report::formatNumber(1.2) == "1.2");
    CHECK(report::formatNumber(1.1693944) == "1.169");
    CHECK(report::formatNumber(-0.0) == "0");
    CHECK(report::formatNumber(45.000000001) == "45");
    CHECK(report::formatNumber(0.000123456) == "0.0001235");
    CHECK(report::formatNumber(14488.1) == "14488");
    CHECK(report::formatNumber(3.2e-8) == "3.2e-08");
    CHECK(report::escapeHtml("<a & \"b\" 'c'>") == "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;");
}

// ---- the biped ---------------------------------------------------------------------------

TEST_CASE("report: the biped's page is well-formed and each clip's section holds its numbers and pictures") {
    const std::string html = report::writeReport({{"biped.glb", bipedClips()}}, {});
    requireGoodPage(html, "biped.glb");
    requireClipSections(html, 0, biped(), bipedClips());
    CHECK(countOf(html, "<section class=\"asset\"") == 1);

    // Closed-form figures (samples/README.md), as the table prints them.
    auto section = [&](const char* name) {
        for (const Clip& c : biped().clips)
            if (c.name == name) return clipSection(html, report::clipSectionId(0, c.gltfIndex));
        return std::string();
    };
    CHECK(section("walk").find("<th>Stride</th><td>1.2 m</td>") != std::string::npos);
    CHECK(section("walk").find("<th>Average speed</th><td>1.2 m/s</td>") != std::string::npos);
    CHECK(section("strafe").find("<th>Stride</th><td>0.5 m</td>") != std::string::npos);
    CHECK(section("turn_walk").find("<th>Turn</th><td>45\u00B0 per cycle, extracted</td>") != std::string::npos);
    CHECK(section("turn_spot").find("<th>Turn</th><td>90\u00B0 per cycle, extracted</td>") != std::string::npos);
    CHECK(section("idle").find("<span class=\"badge\">none</span>") != std::string::npos);

    // The gait: both toes have lanes in every clip; only the run has a flight.
    for (const std::string name : {"walk", "walk_inplace", "run_inplace", "turn_walk", "strafe", "idle"}) {
        CAPTURE(name);
        const std::string s = section(name.c_str());
        CHECK(s.find(">LeftToe</text>") != std::string::npos);
        CHECK(s.find(">RightToe</text>") != std::string::npos);
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
    CHECK(!walk.lanesFromAnalysis);  // a root clip: lanes from a contact-only analysis
    // Footholds as the baked walk plays with its motion (samples/README.md: toe = ankle + 0.14 along +Z).
    for (const std::string name : {"walk", "walk_inplace"}) {
        const report::ClipReport& c = bipedClip(name);
        CAPTURE(name);
        auto mark = [&](const std::string& lane, double from, double to) {
            const auto m = std::find_if(c.marks.begin(), c.marks.end(), [&](const report::PlantedMark& candidate) {
                return c.lanes[candidate.lane].label == lane && candidate.start >= from && candidate.start <= to;
            });
            REQUIRE_MESSAGE(m != c.marks.end(), lane << " planted from " << from << " to " << to << " s");
            return *m;
        };
        struct Foothold {
            const char* lane;
            double from, to, x, z;  // the interval's start (s) between from and to
        } expected[] = {{"LeftToe", 0.0, 0.0, 0.09, 0.50},   {"LeftToe", 0.9, 1.0, 0.09, 1.70},
                        {"RightToe", 0.0, 0.0, -0.09, -0.10}, {"RightToe", 0.4, 0.5, -0.09, 1.10}};
        for (const Foothold& f : expected) {
            CAPTURE(f.lane);
            CAPTURE(f.from);
            const report::PlantedMark m = mark(f.lane, f.from, f.to);
            CHECK(std::abs(m.foothold.x - f.x) < 0.005);
            CHECK(std::abs(m.foothold.z - f.z) < 0.005);
        }
        CHECK(c.marks.size() == 4);
    }
    // Where the intervals match the closed form, a planted toe stays put (<= 3.7 mm for the run).
    for (const report::PlantedMark& m : bipedClip("run_inplace").marks) CHECK(m.slip < 0.004);
    for (const report::PlantedMark& m : bipedClip("idle").marks) CHECK(m.slip < 0.001);
    CHECK(bipedClip("walk_inplace").lanesFromAnalysis);
    // Turn on the spot: the root stays at the origin in both clips.
    CHECK(horizontalExtent(bipedClip("turn_spot").bakedRootPath) < 0.05);
}

TEST_CASE("report: the same descriptions give the same bytes; names are escaped") {
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

// ---- the corpus ---------------------------------------------------------------------------

TEST_CASE("report: every corpus asset gives a well-formed page with each clip's numbers and pictures") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(shared / "corpus")) {
        const fs::path rel = e.path().lexically_relative(shared / "corpus");
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".glb" || ext == ".gltf") && *rel.begin() != "bad") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    std::vector<report::AssetReport> batch;
    int clipsSeen = 0;
    for (const fs::path& file : files) {
        const std::string label = file.lexically_relative(shared / "corpus").generic_string();
        CAPTURE(label);
        auto asset = loadAsset(file);
        REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
        std::vector<report::ClipReport> clips = describeAll(*asset);
        const std::string html = report::writeReport({{label, clips}}, {});
        requireGoodPage(html, label);
        requireClipSections(html, 0, *asset, clips);
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

Run runRootbake(const std::string& args) { return rootbake::test::runExe(args); }

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
    const rootbake::test::Exit run = rootbake::test::runExe("bake " + rootbake::test::q(biped) + " -o " +
                                                            rootbake::test::q(dir / "biped.glb") + " --report " +
                                                            rootbake::test::q(dir / "biped.html"));
    CHECK(run.code == 0);
    std::ifstream in(dir / "biped.html");
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(page.find("run_inplace") != std::string::npos);
    CHECK(fs::exists(dir / "biped.rootmotion.json"));
    fs::remove_all(dir);
}

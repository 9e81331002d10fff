// Inputs, configs, limits and the ordered parallel runner shared by bake, inspect,
// check and info.
#include "cli/run.h"

#include "pipeline/pipeline.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

namespace rootbake::cli {

namespace fs = std::filesystem;

namespace {

// What a folder's listing takes: glTF files, and VRM animations (.vrma, GLB files).
bool isGltf(const fs::path& file) {
    const std::string ext = lowerAscii(file.extension().string());
    return ext == ".glb" || ext == ".gltf" || ext == ".vrma";
}

bool sameOrInside(const fs::path& path, const fs::path& folder) {
    if (folder.empty()) return false;
    std::error_code error;
    const fs::path a = fs::weakly_canonical(path, error), b = fs::weakly_canonical(folder, error);
    auto [end, _] = std::mismatch(b.begin(), b.end(), a.begin(), a.end());
    return end == b.end();
}

// The files of one folder argument, sorted by path (byte order: the same on every machine).
int collectFolder(const fs::path& folder, bool recursive, const fs::path& skip, std::vector<InputFile>& out) {
    std::vector<fs::path> found;
    std::error_code error;
    auto add = [&](const fs::directory_entry& entry) {
        if (entry.is_regular_file(error) && isGltf(entry.path())) found.push_back(entry.path());
    };
    if (recursive) {
        fs::recursive_directory_iterator it(folder, error), end;
        for (; !error && it != end; it.increment(error)) {
            if (it->is_directory(error) && sameOrInside(it->path(), skip)) {
                it.disable_recursion_pending();  // the outputs of an earlier run
                continue;
            }
            add(*it);
        }
    } else {
        fs::directory_iterator it(folder, error), end;
        for (; !error && it != end; it.increment(error)) add(*it);
    }
    if (error) {
        std::fputs(errorLine(folder.string() + ": cannot list the folder: " + error.message()).c_str(),
                   stderr);
        return kBadInput;
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& file : found) out.push_back({file, file.lexically_relative(folder), nullptr});
    return kOk;
}

// The terminal's width: the window's, else $COLUMNS, else 80.
std::size_t terminalColumns() {
    winsize size{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        const long n = std::atol(columns);
        if (n > 0) return std::size_t(n);
    }
    return 80;
}

// "[3/200] art/chars/walk.glb", the path's start cut ("...s/walk.glb") to fit one line of
// `columns`: a line longer than the terminal wraps, and \r then clears only its last row.
std::string progressLine(std::size_t done, std::size_t count, const std::string& path, std::size_t columns) {
    const std::string prefix = "[" + std::to_string(done) + "/" + std::to_string(count) + "] ";
    const std::size_t room = columns > prefix.size() + 4 ? columns - 1 - prefix.size() : 3;
    return prefix + (path.size() <= room ? path : "..." + path.substr(path.size() - (room - 3)));
}

}  // namespace

std::string withLimitHint(std::string message) {
    // "... more than maxNodes (1048576)", or "... more than 8 x maxSamples (33554432)" for a
    // bound derived from a limit: the flag that raises it, once.
    if (message.find("; raise it with --limit ") != std::string::npos) return message;
    for (std::size_t at = message.find("more than "); at != std::string::npos;
         at = message.find("more than ", at + 1)) {
        std::size_t name = at + 10;
        std::size_t digits = name;
        while (digits < message.size() && std::isdigit(static_cast<unsigned char>(message[digits]))) ++digits;
        if (digits > name && message.compare(digits, 3, " x ") == 0) name = digits + 3;
        if (message.compare(name, 3, "max") != 0) continue;
        std::size_t end = name;
        while (end < message.size() && std::isalpha(static_cast<unsigned char>(message[end]))) ++end;
        return message + "; raise it with --limit " + message.substr(name, end - name) + "=N";
    }
    return message;
}

// Messages quote names from files: messageLine keeps each on its one line.
std::string errorLine(const std::string& message) {
    return messageLine("error", withLimitHint(message));
}

int prepareRun(const CommonArgs& args, RunContext& run, const fs::path& skip) {
    run.args = args;
    std::string error;
    for (const std::string& limit : args.limits)
        if (!parseLimit(limit, run.limits, error)) return printError(error), kUsage;
    if (!args.failOn.empty() && !parseGates(args.failOn, run.gates, error)) return printError(error), kUsage;
    if (args.jobs < 0)
        return printError("-j: expected a number of jobs, 1 or more (0: the machine's cores)"), kUsage;

    for (const std::string& given : args.inputs) {
        std::error_code status;
        const fs::path path(given);
        if (fs::is_directory(path, status)) {
            if (int code = collectFolder(path, args.recursive, skip, run.inputs); code != kOk) return code;
        } else if (fs::exists(path, status)) {
            run.inputs.push_back({path, path.filename(), nullptr});
        } else {
            printError(given + ": no such file or folder");
            return kBadInput;
        }
    }
    if (run.inputs.empty()) {
        printError("no .glb, .gltf or .vrma files in " + args.inputs.front() +
                   (args.recursive ? "" : " (--recursive walks subfolders)"));
        return kBadInput;
    }

    // One config for all (--config), or each input's nearest rootbake.json, each read once.
    for (InputFile& input : run.inputs) {
        const std::string path = !args.config.empty() ? args.config : findConfig(input.path).string();
        if (path.empty()) continue;
        auto it = run.configs.find(path);
        if (it == run.configs.end()) {
            auto config = readConfig(path);
            if (!config) {
                printError(config.error().message);
                return kUsage;
            }
            it = run.configs.emplace(path, std::move(*config)).first;
        }
        input.config = &it->second;
    }

    run.progress = !args.quiet && !args.json && run.inputs.size() > 1 && isatty(STDERR_FILENO) &&
                   std::getenv("CI") == nullptr;
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = args.jobs > 0 ? std::size_t(args.jobs) : cores;
    run.assetJobs = std::min(threads, run.inputs.size());
    run.clipThreads = std::min(threads / run.assetJobs, cores);  // more would only wait for a core
    return kOk;
}

namespace {

// An asset rootbake baked has its sidecar beside it, whose generator says so (in its first
// bytes: the generator is the sidecar's second member). Its clips are in place already.
void warnIfBaked(const fs::path& path, gltf::Asset& asset) {
    const fs::path sidecar = path.parent_path() / (path.stem().string() + ".rootmotion.json");
    std::ifstream in(sidecar, std::ios::binary);
    if (!in) return;
    std::string head(512, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (head.find("\"generator\": \"rootbake ") == std::string::npos) return;
    asset.warnings.push_back(
        "baked by rootbake already (" + sidecar.filename().string() +
        " beside it says so): its clips are in place, and any travel is deduced from the feet");
}

}  // namespace

Result<gltf::Asset> loadInput(const RunContext& run, const InputFile& input, InputFacts* facts) {
    auto loaded = pipeline::loadAsset(input.path, run.limits.load, facts != nullptr);
    if (!loaded) return Error{withLimitHint(loaded.error().message)};
    if (facts) facts->sha256 = std::move(loaded->sha256);
    warnIfBaked(input.path, loaded->asset);
    return std::move(loaded->asset);
}

std::optional<gltf::Asset> loadPrinting(const RunContext& run, const InputFile& input, int& status) {
    auto asset = loadInput(run, input);
    if (!asset) {
        printError(asset.error().message);
        status = kBadInput;
        return std::nullopt;
    }
    std::fputs(loadWarnings(run, *asset).c_str(), stderr);
    return std::move(*asset);
}

namespace {

// What a warning says, its numbers (places, times) left out: warnings alike but for them have one cause.
std::string causeOf(const std::string& warning) {
    std::string cause;
    for (char c : warning) {
        const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
        if (digit && !cause.empty() && cause.back() == '#') continue;  // "12.5" is one "#.#"
        cause += digit ? '#' : c;
    }
    return cause;
}

}  // namespace

std::string loadWarnings(const RunContext& run, const gltf::Asset& asset) {
    std::string out;
    if (run.args.quiet) return out;
    // One line per cause (71 accessors with a repeated key time are one line): the first place
    // and how many more; -v lists every one.
    std::vector<std::size_t> first;  // the first warning of each cause, in order
    std::map<std::string, std::size_t> count;
    for (std::size_t i = 0; i < asset.warnings.size(); ++i)
        if (count[causeOf(asset.warnings[i])]++ == 0 || run.args.verbose) first.push_back(i);
    for (std::size_t i : first) {
        const std::size_t more = run.args.verbose ? 0 : count[causeOf(asset.warnings[i])] - 1;
        out += messageLines(
            "warning", asset.fileName,
            asset.warnings[i] +
                (more == 0 ? "" : " (and " + std::to_string(more) + " more like it: -v lists them)"),
            asset.rig.name);
    }
    return out;
}

std::vector<Options> optionsForClips(const RunContext& run, const InputFile& input, const gltf::Asset& asset) {
    std::vector<Options> out;
    out.reserve(asset.clips.size());
    for (const Clip& clip : asset.clips) {
        out.push_back(clipOptions(input.config, run.args.analysis, clip.name));
        out.back().maxSamples = run.limits.maxSamples;
    }
    return out;
}

Options optionsForAsset(const RunContext& run, const InputFile& input) {
    Options options = input.config ? clipOptions(nullptr, input.config->defaults, "") : Options{};
    applyAnalysisArgs(run.args.analysis, options);
    options.maxSamples = run.limits.maxSamples;
    return options;
}

Status checkNamedNodes(const gltf::Asset& asset, const std::vector<Options>& options) {
    std::vector<std::string> names;
    for (const std::string& name : asset.rig.name)
        if (!name.empty()) names.push_back(name);
    auto check = [&](const NodeRef& ref, const char* role) -> Status {
        if (ref.empty() || findNode(asset.rig, ref) >= 0) return Ok{};
        const std::string near = ref.name.empty() ? "" : closestName(ref.name, names);
        return Error{asset.fileName + ": " + role + " node \"" + nodeRefLabel(ref) +
                     "\" is not in the asset" + (near.empty() ? "" : "; did you mean " + near + "?")};
    };
    for (const Options& o : options) {
        if (Status s = check(o.rootNode, "root"); !s) return s;
        if (Status s = check(o.characterNode, "character"); !s) return s;
        for (const NodeRef& contact : o.contactNodes)
            if (Status s = check(contact, "contact"); !s) return s;
    }
    return Ok{};
}

Result<pipeline::Analysed> analyseInput(const RunContext& run, const gltf::Asset& asset,
                                        const std::vector<Options>& options) {
    if (Status named = checkNamedNodes(asset, options); !named) return named.error();
    auto analysed = pipeline::analyseAsset(
        asset, options, {run.limits.maxAssetNodeSamples, run.limits.maxAssetTrackSamples, run.clipThreads});
    if (!analysed) return Error{withLimitHint(analysed.error().message)};
    return analysed;
}

namespace {

using Done = std::vector<std::optional<AssetOutcome>>;  // by input; set once its work is finished

// work(i), or an outcome that says why it threw (out of memory, mostly): this asset fails, the others go on.
AssetOutcome outcomeOf(const RunContext& run, const std::function<AssetOutcome(std::size_t)>& work,
                       std::size_t i) {
    try {
        return work(i);
    } catch (const std::exception& e) {
        AssetOutcome failed;
        failed.code = kBadInput;
        failed.err = errorLine(run.inputs[i].path.string() + ": " + e.what());
        return failed;
    }
}

// The worker pool: work(i) for every i < count on `jobs` threads, or on this thread alone with
// one job. Each time work finishes, finished(done, how many are) runs on this thread while no
// worker stores an outcome.
Done runOnWorkers(std::size_t count, std::size_t jobs, const std::function<AssetOutcome(std::size_t)>& work,
                  const std::function<void(const Done&, std::size_t)>& finished) {
    Done done(count);
    if (jobs <= 1) {
        for (std::size_t i = 0; i < count; ++i) {
            done[i] = work(i);
            finished(done, i + 1);
        }
        return done;
    }
    std::mutex mutex;
    std::condition_variable changed;
    std::atomic<std::size_t> next{0};
    std::size_t finishedCount = 0;  // under mutex
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            AssetOutcome outcome = work(i);
            std::lock_guard lock(mutex);
            done[i] = std::move(outcome);
            ++finishedCount;
            changed.notify_one();
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < jobs; ++t) threads.emplace_back(worker);
    {
        std::unique_lock lock(mutex);
        for (std::size_t seen = 0; seen < count;) {
            changed.wait(lock, [&] { return finishedCount > seen; });
            seen = finishedCount;
            finished(done, seen);
        }
    }
    for (std::thread& t : threads) t.join();
    return done;
}

// Prints the outcomes in input order, each as soon as those before it are printed, and on a
// terminal (run.progress) a progress line under them.
struct OrderedPrinter {
    const RunContext& run;
    std::size_t columns = 80;  // the terminal's, for the progress line
    std::size_t printed = 0;   // outcomes printed

    void print(const Done& done, std::size_t finished) {
        const std::size_t count = done.size();
        if (run.progress) std::fputs("\r\033[K", stderr);
        for (; printed < count && done[printed]; ++printed) {
            const AssetOutcome& o = *done[printed];
            if (!run.args.quiet && !run.args.json) std::fputs(o.out.c_str(), stdout);
            std::fflush(stdout);
            std::fputs(o.err.c_str(), stderr);
        }
        if (run.progress && finished < count)
            std::fputs(
                progressLine(finished, count,
                             printable(run.inputs[std::min(printed, count - 1)].path.string()), columns)
                    .c_str(),
                stderr);
        std::fflush(stderr);
    }
};

}  // namespace

std::vector<AssetOutcome> runAssets(const RunContext& run,
                                    const std::function<AssetOutcome(std::size_t)>& work) {
    const std::size_t count = run.inputs.size();
    OrderedPrinter printer{run, run.progress ? terminalColumns() : 0};
    Done done = runOnWorkers(
        count, run.assetJobs, [&](std::size_t i) { return outcomeOf(run, work, i); },
        [&](const Done& finished, std::size_t finishedCount) { printer.print(finished, finishedCount); });
    std::vector<AssetOutcome> outcomes;
    outcomes.reserve(count);
    for (auto& d : done) outcomes.push_back(std::move(*d));
    return outcomes;
}

void addDoubts(const RunContext& run, const std::string& file, const Clip& clip, const ClipAnalysis& analysis,
               AssetOutcome& outcome) {
    if (run.args.quiet) return;
    const std::vector<std::string> found = doubts(clip.name, analysis);
    if (found.empty()) return;
    ++outcome.doubtful;
    if (run.args.verbose) outcome.err += doubtLines(file, clip, found);
}

void printDoubtSummary(const RunContext& run, const std::vector<AssetOutcome>& outcomes) {
    int clips = 0;
    for (const AssetOutcome& o : outcomes) clips += o.doubtful;
    if (clips == 0 || run.args.verbose || run.args.quiet) return;
    std::fprintf(stderr, "rootbake: %d %s with warnings: -v to see them\n", clips,
                 clips == 1 ? "clip" : "clips");
}

std::vector<std::uint8_t> matchedRules(const InputFile& input, const gltf::Asset& asset) {
    std::vector<std::uint8_t> matched;
    if (!input.config) return matched;
    for (const ClipRule& rule : input.config->clips)
        matched.push_back(std::any_of(asset.clips.begin(), asset.clips.end(),
                                      [&](const Clip& clip) { return matchesClip(rule, clip.name); }));
    return matched;
}

void printUnmatchedRules(const RunContext& run, const std::vector<AssetOutcome>& outcomes) {
    if (run.args.quiet) return;
    for (const auto& [path, config] : run.configs) {
        std::vector<std::uint8_t> matched(config.clips.size(), 0);
        std::size_t assets = 0;
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
            if (run.inputs[i].config != &config || outcomes[i].rulesMatched.size() != matched.size())
                continue;
            ++assets;
            for (std::size_t r = 0; r < matched.size(); ++r) matched[r] |= outcomes[i].rulesMatched[r];
        }
        for (std::size_t r = 0; assets > 0 && r < matched.size(); ++r)
            if (!matched[r])
                std::fputs(messageLine("warning", config.path + ": clips[\"" + config.clips[r].glob +
                                                      "\"]: the glob matches no clip of the " +
                                                      std::to_string(assets) +
                                                      (assets == 1 ? " asset" : " assets") + " it applies to")
                               .c_str(),
                           stderr);
    }
}

int exitCodeOf(const std::vector<AssetOutcome>& outcomes) {
    int code = kOk;
    for (const AssetOutcome& o : outcomes) code = combineExitCodes(code, o.code);
    return code;
}

}  // namespace rootbake::cli

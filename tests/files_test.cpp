// writeFiles all or nothing: a failure injected at every step it takes (each
// folder, each temporary's create / write / copy / close, each move aside and
// rename), and a SIGTERM or SIGINT raised at each of them, leave the whole
// tree byte for byte as it was, with and without --force over existing
// outputs; so does one signal with two writes on two threads (bake -j). Then
// the real executable on a full and on a read-only tmpfs, when this machine
// lets a test mount one.
#include "io/write_files.h"
#include "support.h"

#include "biped.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace rootbake;
using namespace rootbake::io;  // writeFiles, the subject of these cases
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes pattern(std::size_t n, std::uint8_t seed) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = std::uint8_t(seed + i * 7);
    return b;
}

using test::readBytes;
using test::writeBytes;
using test::writeText;

std::string text(const Bytes& b) { return {b.begin(), b.end()}; }

// Every entry under root: its kind and its bytes (a symlink: its target, not followed).
using Tree = std::map<std::string, std::string>;
Tree snapshot(const fs::path& root) {
    Tree tree;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        const std::string name = e.path().lexically_relative(root).string();
        if (e.is_symlink()) {
            tree[name] = "link " + fs::read_symlink(e.path()).string();
        } else if (e.is_directory()) {
            tree[name] = "folder";
        } else {
            std::ifstream in(e.path(), std::ios::binary);
            tree[name] = "file " + std::string(std::istreambuf_iterator<char>(in), {});
        }
    }
    return tree;
}

bool hasLitter(const Tree& tree) {
    return std::any_of(tree.begin(), tree.end(),
                       [](const auto& e) { return e.first.find(".rootbake-") != std::string::npos; });
}

// A bake's worth of files into root/out: the asset, its sidecar and .bin, a
// texture copied into a folder of its own, and one into a folder made for it.
// With force, the first three and the texture are there already (walk.bin as a
// symlink), and extra/ is not.
struct Fixture {
    fs::path root;
    bool force = false;

    fs::path out() const { return root / "out"; }

    void make() const {
        fs::remove_all(root);
        fs::create_directories(root / "src");
        fs::create_directories(out());
        writeBytes(root / "src" / "tex.png", pattern(3000, 1));
        writeBytes(root / "src" / "b.png", pattern(500, 2));
        writeText(out() / "notes.txt", "not ours");
        if (force) {
            fs::create_directories(out() / "textures" / "sub");
            writeText(out() / "walk.glb", "old glb");
            writeText(out() / "walk.rootmotion.json", "old sidecar");
            writeText(out() / "keep.bin", "old bin");
            fs::create_symlink("keep.bin", out() / "walk.bin");
            writeText(out() / "textures" / "sub" / "tex.png", "old png");
        }
    }

    std::vector<PlannedFile> plan() const {
        return {
            {out() / "walk.glb", pattern(1000, 3), {}},
            {out() / "walk.rootmotion.json", pattern(200, 4), {}},
            {out() / "walk.bin", {}, {}},  // empty: a write of no bytes still has its steps
            {out() / "textures" / "sub" / "tex.png", {}, root / "src" / "tex.png"},
            {out() / "extra" / "deep" / "b.png", {}, root / "src" / "b.png"},
        };
    }

    // What a complete write leaves, from what was there before it.
    Tree written(Tree tree) const {
        for (const PlannedFile& f : plan())
            tree[f.path.lexically_relative(root).string()] =
                "file " + (f.copyFrom.empty() ? text(f.bytes) : text(readBytes(f.copyFrom)));
        for (const char* folder : {"out/textures", "out/textures/sub", "out/extra", "out/extra/deep"})
            tree[folder] = "folder";
        return tree;
    }
};

struct Call {
    WriteStage stage;
    fs::path path;
};

const char* stageName(WriteStage s) {
    switch (s) {
    case WriteStage::MakeFolder: return "MakeFolder";
    case WriteStage::CreateTemp: return "CreateTemp";
    case WriteStage::WriteBytes: return "WriteBytes";
    case WriteStage::CopyFile: return "CopyFile";
    case WriteStage::CloseTemp: return "CloseTemp";
    case WriteStage::MoveAside: return "MoveAside";
    case WriteStage::Rename: return "Rename";
    }
    return "?";
}

// The steps of a complete write, in order; checks what that write leaves.
std::vector<Call> recordSteps(const Fixture& f) {
    f.make();
    const Tree before = snapshot(f.root);
    std::vector<Call> calls;
    const auto failure = writeFiles(f.plan(), {}, f.force, [&](WriteStage s, const fs::path& p) {
        calls.push_back({s, p});
        return 0;
    });
    REQUIRE_FALSE(failure);
    const Tree after = snapshot(f.root);
    CHECK_FALSE(hasLitter(after));
    CHECK(after == f.written(before));
    return calls;
}

// A realistic errno for each step, and the message writeFiles must give for it.
int errorFor(WriteStage s) {
    switch (s) {
    case WriteStage::MakeFolder: return EROFS;
    case WriteStage::CreateTemp: return EACCES;
    case WriteStage::WriteBytes: return ENOSPC;
    case WriteStage::CopyFile: return EIO;
    case WriteStage::CloseTemp: return EDQUOT;
    case WriteStage::MoveAside: return EBUSY;
    case WriteStage::Rename: return EACCES;
    }
    return EIO;
}

std::string expectedMessage(const Fixture& f, const Call& c) {
    const std::string why = std::strerror(errorFor(c.stage));
    if (c.stage == WriteStage::MakeFolder) {
        // Named by the first output that goes into that folder.
        for (const PlannedFile& p : f.plan()) {
            const std::string dir = p.path.parent_path().string();
            if (dir.rfind(c.path.string(), 0) == 0)
                return p.path.string() + ": cannot make folder " + c.path.string() + ": " + why;
        }
    }
    if (c.stage == WriteStage::MoveAside) return c.path.string() + ": cannot replace: " + why;
    return c.path.string() + ": cannot write: " + why;
}

}  // namespace

TEST_CASE("writeFiles: a failure at any step leaves the destination exactly as it was") {
    test::TempDir dir("files-fail");
    for (const bool force : {false, true}) {
        CAPTURE(force);
        const Fixture f{dir.path / "tree", force};
        const std::vector<Call> calls = recordSteps(f);
        // Every kind of step is reached (MoveAside only over existing outputs).
        for (WriteStage s : {WriteStage::MakeFolder, WriteStage::CreateTemp, WriteStage::WriteBytes,
                             WriteStage::CopyFile, WriteStage::CloseTemp, WriteStage::MoveAside, WriteStage::Rename}) {
            const bool reached =
                std::any_of(calls.begin(), calls.end(), [&](const Call& c) { return c.stage == s; });
            CHECK(reached == (s != WriteStage::MoveAside || force));
        }
        CHECK(calls.size() == (force ? 26u : 24u));  // 4 or 2 folders, 5 x 3 temp steps, 4 or 0 moves, 5 renames

        for (std::size_t k = 0; k < calls.size(); ++k) {
            CAPTURE(k);
            CAPTURE(stageName(calls[k].stage));
            CAPTURE(calls[k].path);
            f.make();
            const Tree before = snapshot(f.root);
            std::size_t seen = 0;
            const auto failure = writeFiles(f.plan(), {}, force, [&](WriteStage, const fs::path&) {
                return seen++ == k ? errorFor(calls[k].stage) : 0;
            });
            REQUIRE(failure);
            CHECK_FALSE(failure->refused);  // exit 3, not a usage error
            CHECK(failure->message == expectedMessage(f, calls[k]));
            CHECK(failure->message.find('\n') == std::string::npos);
            CHECK(seen == k + 1);  // it stopped at the failure
            const Tree after = snapshot(f.root);
            CHECK_FALSE(hasLitter(after));
            CHECK(after == before);
        }
    }
}

TEST_CASE("writeFiles --force: when the last rename fails, the outputs already replaced get their old bytes back") {
    test::TempDir dir("files-force");
    const Fixture f{dir.path / "tree", true};
    f.make();
    const Tree before = snapshot(f.root);
    const fs::path last = f.plan().back().path;
    int renamed = 0;
    const auto failure = writeFiles(f.plan(), {}, true, [&](WriteStage s, const fs::path& p) {
        if (s != WriteStage::Rename) return 0;
        if (p != last) return ++renamed, 0;
        // By now the first four outputs hold their new bytes.
        CHECK(readBytes(f.out() / "textures" / "sub" / "tex.png") == readBytes(f.root / "src" / "tex.png"));
        return EACCES;
    });
    REQUIRE(failure);
    CHECK(renamed == 4);
    CHECK(failure->message == last.string() + ": cannot write: Permission denied");
    CHECK(snapshot(f.root) == before);
    CHECK(fs::is_symlink(f.out() / "walk.bin"));  // the symlink itself came back
}

TEST_CASE("writeFiles: a full disk names the file in one line, a device is never replaced") {
    test::TempDir dir("files-messages");
    const fs::path out = dir.path / "walk.glb";
    const auto full = writeFiles({{out, pattern(100, 0), {}}}, {}, false, [](WriteStage s, const fs::path&) {
        return s == WriteStage::WriteBytes ? ENOSPC : 0;
    });
    REQUIRE(full);
    CHECK(full->message == out.string() + ": cannot write: No space left on device");
    const auto readOnly = writeFiles({{out, pattern(100, 0), {}}}, {}, false, [](WriteStage s, const fs::path&) {
        return s == WriteStage::CreateTemp ? EROFS : 0;
    });
    REQUIRE(readOnly);
    CHECK(readOnly->message == out.string() + ": cannot write: Read-only file system");
    CHECK(fs::is_empty(dir.path));

    // A FIFO stands for /dev/null here: with --force, rename() would put a file in its place.
    REQUIRE(::mkfifo((dir.path / "pipe.glb").c_str(), 0600) == 0);
    const auto device = writeFiles({{dir.path / "pipe.glb", pattern(10, 0), {}}}, {}, true);
    REQUIRE(device);
    CHECK(device->message == (dir.path / "pipe.glb").string() + ": is not a regular file (never replaced)");
    CHECK(fs::is_fifo(dir.path / "pipe.glb"));
}

TEST_CASE("writeFiles: an output whose name fits NAME_MAX gets a temporary and a backup that fit too") {
    test::TempDir dir("files-long-name");
    // 255 bytes, the most a name can have; 2-byte UTF-8 letters where the temporary's cut falls.
    std::string stem(190, 'w');
    for (int i = 0; i < 24; ++i) stem += "\xc3\xa9";
    stem += std::string(255 - stem.size() - std::strlen(".rootmotion.json"), 'k');
    const fs::path sidecar = dir.path / (stem + ".rootmotion.json");
    REQUIRE(sidecar.filename().string().size() == 255);
    std::vector<fs::path> temporaries;
    const auto hook = [&](WriteStage s, const fs::path&) {
        if (s == WriteStage::WriteBytes)
            for (const auto& e : fs::directory_iterator(dir.path)) temporaries.push_back(e.path().filename());
        return 0;
    };
    const auto written = writeFiles({{sidecar, pattern(10, 0), {}}}, {}, false, hook);
    CHECK_MESSAGE(!written, written->message);
    CHECK(test::readBytes(sidecar) == pattern(10, 0));
    const auto replaced = writeFiles({{sidecar, pattern(20, 1), {}}}, {}, true);  // a backup name too
    CHECK_MESSAGE(!replaced, replaced->message);
    CHECK(test::readBytes(sidecar) == pattern(20, 1));
    REQUIRE(temporaries.size() == 1);
    const std::string temporary = temporaries.front().string();
    CHECK(temporary.size() <= 255);
    CHECK(temporary.rfind("." + std::string(190, 'w'), 0) == 0);
    // Cut between letters, not inside one: the name stays valid UTF-8.
    const std::size_t kept = temporary.find(".rootbake-");
    REQUIRE(kept != std::string::npos);
    CHECK(kept > 200);
    CHECK((kept - 191) % 2 == 0);
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

namespace {

// Runs writeFiles in a child with the interrupt cleanup installed, raising
// `signal` at step k (none: after a complete write); the child's wait status.
int interruptedChild(const Fixture& f, int sig, std::size_t k) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        installInterruptCleanup();
        std::size_t seen = 0;
        const auto failure = writeFiles(f.plan(), {}, f.force, [&](WriteStage, const fs::path&) {
            if (seen++ == k) std::raise(sig);
            return 0;
        });
        if (!failure) std::raise(sig);  // after the write: it must keep every output
        ::_exit(99);                       // not reached: the signal's default action ends the child
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    return status;
}

}  // namespace

TEST_CASE("installInterruptCleanup: SIGTERM or SIGINT at any step leaves the destination as it was") {
    test::TempDir dir("files-interrupt");
    for (const bool force : {false, true}) {
        const Fixture f{dir.path / "tree", force};
        const std::size_t steps = recordSteps(f).size();
        for (const int sig : {SIGTERM, SIGINT}) {
            for (std::size_t k = 0; k <= steps; ++k) {  // k == steps: after a complete write
                CAPTURE(force);
                CAPTURE(sig);
                CAPTURE(k);
                f.make();
                const Tree before = snapshot(f.root);
                const int status = interruptedChild(f, sig, k);
                CHECK(WIFSIGNALED(status));
                CHECK(WTERMSIG(status) == sig);  // the exit status is the signal's
                const Tree after = snapshot(f.root);
                CHECK_FALSE(hasLitter(after));
                CHECK(after == (k < steps ? before : f.written(before)));
            }
        }
    }
}

TEST_CASE("installInterruptCleanup: two writes on two threads, one signal: both undone, then the signal's death") {
    // As bake -j does. Thread a raises SIGTERM at its step 9 (closing its
    // second temporary); thread b is held until then at its step 19 (moving
    // its sidecar aside, after its walk.glb was replaced), and must notice
    // the signal there and put the old walk.glb back.
    test::TempDir dir("files-threads");
    const Fixture a{dir.path / "a", false}, b{dir.path / "b", true};
    REQUIRE(recordSteps(a)[9].stage == WriteStage::CloseTemp);
    REQUIRE(recordSteps(b)[19].stage == WriteStage::MoveAside);
    a.make();
    b.make();
    const Tree beforeA = snapshot(a.root), beforeB = snapshot(b.root);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        installInterruptCleanup();
        std::atomic<bool> raised{false}, bWaiting{false};
        std::thread second([&] {
            std::size_t seen = 0;
            writeFiles(b.plan(), {}, true, [&](WriteStage, const fs::path&) {
                if (seen++ == 19) {
                    bWaiting = true;
                    while (!raised) std::this_thread::yield();
                }
                return 0;
            });
        });
        std::size_t seen = 0;
        writeFiles(a.plan(), {}, false, [&](WriteStage, const fs::path&) {
            if (seen++ == 9) {
                while (!bWaiting) std::this_thread::yield();
                std::raise(SIGTERM);  // b is mid-write: the process must not die yet
                raised = true;
            }
            return 0;
        });
        second.join();
        ::_exit(99);  // not reached: the last write to stop dies of the signal
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
    CHECK(snapshot(a.root) == beforeA);
    CHECK(snapshot(b.root) == beforeB);
}

TEST_CASE("installInterruptCleanup: a signal that was ignored stays ignored (nohup)") {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        std::signal(SIGHUP, SIG_IGN);
        installInterruptCleanup();
        std::raise(SIGHUP);
        ::_exit(0);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

namespace {

// A real full and read-only destination: a 64 KiB tmpfs filled to the last
// byte, then remounted read-only, in a mount namespace of a child's own (none
// of it is seen outside). The child runs the real executable and writes, for
// each case, "<exit code>\n<unchanged 0/1>\n<output>" to a file of the scratch
// folder. Exit 77: this machine does not let a test mount (not root, or a
// container without CAP_SYS_ADMIN).
struct Outcome {
    int code = -1;
    bool unchanged = false;
    std::string output;
};

std::string runShell(const std::string& command, int& code) {
    std::string output;
    std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return code = -1, output;
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = ::pclose(pipe);
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return output;
}

void bakeInto(const fs::path& scratch, const fs::path& mnt, const std::string& name) {
    const Tree before = snapshot(mnt);
    int code = -1;
    const std::string output = runShell(std::string("\"") + ROOTBAKE_EXE + "\" bake " + test::q(scratch / "biped.glb") +
                                            " -o " + test::q(mnt / "walk.glb"),
                                        code);
    writeText(scratch / name, std::to_string(code) + "\n" + (snapshot(mnt) == before ? "1" : "0") + "\n" + output);
}

int mountChild(const fs::path& scratch) {
    const fs::path mnt = scratch / "mnt";
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
        return 77;
    {  // fill it
        std::FILE* filler = std::fopen((mnt / "filler").c_str(), "wb");
        if (!filler) return 1;
        const Bytes block(4096, 'x');
        while (std::fwrite(block.data(), 1, block.size(), filler) == block.size() && std::fflush(filler) == 0) {
        }
        std::fclose(filler);
    }
    bakeInto(scratch, mnt, "full.txt");
    if (::mount(nullptr, mnt.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0) return 1;
    bakeInto(scratch, mnt, "readonly.txt");
    return 0;
}

Outcome readOutcome(const fs::path& file) {
    std::ifstream in(file);
    Outcome o;
    std::string unchanged;
    in >> o.code >> unchanged;
    in.get();
    o.unchanged = unchanged == "1";
    o.output.assign(std::istreambuf_iterator<char>(in), {});
    return o;
}

}  // namespace

TEST_CASE("bake (executable): a full and a read-only tmpfs give exit 3 and one line naming the file") {
    test::TempDir dir("files-tmpfs");
    fs::create_directories(dir.path / "mnt");
    writeBytes(dir.path / "biped.glb", samples::toGlb(samples::makeBiped()));
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) ::_exit(mountChild(dir.path));
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        MESSAGE("skipped: this machine does not let a test mount a tmpfs (the injected errors above stand for it)");
        return;
    }
    REQUIRE(WEXITSTATUS(status) == 0);
    const fs::path output = dir.path / "mnt" / "walk.glb";
    const struct {
        const char* file;
        std::string message;
    } cases[] = {{"full.txt", "rootbake: error: " + output.string() + ": cannot write: No space left on device\n"},
                 {"readonly.txt", "rootbake: error: " + output.string() + ": cannot write: Read-only file system\n"}};
    for (const auto& c : cases) {
        CAPTURE(std::string(c.file));
        const Outcome o = readOutcome(dir.path / c.file);
        CHECK(o.code == 3);
        CHECK(o.output == c.message);
        CHECK(o.unchanged);
    }
    CHECK(fs::is_empty(dir.path / "mnt"));  // the mount was the child's alone
}

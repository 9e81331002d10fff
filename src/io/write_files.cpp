#include "io/write_files.h"
#include "io/write_steps.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>  // NAME_MAX
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rootbake::io {

namespace fs = std::filesystem;

namespace {

bool sameBytes(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (!fs::is_regular_file(a, ec) || !fs::is_regular_file(b, ec)) return false;
    if (fs::file_size(a, ec) != fs::file_size(b, ec) || ec) return false;
    std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
    std::istreambuf_iterator<char> i(x), j(y), end;
    for (; i != end && j != end; ++i, ++j)
        if (*i != *j) return false;
    return i == end && j == end && !x.bad() && !y.bad();
}

// ---- undoing, on failure or on a signal ------------------------------------------------------

// What may be on disk for one file; each state is set before the step that
// makes it true, so undoing it is idempotent (a name not there yet is an ENOENT).
enum : int { kNothing = 0, kTemp = 1, kCommitting = 2 };

struct Tracked {
    std::string temp, dest, backup;  // backup: empty when dest did not exist
    int state = kNothing;
};

struct Session {
    std::vector<Tracked> files;
    std::vector<std::string> folders;  // to make, parents first
    std::size_t foldersMade = 0;
};

void undo(const Session& s) {
    for (const Tracked& t : s.files) {
        if (t.state == kCommitting) {
            if (!t.backup.empty())
                ::rename(t.backup.c_str(), t.dest.c_str());  // the old bytes back, over the new ones if there
            else
                ::unlink(t.dest.c_str());  // the new output, if it was renamed in
        }
        if (t.state != kNothing) ::unlink(t.temp.c_str());
    }
    for (std::size_t i = s.foldersMade; i-- > 0;) ::rmdir(s.folders[i].c_str());
}

// The handler only records the signal: bake's workers call writeFiles on
// several threads, and undoing one thread's files from a handler running on
// another would race with that thread's next rename. Each writeFiles in
// progress sees the signal at its next step, undoes its own files, and the
// last one to leave dies of the signal; with none in progress the handler
// dies at once. A second signal kills at once (SA_RESETHAND), should a write
// hang (a stuck network disk).
std::atomic<int> gSignal{0};   // the signal received, 0: none
std::atomic<int> gWriting{0};  // writeFiles calls in progress
static_assert(std::atomic<int>::is_always_lock_free, "read in a signal handler: must be lock-free");

const char* gMessage = nullptr;  // said on stderr when the signal comes
std::size_t gMessageLength = 0;

void onSignal(int sig) {
    if (gMessage) (void)!::write(STDERR_FILENO, gMessage, gMessageLength);  // write(2) is async-signal-safe
    gSignal.store(sig);
    if (gWriting.load() == 0) std::raise(sig);  // its action is the default again: dies of it
}

// One writeFiles in progress: counted for the handler; undone unless committed.
struct InProgress {
    Session& session;
    bool committed = false;
    explicit InProgress(Session& s) : session(s) { gWriting.fetch_add(1); }
    ~InProgress() {
        if (!committed) undo(session);
        if (gWriting.fetch_sub(1) == 1)
            if (const int sig = gSignal.load()) std::raise(sig);
    }
};

// ---- the commit ------------------------------------------------------------------------------

// Renames from onto to, never over an existing `to`: RENAME_NOREPLACE, else (a filesystem
// without it) link + unlink, as link never replaces either; else (no hard links: FAT) a check
// then a rename, two steps. 0 or an errno (EEXIST: `to` is there).
int renameNoReplace(const char* from, const char* to) {
    if (::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
    if (::link(from, to) == 0) return ::unlink(from), 0;
    if (errno != EPERM && errno != EOPNOTSUPP) return errno;
    struct stat st {};
    if (::lstat(to, &st) == 0) return EEXIST;
    return ::rename(from, to) == 0 ? 0 : errno;
}

// An exclusive flock on the output's folder while an asset's files are renamed in: two bakes
// (processes, or threads of one) to one output commit one after the other, so the last one's
// files are the ones left, together. Best effort: a folder that cannot be locked (a network
// filesystem without flock) is committed unlocked.
struct FolderLock {
    int fd = -1;
    explicit FolderLock(const fs::path& folder) {
        fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) return;
        // A signal interrupts the wait (no SA_RESTART): the caller's next step sees it.
        while (::flock(fd, LOCK_EX) != 0)
            if (errno != EINTR || gSignal.load()) break;
    }
    ~FolderLock() {
        if (fd >= 0) ::close(fd);  // releases the lock
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
};

// ---- leftovers of killed bakes ------------------------------------------------------------------

// The process that made a temporary (".walk.glb.rootbake-1234-0.tmp": 1234); 0 for another name.
pid_t temporaryOwner(const std::string& name) {
    const std::string_view tmp = ".tmp", tag = ".rootbake-";
    if (name.size() < 2 || name[0] != '.' || !name.ends_with(tmp)) return 0;
    const std::size_t at = name.rfind(tag);
    if (at == std::string::npos || at == 0) return 0;
    const char* first = name.data() + at + tag.size();
    const char* last = name.data() + name.size() - tmp.size();
    long pid = 0;
    unsigned long serial = 0;
    const auto p = std::from_chars(first, last, pid);
    if (p.ec != std::errc() || p.ptr == last || *p.ptr != '-' || pid <= 0) return 0;
    const auto n = std::from_chars(p.ptr + 1, last, serial);
    if (n.ec != std::errc() || n.ptr != last) return 0;
    return pid_t(pid);
}

// Removes the temporaries of bakes killed before they could (SIGKILL, a crash) from a folder:
// those whose process is gone. A live process's (another bake's, this one's) is kept, as is one
// whose process cannot be asked (EPERM: another user's, alive).
void removeStaleTemporaries(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const pid_t owner = temporaryOwner(name);
        if (owner == 0 || owner == ::getpid()) continue;
        if (!fs::is_regular_file(it->symlink_status(ec))) continue;
        if (::kill(owner, 0) == -1 && errno == ESRCH) ::unlink(it->path().c_str());
    }
}

}  // namespace

int beforeStep(const WriteHook& hook, WriteStage stage, const fs::path& path) {
    const int e = hook ? hook(stage, path) : 0;
    return gSignal.load() ? kInterrupted : e;
}

std::string errnoText(int error) {
    return error == kInterrupted ? "interrupted" : std::strerror(error);
}

bool sameFile(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    const fs::path ca = fs::weakly_canonical(a, ec);
    if (ec) return false;
    const fs::path cb = fs::weakly_canonical(b, ec);
    if (ec) return false;
    if (ca == cb) return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

namespace {

using Failure = std::optional<FileFailure>;

// The folder a file goes in: "." for a bare name.
fs::path folderOf(const fs::path& file) {
    return file.parent_path().empty() ? fs::path(".") : file.parent_path();
}

// Outputs that are the input, a file it reads, or another output.
Failure refuseOverlaps(const std::vector<PlannedFile>& files, const std::vector<fs::path>& reads) {
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string name = files[i].path.string();
        for (std::size_t r = 0; r < reads.size(); ++r)
            if (sameFile(files[i].path, reads[r]))
                return FileFailure{true, r == 0 ? name + ": is the input file (refused)"
                                                : name + ": would overwrite " + reads[r].string() +
                                                      ", which the input reads (refused)"};
        for (std::size_t j = 0; j < i; ++j)
            if (sameFile(files[i].path, files[j].path))
                return FileFailure{true, name + ": two outputs would be written to this file (refused)"};
    }
    return std::nullopt;
}

// Each output's temporary and backup names, refusing folders, devices and, without
// --force, files that exist.
Failure planTargets(const std::vector<PlannedFile>& files, bool force, Session& session) {
    std::error_code ec;
    session.files.resize(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const PlannedFile& f = files[i];
        const std::string name = f.path.string();
        const fs::file_status status = fs::status(f.path, ec);
        if (fs::is_directory(status)) return FileFailure{false, name + ": is a folder"};
        // rename() would put a regular file in place of a device (as root: /dev/null).
        if (fs::exists(status) && !fs::is_regular_file(status))
            return FileFailure{false, name + ": is not a regular file (never replaced)"};
        const bool exists = fs::exists(fs::symlink_status(f.path, ec));
        if (exists && !force) return FileFailure{false, name + ": exists (pass --force to overwrite)"};
        Tracked& t = session.files[i];
        t.dest = name;
        t.temp = siblingName(f.path, ".tmp").string();
        if (exists) t.backup = siblingName(f.path, ".bak").string();
    }
    return std::nullopt;
}

// Folders for copies under the output's folder ("textures/a.png"), parents first, each with
// the file it is made for (for the message); the output's own folder must already be there.
Failure planFolders(const std::vector<PlannedFile>& files, Session& session,
                    std::vector<std::size_t>& owners) {
    std::error_code ec;
    if (!files.empty()) {
        const fs::path main = folderOf(files.front().path);
        if (!fs::is_directory(main, ec))
            return FileFailure{false, files.front().path.string() + ": folder " + main.string() +
                                          (fs::exists(main, ec) ? " is not a folder" : " does not exist")};
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::vector<std::string> missing;
        for (fs::path dir = files[i].path.parent_path();
             !dir.empty() && !fs::exists(fs::symlink_status(dir, ec)); dir = dir.parent_path())
            missing.push_back(dir.string());
        for (auto it = missing.rbegin(); it != missing.rend(); ++it)
            if (std::find(session.folders.begin(), session.folders.end(), *it) == session.folders.end()) {
                session.folders.push_back(*it);
                owners.push_back(i);
            }
    }
    return std::nullopt;
}

Failure makeFolders(const std::vector<PlannedFile>& files, Session& session,
                    const std::vector<std::size_t>& owners, const WriteHook& hook) {
    for (std::size_t k = 0; k < session.folders.size(); ++k) {
        const std::string& dir = session.folders[k];
        session.foldersMade = k + 1;
        int e = beforeStep(hook, WriteStage::MakeFolder, dir);
        if (!e && ::mkdir(dir.c_str(), 0777) != 0) e = errno;
        if (e) {
            session.foldersMade = k;
            return FileFailure{
                false, files[owners[k]].path.string() + ": cannot make folder " + dir + ": " + errnoText(e)};
        }
    }
    std::error_code ec;
    for (const PlannedFile& f : files)
        if (!fs::is_directory(folderOf(f.path), ec))
            return FileFailure{false,
                               f.path.string() + ": " + folderOf(f.path).string() + " is not a folder"};
    return std::nullopt;
}

// Once per folder and process: leftovers are older than this run, and a batch of thousands
// of assets into one folder must not list it once per asset.
void sweepOutputFolders(const std::vector<PlannedFile>& files) {
    static std::mutex sweeping;
    static std::set<std::string> swept;
    std::error_code ec;
    for (const PlannedFile& f : files) {
        const fs::path dir = folderOf(f.path);
        {
            std::lock_guard guard(sweeping);
            if (!swept.insert(fs::absolute(dir, ec).lexically_normal().string()).second) continue;
        }
        removeStaleTemporaries(dir);
    }
}

Failure writeTemporaries(const std::vector<PlannedFile>& files, Session& session, const WriteHook& hook) {
    for (std::size_t i = 0; i < files.size(); ++i) {
        Tracked& t = session.files[i];
        t.state = kTemp;
        const TempResult r = writeTemp(t.temp, files[i], hook);
        if (!r.created) t.state = kNothing;  // never remove a name we did not make
        if (!r.error.empty()) return FileFailure{false, t.dest + ": cannot write: " + r.error};
    }
    return std::nullopt;
}

// Each temporary renamed onto its output, an existing output moved aside first.
Failure commitRenames(Session& session, bool force, const WriteHook& hook) {
    for (Tracked& t : session.files) {
        t.state = kCommitting;
        if (!t.backup.empty()) {
            int e = beforeStep(hook, WriteStage::MoveAside, t.dest);
            if (!e && ::rename(t.dest.c_str(), t.backup.c_str()) != 0) e = errno;
            if (e) return FileFailure{false, t.dest + ": cannot replace: " + errnoText(e)};
        }
        int e = beforeStep(hook, WriteStage::Rename, t.dest);
        // Without --force, an output that appeared since the check (another bake's) is never replaced.
        if (!e)
            e = force ? (::rename(t.temp.c_str(), t.dest.c_str()) == 0 ? 0 : errno)
                      : renameNoReplace(t.temp.c_str(), t.dest.c_str());
        if (e == EEXIST && !force) {
            t.state = kTemp;  // the file there is not ours to remove
            return FileFailure{false, t.dest +
                                          ": exists: another process wrote it while this bake ran "
                                          "(pass --force to overwrite)"};
        }
        if (e) return FileFailure{false, t.dest + ": cannot write: " + errnoText(e)};
    }
    return std::nullopt;
}

}  // namespace

std::optional<FileFailure> writeFiles(std::vector<PlannedFile> files, const std::vector<fs::path>& reads,
                                      bool force, const WriteHook& hook) {
    // Copies that are already there: onto their own source, or the same bytes.
    std::erase_if(files, [](const PlannedFile& f) {
        return !f.copyFrom.empty() && (sameFile(f.path, f.copyFrom) || sameBytes(f.path, f.copyFrom));
    });
    if (Failure f = refuseOverlaps(files, reads)) return f;
    Session session;
    if (Failure f = planTargets(files, force, session)) return f;
    std::vector<std::size_t> folderOwners;
    if (Failure f = planFolders(files, session, folderOwners)) return f;

    std::optional<FolderLock> lock;  // outlives `writing`: an undo happens under it too
    InProgress writing(session);
    if (Failure f = makeFolders(files, session, folderOwners, hook)) return f;
    sweepOutputFolders(files);
    if (Failure f = writeTemporaries(files, session, hook)) return f;
    lock.emplace(files.empty() ? fs::path(".") : folderOf(files.front().path));
    if (Failure f = commitRenames(session, force, hook)) return f;
    writing.committed = true;
    // Best effort: every output is in place; a backup that cannot be removed is only litter.
    for (const Tracked& t : session.files)
        if (!t.backup.empty()) ::unlink(t.backup.c_str());
    return std::nullopt;
}

void installInterruptCleanup(const char* message) {
    gMessage = message;
    gMessageLength = message ? std::strlen(message) : 0;
    struct sigaction action {};
    action.sa_handler = onSignal;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int s : signals) sigaddset(&action.sa_mask, s);  // one undo at a time
    for (int s : signals) {
        struct sigaction old {};
        // Left ignored when ignored (nohup, a shell's background job): dying of it would be new.
        if (sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(s, &action, nullptr);
    }
}

}  // namespace rootbake::io

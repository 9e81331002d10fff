#include "write/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

#include <unistd.h>

namespace rootbake {

namespace fs = std::filesystem;

namespace {

std::string errnoText() {
    return std::strerror(errno);
}

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

// Writes one temporary file; false with errno's message on failure.
bool writeTemp(const fs::path& temp, const PlannedFile& file, std::string& error) {
    std::FILE* out = std::fopen(temp.c_str(), "wbx");  // "x": never reuses an existing name
    if (!out) return error = errnoText(), false;
    bool ok = true;
    if (file.copyFrom.empty()) {
        ok = file.bytes.empty() ||
             std::fwrite(file.bytes.data(), 1, file.bytes.size(), out) == file.bytes.size();
    } else {
        std::FILE* in = std::fopen(file.copyFrom.c_str(), "rb");
        if (!in) {
            error = file.copyFrom.string() + ": " + errnoText();
            std::fclose(out);
            return false;
        }
        char buffer[1 << 16];
        std::size_t n;
        while (ok && (n = std::fread(buffer, 1, sizeof buffer, in)) > 0)
            ok = std::fwrite(buffer, 1, n, out) == n;
        if (std::ferror(in)) ok = false;
        std::fclose(in);
    }
    if (!ok) error = errnoText();
    if (std::fclose(out) != 0 && ok) ok = false, error = errnoText();
    return ok;
}

// Everything made so far, removed again on failure.
struct Undo {
    std::vector<fs::path> files, folders;
    ~Undo() {
        std::error_code ec;
        for (const fs::path& f : files) fs::remove(f, ec);
        for (auto it = folders.rbegin(); it != folders.rend(); ++it) fs::remove(*it, ec);
    }
};

}  // namespace

bool sameFile(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    const fs::path ca = fs::weakly_canonical(a, ec);
    if (ec) return false;
    const fs::path cb = fs::weakly_canonical(b, ec);
    if (ec) return false;
    if (ca == cb) return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

std::optional<FileFailure> writeFiles(std::vector<PlannedFile> files, const std::vector<fs::path>& reads,
                                      bool force) {
    std::error_code ec;
    // Copies that are already there: onto their own source, or the same bytes.
    std::erase_if(files, [](const PlannedFile& f) {
        return !f.copyFrom.empty() && (sameFile(f.path, f.copyFrom) || sameBytes(f.path, f.copyFrom));
    });
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
    for (const PlannedFile& f : files) {
        const std::string name = f.path.string();
        const fs::file_status status = fs::status(f.path, ec);
        if (fs::is_directory(status)) return FileFailure{false, name + ": is a folder"};
        if (fs::exists(fs::symlink_status(f.path, ec)) && !force)
            return FileFailure{false, name + ": exists (pass --force to overwrite)"};
    }

    Undo undo;
    // Folders for copies under the output's folder ("textures/a.png"); the
    // output's own folder must already be there.
    if (!files.empty()) {
        const fs::path main =
            files.front().path.parent_path().empty() ? fs::path(".") : files.front().path.parent_path();
        if (!fs::is_directory(main, ec))
            return FileFailure{false, files.front().path.string() + ": folder " + main.string() +
                                          (fs::exists(main, ec) ? " is not a folder" : " does not exist")};
    }
    for (const PlannedFile& f : files) {
        std::vector<fs::path> missing;
        for (fs::path dir = f.path.parent_path(); !dir.empty() && !fs::exists(fs::symlink_status(dir, ec));
             dir = dir.parent_path())
            missing.push_back(dir);
        for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
            if (!fs::create_directory(*it, ec))
                return FileFailure{
                    false, f.path.string() + ": cannot make folder " + it->string() + ": " + ec.message()};
            undo.folders.push_back(*it);
        }
        const fs::path dir = f.path.parent_path().empty() ? fs::path(".") : f.path.parent_path();
        if (!fs::is_directory(dir, ec))
            return FileFailure{false, f.path.string() + ": " + dir.string() + " is not a folder"};
    }

    std::vector<fs::path> temps;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const fs::path& path = files[i].path;
        fs::path temp = path;
        temp.replace_filename("." + path.filename().string() + ".rootbake-" + std::to_string(::getpid()) +
                              "-" + std::to_string(i) + ".tmp");
        std::string error;
        const bool ok = writeTemp(temp, files[i], error);
        if (ok || fs::exists(fs::symlink_status(temp, ec))) undo.files.push_back(temp);
        if (!ok) return FileFailure{false, path.string() + ": cannot write: " + error};
        temps.push_back(temp);
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        fs::rename(temps[i], files[i].path, ec);
        if (ec) return FileFailure{false, files[i].path.string() + ": cannot write: " + ec.message()};
        undo.files[i] = files[i].path;  // renamed: removed as an output if a later rename fails
    }
    undo.files.clear();
    undo.folders.clear();
    return std::nullopt;
}

}  // namespace rootbake

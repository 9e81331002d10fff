// data: URIs and files beside the asset. The folder is a security boundary: a
// URI is read only when it is relative, stays inside the folder after
// normalisation and after resolving symlinks, and names a regular file.
#include "gltf/internal.h"
#include "io/base64.h"
#include "io/read_file.h"

#include <system_error>

namespace rootbake::gltf {

namespace fs = std::filesystem;

namespace {

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
bool hasScheme(std::string_view uri) {
    if (uri.empty() || !isAlpha(uri[0])) return false;
    for (std::size_t i = 1; i < uri.size(); ++i) {
        const char c = uri[i];
        if (c == ':') return true;
        if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.') return false;
    }
    return false;
}

int hexValue(char c) {
    if (isDigit(c)) return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

std::string quoted(std::string_view s) {
    constexpr std::size_t kMax = 80;  // a long data: URI would swamp the message
    std::string out = "'";
    out.append(s.substr(0, kMax));
    if (s.size() > kMax) out += "...";
    out += "'";
    return out;
}

}  // namespace

bool isDataUri(std::string_view uri) {
    return uri.size() >= 5 && equalsNoCase(uri.substr(0, 5), "data:");
}

Status decodeDataUri(std::string_view uri, const Where& at, std::vector<std::uint8_t>& out) {
    const std::size_t comma = uri.find(',');
    if (comma == std::string_view::npos) return fail(at, "data: URI without a ',' before its data");
    // data:[<media type>][;<attribute>=<value>]*;base64,<data>
    std::string_view header = uri.substr(5, comma - 5);
    const std::string_view payload = uri.substr(comma + 1);
    const bool base64 = header.size() >= 7 && equalsNoCase(header.substr(header.size() - 7), ";base64");
    if (base64) header.remove_suffix(7);
    const std::string_view mediaType = header.substr(0, header.find(';'));
    if (!mediaType.empty() && !equalsNoCase(mediaType, "application/octet-stream") &&
        !equalsNoCase(mediaType, "application/gltf-buffer"))
        return fail(at, "data: URI media type " + quoted(mediaType) +
                            " (application/octet-stream or application/gltf-buffer expected)");
    for (std::size_t p = mediaType.size(); p < header.size();) {
        const std::size_t next = std::min(header.find(';', p + 1), header.size());
        const std::string_view param = header.substr(p + 1, next - p - 1);
        if (param.empty() || param.find('=') == std::string_view::npos || param.front() == '=')
            return fail(at, "malformed data: URI parameter " + quoted(param));
        p = next;
    }

    if (!base64) {  // RFC 2397: percent-encoded octets
        out.clear();
        out.reserve(payload.size());
        for (std::size_t i = 0; i < payload.size(); ++i) {
            if (payload[i] != '%') {
                out.push_back(static_cast<std::uint8_t>(payload[i]));
                continue;
            }
            const int hi = i + 2 < payload.size() ? hexValue(payload[i + 1]) : -1;
            const int lo = hi >= 0 ? hexValue(payload[i + 2]) : -1;
            if (lo < 0) return fail(at, "data: URI has a malformed percent escape");
            out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
            i += 2;
        }
        return Ok{};
    }

    out.clear();
    if (auto bad = io::decodeBase64(payload, out)) {
        switch (bad->kind) {
            case io::Base64Error::Kind::Padding:
                return fail(at, "data: URI has malformed base64 padding");
            case io::Base64Error::Kind::Length:
                return fail(
                    at, "data: URI base64 length is impossible (" + std::to_string(bad->at) + " characters)");
            case io::Base64Error::Kind::Character:
                return fail(at, "data: URI has a non-base64 character at offset " +
                                    std::to_string(comma + 1 + bad->at));
        }
    }
    return Ok{};
}

Result<fs::path> resolveUri(std::string_view uri, const fs::path& folder, const Where& at, bool* missing) {
    if (uri.empty()) return fail(at, "empty URI");
    if (hasScheme(uri))
        return fail(at, "URI " + quoted(uri) + " has a scheme (only data: URIs and relative paths are read)");
    if (uri[0] == '/' || uri[0] == '\\') return fail(at, "absolute URI " + quoted(uri) + " refused");

    // Percent-decoding, then '\' as a separator (Windows exporters).
    std::string decoded;
    decoded.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        char c = uri[i];
        if (c == '%') {
            const int hi = i + 2 < uri.size() ? hexValue(uri[i + 1]) : -1;
            const int lo = hi >= 0 ? hexValue(uri[i + 2]) : -1;
            if (lo < 0) return fail(at, "URI " + quoted(uri) + " has a malformed percent escape");
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        }
        if (c == '\0') return fail(at, "URI " + quoted(uri) + " contains a NUL byte");
        decoded += c == '\\' ? '/' : c;
    }
    if (decoded[0] == '/') return fail(at, "absolute URI " + quoted(uri) + " refused");

    // Lexical normalisation; ".." may not climb above the folder.
    std::vector<std::string_view> parts;
    const std::string_view d = decoded;
    for (std::size_t p = 0; p <= d.size();) {
        const std::size_t next = std::min(d.find('/', p), d.size());
        const std::string_view part = d.substr(p, next - p);
        if (part == "..") {
            if (parts.empty()) return fail(at, "URI " + quoted(uri) + " escapes the asset's folder");
            parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        p = next + 1;
    }
    if (parts.empty()) return fail(at, "URI " + quoted(uri) + " names the asset's folder, not a file");
    if (folder.empty())
        return fail(
            at, "URI " + quoted(uri) + " cannot be read: the asset was loaded from memory without a folder");

    fs::path file = folder;
    for (std::string_view part : parts) file /= fs::path(std::string(part));

    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status)) {
        if (missing) *missing = true;
        return fail(at, "file " + quoted(uri) + " not found");
    }
    if (!fs::is_regular_file(status)) return fail(at, quoted(uri) + " is not a regular file");
    // A symlink inside the folder may still point outside it.
    const fs::path realFolder = fs::weakly_canonical(folder, ec);
    const fs::path realFile = fs::canonical(file, ec);
    if (ec) return fail(at, "cannot resolve " + quoted(uri) + ": " + ec.message());
    const fs::path relative = realFile.lexically_relative(realFolder);
    if (relative.empty() || *relative.begin() == "..")
        return fail(at, "URI " + quoted(uri) + " escapes the asset's folder (through a symlink)");
    return file;
}

Status readFilePrefix(const fs::path& file, std::string_view uri, std::uint64_t bytes, const Where& at,
                      io::SharedBytes& out) {
    auto read = io::readFileBytes(file, {bytes, "", bytes});
    if (!read) {
        const std::string& why = read.error().message;  // "has N bytes, fewer than byteLength M" reads on
        return fail(at, "file " + quoted(uri) + (why.rfind("has ", 0) == 0 ? " " : ": ") + why);
    }
    out = std::move(*read);
    return Ok{};
}

}  // namespace rootbake::gltf

#include "read_file.h"

#include <fstream>

namespace rootbake {

namespace fs = std::filesystem;

namespace {

// The bytes to read, after the checks.
Result<std::uint64_t> sizeToRead(const fs::path& file, const FileRead& read) {
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status)) return Error{"file not found"};
    if (!fs::is_regular_file(status)) return Error{"not a regular file"};
    const std::uint64_t size = fs::file_size(file, ec);
    if (ec) return Error{ec.message()};
    const std::uint64_t wanted = read.prefix == UINT64_MAX ? size : read.prefix;
    if (size < wanted)
        return Error{"has " + std::to_string(size) + " bytes, fewer than " + read.prefixName + " " +
                     std::to_string(wanted)};
    if (wanted > read.maxBytes)
        return Error{"file: " + std::to_string(wanted) + " bytes, more than " +
                     (*read.limitName ? std::string(read.limitName) + " (" : std::string("the limit of ")) +
                     std::to_string(read.maxBytes) + (*read.limitName ? ")" : " bytes")};
    return wanted;
}

template <class Bytes>
Result<Bytes> readInto(const fs::path& file, const FileRead& read) {
    auto size = sizeToRead(file, read);
    if (!size) return size.error();
    Bytes bytes(*size, 0);
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{"cannot open"};
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(*size));
    if (static_cast<std::uint64_t>(in.gcount()) != *size) return Error{"cannot read (short read)"};
    return bytes;
}

}  // namespace

Result<std::vector<std::uint8_t>> readFileBytes(const fs::path& file, const FileRead& read) {
    return readInto<std::vector<std::uint8_t>>(file, read);
}

Result<std::string> readFileText(const fs::path& file, const FileRead& read) {
    return readInto<std::string>(file, read);
}

}  // namespace rootbake

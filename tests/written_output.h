// The whole output of a rewrite in memory, for the tests above the container (support.h is
// shared with the loader's tests, which do not see src/write).
#pragma once

#include "support.h"
#include "write/container.h"

#include <cstdint>
#include <vector>

namespace rootbake::test {

// The output's bytes as the writer puts them: main, then each streamed file (an embedded
// image) at its offset.
inline std::vector<std::uint8_t> wholeOutput(const write::RewrittenAsset& out) {
    std::vector<std::uint8_t> bytes = write::joinPieces(out.main);
    for (const write::StreamedFile& f : out.streamed) {
        bytes.resize(f.offset, 0);
        const std::vector<std::uint8_t> file = readBytes(f.file);
        bytes.insert(bytes.end(), file.begin(), file.end());
    }
    bytes.resize(out.mainSize, 0);
    return bytes;
}

}  // namespace rootbake::test

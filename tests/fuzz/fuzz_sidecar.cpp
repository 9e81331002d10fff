// libFuzzer target: the sidecar reader (rootbake/sidecar_loader.h, what verify and
// check read and what an engine links) on arbitrary bytes. It either reads a sidecar
// whose every track passed the reader's rules, or refuses with one message that
// starts with the file name and, as printed, stays on one line.
#include "cli/printable.h"
#include "rootbake/sidecar_loader.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace rootbake;

namespace {

void require(bool ok, const char* what, const std::string& detail = {}) {
    if (ok) return;
    std::fprintf(stderr, "rootbake_fuzz_sidecar: broken promise: %s: %s\n", what,
                 cli::printable(detail).c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name = "fuzz.rootmotion.json";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Result<Sidecar> read = parseSidecar(text, name);
    if (!read) {
        const std::string& message = read.error().message;
        require(message.rfind(name + ": ", 0) == 0, "message does not start with the file name", message);
        require(cli::isOneLine(cli::printable(message)), "printed message is not one plain line", message);
        return 0;
    }
    const double up = std::hypot(read->upAxis[0], read->upAxis[1], read->upAxis[2]);
    require(std::abs(up - 1.0) < 1e-9, "up axis not normalised");
    // What the reader promises an engine: every clip's track passes validateTrack, or is empty
    // for a clip of one pose.
    for (const SidecarClip& clip : read->clips) {
        const std::size_t n = clip.times.size();
        require(clip.translation.size() == 3 * n && (clip.yaw.empty() || clip.yaw.size() == n), "track sizes",
                clip.name);
        if (clip.duration > 0)
            require(runtime::validateTrack(clip.track()).empty(), "track breaks validateTrack", clip.name);
    }
    return 0;
}

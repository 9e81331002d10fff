// libFuzzer target: rootbake.json parsing on arbitrary bytes. It either reads a config
// whose rules layer into valid options for any clip name, or refuses with one message
// that starts with the file name and, as printed, stays on one line. Parsing is linear
// in the text (src/io/json_parse.h): a slow input is a finding (-timeout).
#include "cli/config.h"
#include "cli/printable.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace rootbake;

namespace {

void require(bool ok, const char* what, const std::string& detail = {}) {
    if (ok) return;
    std::fprintf(stderr, "rootbake_fuzz_config: broken promise: %s: %s\n", what,
                 cli::printable(detail).c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name = "rootbake.json";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Result<cli::ConfigFile> config = cli::parseConfig(text, name);
    if (!config) {
        const std::string& message = config.error().message;
        require(message.rfind(name + ": ", 0) == 0, "message does not start with the file name", message);
        require(cli::isOneLine(cli::printable(message)), "printed message is not one plain line", message);
        return 0;
    }
    // Every rule's glob against a few names; the options that result are in their ranges.
    for (const char* clip : {"walk", "", "strafe_left", "animations[3]"}) {
        const Options options = cli::clipOptions(&*config, {}, clip);
        require(std::isfinite(options.samplesPerSecond) && options.samplesPerSecond >= 1, "samplesPerSecond",
                std::to_string(options.samplesPerSecond));
        require(std::isfinite(options.minimumTravel) && options.minimumTravel >= 0, "minimumTravel");
        const double up = glm::length(options.upAxis);
        require(std::isfinite(up) && up > 0, "up axis");
    }
    return 0;
}

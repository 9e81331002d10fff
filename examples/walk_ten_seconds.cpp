// An engine's view of rootbake: read a baked asset's sidecar, then loop one clip for 10 s at
// 60 fps with the runtime moving a character node, as a game loop would. It checks what the
// character travelled against the sidecar's own numbers: whole loops times the stride, plus the
// track's value at the time into the last, partial cycle (read off the track here, linearly
// between its samples, as the sidecar defines it). C++17; needs nlohmann-json for the loader.
//
//   walk_ten_seconds out/biped.rootmotion.json [CLIP]     (CLIP: default "walk")
// Exit: 0 when the distance matches to 1e-6 of the character height, 1 otherwise.
#include <rootbake/runtime.h>
#include <rootbake/sidecar_loader.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace rt = rootbake::runtime;

namespace {

constexpr int kFramesPerSecond = 60;
constexpr int kSeconds = 10;

// The sidecar track's translation at clip time t, linear between samples.
rt::Vec3 trackAt(const rootbake::SidecarClip& clip, double t) {
    std::size_t k = 0;
    while (k + 2 < clip.times.size() && clip.times[k + 1] <= t) ++k;
    const double u = (t - clip.times[k]) / (clip.times[k + 1] - clip.times[k]);
    const double* a = &clip.translation[3 * k];
    const double* b = &clip.translation[3 * (k + 1)];
    return {a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2])};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: walk_ten_seconds SIDECAR [CLIP]\n");
        return 1;
    }
    const std::string clipName = argc == 3 ? argv[2] : "walk";
    const rootbake::Result<rootbake::Sidecar> sidecar = rootbake::loadSidecarFile(argv[1]);
    if (!sidecar) {
        std::fprintf(stderr, "error: %s\n", sidecar.error().message.c_str());
        return 1;
    }
    const rootbake::SidecarClip* clip = nullptr;
    for (const rootbake::SidecarClip& c : sidecar->clips)
        if (c.name == clipName) clip = &c;
    if (!clip || clip->duration <= 0 || clip->turn != 0) {
        std::fprintf(stderr, "error: %s: no clip \"%s\" that moves without turning\n", argv[1], clipName.c_str());
        return 1;
    }

    const rt::Track track = clip->track();
    rt::Playback playback = rt::play(track, rt::PlaybackOptions{});
    rt::NodeTransform character;
    for (int frame = 0; frame < kSeconds * kFramesPerSecond; ++frame)
        rt::applyToLocal(character, rt::advance(playback, track, 1.0 / kFramesPerSecond));

    // Computed from the elapsed time directly, never from the runtime's own bookkeeping.
    const double elapsed = kSeconds;
    const double loops = std::floor(elapsed / clip->duration);
    const rt::Vec3 partial = trackAt(*clip, elapsed - loops * clip->duration);
    const rt::Vec3 stride{clip->stride[0], clip->stride[1], clip->stride[2]};
    const rt::Vec3 expected = loops * stride + partial;
    const double error = rt::length(character.translation - expected);

    std::printf("%s: %d s at %d fps: travelled (%.6f, %.6f, %.6f), expected %g loops x stride + track(%.4f s) "
                "= (%.6f, %.6f, %.6f); off by %.3g\n",
                clipName.c_str(), kSeconds, kFramesPerSecond, character.translation.x, character.translation.y,
                character.translation.z, loops, elapsed - loops * clip->duration, expected.x, expected.y,
                expected.z, error);
    return error <= 1e-6 * clip->characterHeight ? 0 : 1;
}

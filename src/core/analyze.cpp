// analyzeClip: root, character space, height, turn, travel and contacts of a clip,
// by the rules of Babylon.js's RootMotionClip and the contact model of
// docs/analysis.md. It composes the stages of stages.h.
#include "stages.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace rootbake {

namespace core {

Status checkFinite(const Rig& rig, const Frames& f) {
    constexpr double kMaxCoordinate = 1e12;  // scene units: positions beyond are refused (squares stay finite)
    for (int i = 0; i < f.count; ++i)
        for (int n : f.nodes) {
            const glm::dvec3& p = f.at(i, n);
            if (!(std::abs(p.x) <= kMaxCoordinate && std::abs(p.y) <= kMaxCoordinate &&
                  std::abs(p.z) <= kMaxCoordinate))
                return Error{nodeLabel(rig, n) + " is at (" + num(p.x) + ", " + num(p.y) + ", " + num(p.z) +
                             ") at " + num(f.time(i)) + " s: beyond " + num(kMaxCoordinate) +
                             " units, the transforms overflow"};
        }
    return Ok{};
}

NodeChannels channelsOf(const Clip& clip, int node) {
    NodeChannels found;
    for (const Channel& c : clip.channels) {
        if (c.node != node) continue;
        if (c.path == Path::Translation) found.translation = &c;  // the last one wins, as in playback
        if (c.path == Path::Rotation) found.rotation = &c;
    }
    return found;
}

}  // namespace core

using core::Frames;
using core::horizontal;
using core::NodeChannels;

namespace {

constexpr double kMinimumHeight = 1e-9;  // scene units: a character height below is 0 (travel then in scene units)

struct SamplePlan {
    int samples = 0;               // analysis samples (frames - 1)
    double sampleLimit = 0.0;      // the most samples a clip may have
    double nodeSampleLimit = 0.0;  // the most node positions its frames may keep
};

// Bounded work and memory, whatever the key times say: the samples, and the positions
// (24 bytes each) that the frames may keep, at most every node at every sample.
Result<SamplePlan> planSamples(const Rig& rig, const Clip& clip, const Options& options, double duration, int root,
                               const NodeChannels& rootChannels) {
    SamplePlan plan;
    const double wanted = analysisSampleCount(clip, options);
    plan.sampleLimit = std::min(double(options.maxSamples), double(std::numeric_limits<int>::max() - 1));
    if (!(wanted <= plan.sampleLimit))
        return Error{"the clip lasts " + num(duration, 6) + " s: " + num(wanted, 6) + " analysis samples at " +
                     num(options.samplesPerSecond) + " per second, more than maxSamples (" +
                     std::to_string(options.maxSamples) + ")"};
    plan.samples = std::max(2, static_cast<int>(wanted));
    const double nodeSamples = double(plan.samples + 1) * rig.size();
    plan.nodeSampleLimit = double(options.maxSamples) * core::kNodeSamplesPerSample;
    if (nodeSamples > plan.nodeSampleLimit)
        return Error{std::to_string(plan.samples + 1) + " analysis samples x " + std::to_string(rig.size()) +
                     " nodes = " + num(nodeSamples, 6) + " node positions, more than " +
                     std::to_string(core::kNodeSamplesPerSample) + " x maxSamples (" + num(plan.nodeSampleLimit, 6) +
                     ")"};
    // removeMotion poses the root and its ancestors at each of the root's keys (three times
    // for CUBICSPLINE): bounded the same way.
    if (root >= 0) {
        int chain = 0;
        for (int n = root; n >= 0; n = rig.parent[n]) ++chain;
        double keys = 0.0;
        for (const Channel* c : {rootChannels.translation, rootChannels.rotation})
            if (c) keys += double(c->keyCount()) * (c->interpolation == Interpolation::CubicSpline ? 3 : 1);
        if (keys * chain > plan.nodeSampleLimit)
            return Error{"the root's keys (" + num(keys, 6) + " poses) x its " + std::to_string(chain) +
                         " ancestors and itself, more than " + std::to_string(core::kNodeSamplesPerSample) +
                         " x maxSamples (" + num(plan.nodeSampleLimit, 6) + ")"};
    }
    return plan;
}

// The root's travel and turn re-measured on `count` samples, its chain only posed: the
// track of a clip whose root keys are rewritten.
struct RootTrack {
    Frames frames;
    std::vector<glm::dvec3> translation;
    std::vector<double> yaw;  // empty without a turn
};
RootTrack measureRootTrack(const Rig& rig, const Clip& clip, const Options& options, const ClipAnalysis& out,
                           int count, bool turning) {
    RootTrack track;
    track.frames = core::sampleChainFrames(rig, clip, out.from, out.to, count, out.character, out.root, {});
    if (turning) track.yaw = core::measureRootYaw(track.frames, out.upAxis);
    const glm::dvec3 start = track.frames.at(0, out.root);
    const bool lateral = options.extractLateralMotion;
    track.translation.resize(track.frames.count);
    for (int i = 0; i < track.frames.count; ++i) {
        const double turn = turning ? track.yaw[i] : 0.0;
        track.translation[i] =
            out.removesRootTravel
                ? core::travelAt(track.frames.at(i, out.root), start, turn, turning, out.travelDirection, out.upAxis,
                                 lateral)
                : core::travelAt(out.rootStart, out.rootStart, turn, true, out.travelDirection, out.upAxis, lateral);
    }
    return track;
}

// The frames the contact stage reads: the root's chain and the chains of the contacts'
// candidates, at every sample.
Result<Frames> sampleContactFrames(const Rig& rig, const Clip& clip, const Options& options,
                                   const ClipAnalysis& out, int samples) {
    auto candidates =
        core::contactCandidates(rig, clip, options, out.root, out.character, out.upAxis, out.characterHeight);
    if (!candidates) return candidates.error();
    Frames frames = core::sampleChainFrames(rig, clip, out.from, out.to, samples, out.character, out.root,
                                            std::move(*candidates));
    if (Status s = core::checkFinite(rig, frames); !s) return s.error();
    return frames;
}

// The travel: the root's own, else the one its contacts deduce (the contacts' chains
// posed for them first when only the root's chain was). Sets the source and what goes with it.
Result<std::optional<core::Travel>> measureTravel(const core::StageInput& in, const NodeChannels& rootChannels,
                                                  Frames& frames, bool rootFirst, double supportTravel,
                                                  const std::vector<double>* turning, double minimumTravel,
                                                  ClipAnalysis& out) {
    const Options& options = in.options;
    if (options.source == SourceChoice::None) return std::optional<core::Travel>{};
    if (options.source != SourceChoice::FootContact && rootChannels.translation) {
        core::TravelReading reading =
            core::measureRootTravel(in, turning, minimumTravel, supportTravel, options.source == SourceChoice::Root);
        out.reason += "; " + reading.reason;
        if (reading.travel) {
            out.source = Source::Root;
            out.removesRootTravel = true;
            return std::move(reading.travel);
        }
        const double sway = core::kSwayTravel * (out.characterHeight > 0.0 ? out.characterHeight : 1.0);
        const bool shiftsOverSupport = reading.rootTravel >= minimumTravel;  // refused for its still feet
        if (options.source == SourceChoice::Auto && reading.rootTravel >= sway && !shiftsOverSupport) {
            out.reason += ": the root's keys carry the travel, so the feet are not read for another";
            return std::optional<core::Travel>{};
        }
    }
    if (options.source == SourceChoice::Root) return std::optional<core::Travel>{};
    // A clip that moves in position only parts inside a skeleton (a tread, the one limb of an
    // exporter's split) moves no character: its feet have no gait to read.
    const bool movesParts =
        in.root < 0 && std::any_of(in.clip.channels.begin(), in.clip.channels.end(), [&](const Channel& c) {
            return c.path == Path::Translation && !in.rig.isExpression(c.node);
        });
    if (movesParts && options.source != SourceChoice::FootContact) return std::optional<core::Travel>{};
    if (rootFirst) {
        auto contactFrames = sampleContactFrames(in.rig, in.clip, options, out, frames.count - 1);
        if (!contactFrames) return contactFrames.error();
        frames = std::move(*contactFrames);
    }
    auto contact = core::measureContactTravel(in, turning, minimumTravel, options.source == SourceChoice::FootContact);
    if (!contact) return contact.error();
    out.reason += "; " + contact->reading.reason;
    if (contact->reading.travel) {
        out.source = Source::FootContact;
        out.contacts = std::move(contact->contacts);
        out.evidence = std::move(contact->evidence);
        out.planting = std::move(contact->planting);
    }
    return std::move(contact->reading.travel);
}

// A turn that is not in the root's travel turns the character about the root's starting
// point, so a root off the character's axis does not swing at every loop; a turn with no
// travel at all is a turn on the spot, whose travel is the pivot's chord.
void turnAboutRootStart(std::optional<std::vector<glm::dvec3>>& translation, const std::vector<double>& yaw,
                        const Options& options, ClipAnalysis& out) {
    if (!translation) {
        // The root keeps its travel and sway, only the turn is taken out.
        translation.emplace(yaw.size(), glm::dvec3(0.0));
        out.source = Source::Root;
        out.reason += "; source root: a turn on the spot";
    }
    if (out.removesRootTravel) return;
    for (size_t i = 0; i < yaw.size(); ++i)
        (*translation)[i] += core::travelAt(out.rootStart, out.rootStart, yaw[i], true, out.travelDirection,
                                            out.upAxis, options.extractLateralMotion);
    out.pivots = true;
    // Babylon keeps whatever direction a rejected contact measurement left behind, which
    // can make the speed of a clip that does not travel negative.
    const glm::dvec3 chord = horizontal(translation->back(), out.upAxis);
    if (out.source == Source::Root && glm::length(chord) > 0.0) out.travelDirection = glm::normalize(chord);
}

// The motion track, the stride and the speeds. A root whose keys are rewritten has its
// track sampled on its keys, so that the track and the in-place keys give the source root
// back exactly at every key (between samples a runtime interpolates the track linearly).
// Stride and turn are the same on either count; a contact measurement keeps Babylon's
// samples, which it matches.
void fillTrack(const Rig& rig, const Clip& clip, const Options& options, const NodeChannels& rootChannels,
               const Frames& frames, const SamplePlan& plan, std::optional<std::vector<glm::dvec3>> translation, std::vector<double> yaw,
               ClipAnalysis& out) {
    const bool turning = !yaw.empty();
    const Frames* trackFrames = &frames;
    RootTrack keyTrack;
    const bool rewritesRoot = out.removesRootTravel || (out.pivots && out.source == Source::Root);
    const int keyAlignedSamples =
        rewritesRoot ? core::keyAlignedSampleCount(rootChannels, out.from, out.to,
                                                   options.samplesPerSecond, plan.samples,
                                                   std::min(plan.sampleLimit, plan.nodeSampleLimit / rig.size() - 1.0))
                     : plan.samples;
    if (translation && rewritesRoot && keyAlignedSamples != plan.samples) {
        keyTrack = measureRootTrack(rig, clip, options, out, keyAlignedSamples, turning);
        translation = std::move(keyTrack.translation);
        yaw = std::move(keyTrack.yaw);
        trackFrames = &keyTrack.frames;
    }
    out.track.times.resize(trackFrames->count);
    for (int i = 0; i < trackFrames->count; ++i) out.track.times[i] = trackFrames->time(i) - out.from;
    if (translation) {
        out.track.translation = std::move(*translation);
        out.track.yaw = turning ? std::move(yaw) : std::vector<double>(trackFrames->count, 0.0);
        out.stride = out.track.translation.back();
        out.turn = out.track.yaw.back();
    } else {
        out.source = Source::None;
        out.extractsRotation = false;
        out.travelDirection = {0, 0, 1};
        out.lateralDrift = glm::dvec3(0.0);
        out.track.translation.assign(trackFrames->count, glm::dvec3(0.0));
        out.track.yaw.assign(trackFrames->count, 0.0);
        if (options.source != SourceChoice::None) out.reason += "; source none: no travel and no turn";
    }
    if (out.source != Source::FootContact) out.contacts.clear();
    out.strideLength = glm::dot(out.stride, out.travelDirection);
    out.averageSpeed = out.duration > 0.0 ? out.strideLength / out.duration : 0.0;
    out.averageAngularSpeed = out.duration > 0.0 ? out.turn / out.duration : 0.0;
}

}  // namespace

double sampleCap(const Clip& clip) {
    double keys = 0.0;
    for (const Channel& c : clip.channels) keys += c.keyCount();
    return kSamplesPerKey * keys;
}

double analysisSampleCount(const Clip& clip, const Options& options) {
    const double wanted = std::ceil(std::max(0.0, clip.end) * options.samplesPerSecond);
    return std::max(2.0, std::min(wanted, sampleCap(clip)));
}

const char* contactRuleName(ContactRule rule) { return rule == ContactRule::Babylon ? "babylon" : "stance"; }

const char* sourceName(Source source) {
    switch (source) {
        case Source::Root: return "root";
        case Source::FootContact: return "footContact";
        case Source::None: break;
    }
    return "none";
}

namespace {

// The up axis, normalized, after the options that every stage relies on are checked.
Result<glm::dvec3> checkedUpAxis(const Options& options) {
    const double upLength = glm::length(options.upAxis);
    if (!(upLength > 0.0) || !std::isfinite(upLength)) return Error{"the up axis has no direction"};
    if (!(options.samplesPerSecond > 0.0) || !std::isfinite(options.samplesPerSecond))
        return Error{"samplesPerSecond " + num(options.samplesPerSecond) + " is not a positive number"};
    return options.upAxis / upLength;
}

// The clip's frame of reference: its root (with the reason line begun), its character node
// and the root's channels. False when the clip animates no transform node (out says so).
Result<bool> chooseFrameOfReference(const Rig& rig, const Clip& clip, const Options& options,
                                    const glm::dvec3& up, NodeChannels& rootChannels, ClipAnalysis& out) {
    const std::vector<int> animated = core::animatedNodes(rig, clip);
    if (animated.empty()) {
        out.reason = "clip animates no transform node";
        return false;
    }
    auto root = core::chooseRoot(rig, clip, options, animated, up);
    if (!root) return root.error();
    out.root = root->root;
    out.reason = root->reason;
    const int anchor = out.root >= 0 ? out.root : animated.front();
    auto character = core::chooseCharacter(rig, clip, options, anchor);
    if (!character) return character.error();
    out.character = *character;
    rootChannels = out.root >= 0 ? core::channelsOf(clip, out.root) : NodeChannels{};
    if (options.source == SourceChoice::Root && !rootChannels.translation)
        return Error{"source root was asked for, but the root \"" + nodeLabel(rig, anchor) +
                     "\" has no position animation"};
    return true;
}

struct SampledClip {
    SamplePlan plan;
    Frames frames;
    bool rootFirst = false;  // frames hold the root's chain only, not yet the contacts' candidates
    double supportTravel = -1.0;  // the farthest a contact candidate moves over the clip; -1: none
};

// How far the body's support moves over the clip, from the first to the last frame (every
// node posed): the farthest horizontal move of a contact candidate (the legs' soles). -1 with
// no candidate, or under Babylon's rule, which does not read it.
double measureSupportTravel(const Rig& rig, const Clip& clip, const Options& options, const ClipAnalysis& out,
                            const Frames& ends) {
    if (options.contactRule != ContactRule::Stance) return -1.0;
    auto candidates =
        core::contactCandidates(rig, clip, options, out.root, out.character, out.upAxis, out.characterHeight);
    if (!candidates || candidates->empty()) return -1.0;
    double farthest = 0.0;
    for (int c : *candidates)
        farthest = std::max(farthest, glm::length(horizontal(ends.at(1, c) - ends.at(0, c), out.upAxis)));
    return farthest;
}

// The clip sampled over its range (as playback plays it, from its start, 0, to its last
// key), and the character's height; out gets the range and the height.
Result<SampledClip> sampleClip(const Rig& rig, const Clip& clip, const Options& options,
                               const NodeChannels& rootChannels, ClipAnalysis& out) {
    out.from = 0.0;
    out.to = std::max(0.0, clip.end);
    out.duration = out.to - out.from;
    SampledClip sampled;
    auto plan = planSamples(rig, clip, options, out.duration, out.root, rootChannels);
    if (!plan) return plan.error();
    sampled.plan = *plan;
    // The whole rig is posed at the first and last frames only (the height). At every
    // sample, only what the stages read: the root's chain, and the chains of the contacts'
    // candidates when the contacts are read. A clip whose travel may be in the root's
    // keys has its contacts' chains posed only if they are read after all.
    const Frames ends = core::sampleFrames(rig, clip, out.from, out.to, 1, out.character, out.root);
    // The character's height at rest, the same for each of its clips; Babylon's rule measures
    // it at the clip's first frame, as Babylon does. A rig whose rest pose is collapsed (joints
    // left at their parents' origins) has only the clip's.
    const int base = out.root >= 0 ? out.root : out.character;
    if (options.contactRule == ContactRule::Stance)
        out.characterHeight = core::measureRestHeight(rig, base, out.character, out.upAxis);
    if (options.contactRule != ContactRule::Stance || out.characterHeight < kMinimumHeight)
        out.characterHeight = core::measureHeight(rig, ends, base, out.upAxis);
    // A flat rig under a rotation measures rounding noise (1e-18), not a height: thresholds
    // scaled by it would take noise for travel.
    if (out.characterHeight < kMinimumHeight) out.characterHeight = 0.0;
    sampled.rootFirst = out.root >= 0 && rootChannels.translation &&
                        options.source != SourceChoice::FootContact && options.source != SourceChoice::None;
    // Read only where the root's own travel is: what it is held against.
    if (sampled.rootFirst) sampled.supportTravel = measureSupportTravel(rig, clip, options, out, ends);
    if (sampled.rootFirst || options.source == SourceChoice::None) {
        sampled.frames =
            core::sampleChainFrames(rig, clip, out.from, out.to, plan->samples, out.character, out.root, {});
        if (Status s = core::checkFinite(rig, sampled.frames); !s) return s.error();
    } else {
        auto frames = sampleContactFrames(rig, clip, options, out, plan->samples);
        if (!frames) return frames.error();
        sampled.frames = std::move(*frames);
    }
    if (Status s = core::checkFinite(rig, ends); !s) return s.error();
    return sampled;
}

// A clip that animates no transform node (morph weights only): it lasts from 0 to its last
// key, as info and players say, and its track is zero at the analysis samples, as that of a
// clip whose nodes turn but do not travel.
Result<ClipAnalysis> stillClip(const Rig& rig, const Clip& clip, const Options& options, ClipAnalysis& out) {
    out.from = 0.0;
    out.to = std::max(0.0, clip.end);
    out.duration = out.to - out.from;
    if (!(out.duration > 0.0)) return out;
    auto plan = planSamples(rig, clip, options, out.duration, -1, NodeChannels{});
    if (!plan) return plan.error();
    const int count = plan->samples + 1;
    out.track.times.resize(count);
    for (int i = 0; i < count; ++i) out.track.times[i] = out.duration * i / (count - 1);
    out.track.translation.assign(count, glm::dvec3(0.0));
    out.track.yaw.assign(count, 0.0);
    return out;
}

}  // namespace

namespace {

Result<ClipAnalysis> analyzeOn(const Rig& rig, const Clip& clip, const Options& options) {
    ClipAnalysis out;
    auto up = checkedUpAxis(options);
    if (!up) return up.error();
    out.upAxis = *up;
    NodeChannels rootChannels;
    auto animates = chooseFrameOfReference(rig, clip, options, *up, rootChannels, out);
    if (!animates) return animates.error();
    if (!*animates) return stillClip(rig, clip, options, out);
    auto sampled = sampleClip(rig, clip, options, rootChannels, out);
    if (!sampled) return sampled.error();
    Frames& frames = sampled->frames;
    const double minimumTravel = options.minimumTravel * (out.characterHeight > 0.0 ? out.characterHeight : 1.0);
    // The stages read the frames by reference: resampled by measureTravel, they see the new ones.
    const core::StageInput in{rig, clip, options, frames, out.root, out.character, *up, out.characterHeight,
                              out.duration};

    if (options.source == SourceChoice::None) out.reason += "; source none: forced";
    core::Turn turn = core::measureTurn(in);
    if (!turn.reason.empty()) out.reason += "; " + turn.reason;
    const std::vector<double>* turning = turn.yaw.empty() ? nullptr : &turn.yaw;
    out.extractsRotation = turning != nullptr;

    auto travel = measureTravel(in, rootChannels, frames, sampled->rootFirst, sampled->supportTravel, turning,
                                minimumTravel, out);
    if (!travel) return travel.error();
    std::optional<std::vector<glm::dvec3>> translation;
    if (*travel) {
        out.travelDirection = (*travel)->direction;
        out.lateralDrift = (*travel)->lateralDrift;
        translation = std::move((*travel)->translation);
    }
    out.rootStart = out.root >= 0 ? frames.at(0, out.root) : glm::dvec3(0.0);
    if (turning) turnAboutRootStart(translation, turn.yaw, options, out);
    fillTrack(rig, clip, options, rootChannels, frames, sampled->plan, std::move(translation), std::move(turn.yaw), out);
    core::addWarnings(out, options, rootChannels, minimumTravel);
    return out;
}

}  // namespace

namespace {

Result<ClipAnalysis> analyzeBody(const Rig& rig, const Clip& clip, const Options& options) {
    // rootbake's contacts are points of the body's mesh, posed as nodes of their own
    // (docs/analysis.md, "Contacts"); Babylon's rule reads joints.
    if (options.contactRule != ContactRule::Stance || !rig.hasSurface()) return analyzeOn(rig, clip, options);
    const Rig body = core::withGroundPoints(rig);
    auto out = analyzeOn(body, clip, options);
    if (!out) return out;
    for (int& contact : out->contacts) contact = core::jointOf(body, contact);
    for (ContactPlanting& planting : out->planting) planting.node = core::jointOf(body, planting.node);
    return out;
}

}  // namespace

Result<ClipAnalysis> analyzeClip(const Rig& rig, const Clip& clip, const Options& options) {
    auto out = analyzeBody(rig, clip, options);
    if (out) out->markers = markClip(rig, *out, options);
    return out;
}

}  // namespace rootbake

// The body's mesh as the analysis reads it (Rig::surface): which joints move vertices,
// and the sole of what each moves. Read only: no mesh is ever re-encoded.
#include "gltf/internal.h"

#include <glm/mat4x4.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rootbake::gltf {

namespace {

// x the mesh's height at rest: vertices this close to the lowest of those a joint moves are
// its sole (a flat foot's, a hoof's, a tread's underside), 3.5 cm on a 1.75 m character.
constexpr double kSoleBand = 0.02;
// Vertices read for the surface, at most (every k-th beyond): a sole's centre needs a fraction
// of a character's 10k-100k, and memory stays 56 MiB whatever a file's instancing says.
constexpr std::uint64_t kMaxSurfaceVertices = 1u << 20;

// A vertex, with the joint it moves with.
struct CarriedVertex {
    int joint = -1;      // rig index
    glm::dvec3 inJoint;  // in the joint's space
    double height = 0;   // scene +Y (glTF's up) at rest
};

std::vector<glm::dmat4> restScene(const Rig& rig) {
    std::vector<glm::dmat4> scene(rig.size());
    for (int i = 0; i < rig.size(); ++i) {
        const glm::dmat4 m = toMatrix(rig.rest[i]);
        scene[i] = rig.parent[i] < 0 ? m : scene[rig.parent[i]] * m;
    }
    return scene;
}

// A primitive's KHR_draco_mesh_compression object, or nullptr.
const Json* dracoOf(const Json& primitive) {
    const Json* ext = member(primitive, "extensions");
    return ext && ext->is_object() ? member(*ext, "KHR_draco_mesh_compression") : nullptr;
}

// What stops a primitive's vertices from being read, or nullptr: a view without bytes is
// read when it is meshopt-compressed (decoded then), a Draco primitive from its own bytes.
const char* unreadable(const Json& primitive, const Layout& layout, const Json* views,
                       const Json& attributes) {
    if (dracoOf(primitive)) return nullptr;
    for (const char* name : {"POSITION", "JOINTS_0", "WEIGHTS_0"})
        if (const Json* a = member(attributes, name)) {
            const AccessorLayout& accessor = layout.accessors[a->get<std::size_t>()];
            for (int v : viewsOf(accessor))
                if (v >= 0 && !holdsBytes(layout, v) && !meshoptOf((*views)[std::size_t(v)]))
                    return missingBytes(layout, accessor);
        }
    return nullptr;
}

struct SurfaceBuilder {
    const Layout& layout;
    const std::vector<io::SharedBytes>& buffers;
    const Json& document;
    const Rig& rig;
    std::vector<std::string>& warnings;
    std::vector<glm::dmat4> scene;
    std::vector<CarriedVertex> carried;
    std::vector<float> positions, joints, weights;  // decoded, storage reused
    std::vector<std::vector<float>> inverseBinds;   // per skin, decoded on first use
    // Meshopt-compressed views, decoded for the primitive (or skin) being read, then let go:
    // memory holds one primitive's views, not the body's.
    std::vector<std::vector<std::uint8_t>> decoded;
    std::vector<std::size_t> held;  // the views `decoded` holds
    std::string failure;            // why a compressed view cannot be read: the joints stand for the body

    SurfaceBuilder(const Layout& l, const std::vector<io::SharedBytes>& b, const Json& d, const Rig& r,
                   std::vector<std::string>& w)
        : layout(l),
          buffers(b),
          document(d),
          rig(r),
          warnings(w),
          scene(restScene(r)),
          inverseBinds(r.skins.size()),
          decoded(l.views.size()) {}

    // Decodes the meshopt-compressed views accessor `a` (at `at`) reads; false, with `failure`
    // set, when one cannot be.
    bool decodeViews(const AccessorLayout& a, const Where& at) {
        for (int v : viewsOf(a))
            if (v >= 0) held.push_back(std::size_t(v));  // released with the primitive, decoded or not
        const std::string why =
            decodeMeshoptViewsOf(document, layout, buffers, a, kMaxSurfaceVertices, decoded);
        if (why.empty()) return true;
        failure = at.str() + ": " + why;
        return false;
    }

    void release() {
        for (std::size_t v : held) std::vector<std::uint8_t>().swap(decoded[v]);
        held.clear();
    }

    void carry(int joint, const glm::dvec3& inJoint) {
        carried.push_back({joint, inJoint, (scene[joint] * glm::dvec4(inJoint, 1.0)).y});
    }

    // Per joint, the centre of its sole: of the vertices it moves, those within kSoleBand of
    // its lowest at rest (empty for a joint that moves none).
    std::vector<std::vector<glm::dvec3>> soles() const {
        double bottom = std::numeric_limits<double>::infinity(), top = -bottom;
        std::vector<double> lowest(std::size_t(rig.size()), std::numeric_limits<double>::infinity());
        for (const CarriedVertex& v : carried) {
            bottom = std::min(bottom, v.height);
            top = std::max(top, v.height);
            lowest[std::size_t(v.joint)] = std::min(lowest[std::size_t(v.joint)], v.height);
        }
        const double band = kSoleBand * (top - bottom);
        std::vector<glm::dvec3> sum(std::size_t(rig.size()), glm::dvec3(0.0));
        std::vector<std::uint64_t> count(std::size_t(rig.size()), 0);
        for (const CarriedVertex& v : carried)
            if (v.height <= lowest[std::size_t(v.joint)] + band) {
                sum[std::size_t(v.joint)] += v.inJoint;
                ++count[std::size_t(v.joint)];
            }
        std::vector<std::vector<glm::dvec3>> sole(std::size_t(rig.size()));
        for (std::size_t j = 0; j < sole.size(); ++j)
            if (count[j] > 0) sole[j].push_back(sum[j] / double(count[j]));
        return sole;
    }

    // Each skin joint's position in the bind pose, in the scene: the inverse of its inverse
    // bind matrix, placed as exporters place it: as it is (glTF shows a skinned mesh so bound
    // at its vertices' own coordinates), or under the transform of a node showing the mesh
    // (exporters that bind in the mesh's space: a Z-up mesh turned upright by its node). Of
    // these, the placement that puts the joints nearest where they are at rest. A skin whose
    // matrices were not read (no weighted mesh) leaves its joints at rest; a joint in two skins
    // keeps the first's.
    void addBind(std::size_t skin, const std::vector<int>& meshNodes, std::vector<glm::dvec3>& bind,
                 std::vector<std::uint8_t>& bound) const {
        const std::vector<float>& matrices = inverseBinds[skin];
        const std::vector<int>& skinJoints = rig.skins[skin];
        if (skinJoints.empty() || matrices.size() < skinJoints.size() * 16) return;
        std::vector<glm::dvec3> local(skinJoints.size());
        for (std::size_t j = 0; j < skinJoints.size(); ++j) {
            glm::dmat4 inverseBind(1.0);
            for (int c = 0; c < 16; ++c) inverseBind[c / 4][c % 4] = matrices[j * 16 + std::size_t(c)];
            local[j] = glm::dvec3(glm::inverse(inverseBind)[3]);
        }
        auto misfit = [&](const glm::dmat4& placement) {
            double sum = 0.0;
            for (std::size_t j = 0; j < skinJoints.size(); ++j) {
                const glm::dvec3 d = glm::dvec3(placement * glm::dvec4(local[j], 1.0)) -
                                     glm::dvec3(scene[std::size_t(skinJoints[j])][3]);
                sum += glm::dot(d, d);
            }
            return sum;
        };
        glm::dmat4 placement(1.0);
        double best = misfit(placement);
        for (int node : meshNodes)
            if (const double m = misfit(scene[std::size_t(node)]); m < best)
                best = m, placement = scene[std::size_t(node)];
        if (!std::isfinite(best)) return;
        for (std::size_t j = 0; j < skinJoints.size(); ++j) {
            const int joint = skinJoints[j];
            if (bound[std::size_t(joint)]) continue;
            bind[std::size_t(joint)] = glm::dvec3(placement * glm::dvec4(local[j], 1.0));
            bound[std::size_t(joint)] = 1;
        }
    }

    std::vector<float>& decode(const Json& attributes, const char* name, std::vector<float>& out) {
        out.clear();
        if (const Json* a = member(attributes, name))
            decodeAccessor(layout, layout.accessors[a->get<std::size_t>()], buffers, out, decoded);
        return out;
    }

    // The nearest ancestor-or-self without a mesh: what a rigid mesh rides on.
    int carrierOf(int node) const {
        while (node >= 0 && rig.hasMesh[node]) node = rig.parent[node];
        return node;
    }

    // A rigid mesh (a robot's part): its vertices move with the joint it hangs from.
    void addRigid(int meshNode, std::uint64_t every) {
        const int carrier = carrierOf(meshNode);
        if (carrier < 0) return;  // a mesh at the top of the scene is no body part
        const glm::dmat4 toCarrier = glm::inverse(scene[carrier]) * scene[meshNode];
        for (std::size_t v = 0; v + 2 < positions.size(); v += 3 * every) {
            const glm::dvec4 p(positions[v], positions[v + 1], positions[v + 2], 1.0);
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
            carry(carrier, glm::dvec3(toCarrier * p));
        }
    }

    // A skinned mesh: each vertex moves with the joint of its largest weight (a rigid
    // approximation of the skin, accurate where one joint dominates: feet, soles, hooves).
    Status addSkinned(const Json& skin, const Where& skinAt, std::size_t skinIndex,
                      const std::vector<int>& skinJoints, const Where& at, std::uint64_t every) {
        std::vector<float>& matrices = inverseBinds[skinIndex];
        if (!matrices.empty() || skinJoints.empty()) return addWeighted(matrices, skinJoints, at, every);
        int ibm = -1;
        ROOTBAKE_TRY(
            getIndex(skin, skinAt, "inverseBindMatrices", false, layout.accessors.size(), "accessors", ibm));
        if (ibm >= 0) {
            const AccessorLayout& a = layout.accessors[std::size_t(ibm)];
            const Where ibmAt(skinAt, "inverseBindMatrices");
            if (!decodeViews(a, ibmAt)) return Ok{};  // `failure` says why
            if (const char* why = missingBytes(layout, a, decoded)) return fail(ibmAt, why);
            if (a.components != 16 || a.count < skinJoints.size())
                return fail(Where(skinAt, "inverseBindMatrices"),
                            "accessors[" + n(std::size_t(ibm)) + "] holds " + n(a.count) + " elements of " +
                                n(std::size_t(a.components)) + " numbers: " + n(skinJoints.size()) +
                                " MAT4 expected, one per joint");
            decodeAccessor(layout, a, buffers, matrices, decoded);
        } else {
            matrices.assign(skinJoints.size() * 16, 0.0f);  // identity: the joints' bind is the scene's
            for (std::size_t j = 0; j < skinJoints.size(); ++j)
                for (int d = 0; d < 4; ++d) matrices[j * 16 + std::size_t(d) * 5] = 1.0f;
        }
        return addWeighted(matrices, skinJoints, at, every);
    }

    Status addWeighted(const std::vector<float>& matrices, const std::vector<int>& skinJoints,
                       const Where& at, std::uint64_t every) {
        const std::size_t vertices = positions.size() / 3;
        if (joints.size() < vertices * 4 || weights.size() < vertices * 4) return Ok{};
        std::uint64_t outside = 0;
        for (std::size_t v = 0; v < vertices; v += every) {
            int best = -1;
            float bestWeight = 0.0f;
            for (int k = 0; k < 4; ++k) {
                const float w = weights[v * 4 + std::size_t(k)];
                if (!(w > bestWeight)) continue;  // NaN and non-positive weights move nothing
                best = k;
                bestWeight = w;
            }
            if (best < 0) continue;
            const float joint = joints[v * 4 + std::size_t(best)];
            if (!(joint >= 0.0f) || joint >= float(skinJoints.size())) {
                ++outside;
                continue;
            }
            const std::size_t j = std::size_t(joint);
            const glm::dvec4 p(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2], 1.0);
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
            glm::dmat4 inverseBind(1.0);
            for (int c = 0; c < 16; ++c) inverseBind[c / 4][c % 4] = matrices[j * 16 + std::size_t(c)];
            const glm::dvec3 inJoint(inverseBind * p);
            if (!std::isfinite(inJoint.x) || !std::isfinite(inJoint.y) || !std::isfinite(inJoint.z)) continue;
            carry(skinJoints[j], inJoint);
        }
        if (outside > 0)
            warnings.push_back(at.str() + ": " + n(outside) +
                               " vertices weigh most on a joint the skin does not have (" +
                               n(skinJoints.size()) + " joints): left out of the body's ground points");
        return Ok{};
    }
};

// A node that shows a mesh, with its skin (-1: rigid).
struct Instance {
    int node = -1;  // rig index
    int skin = -1;
};
using MeshInstances = std::vector<std::vector<Instance>>;  // per mesh

// Rig::skins: each skin's joints as rig indices.
void readSkins(const Json* skins, Rig& rig) {
    rig.skins.assign(sizeOf(skins), {});
    for (std::size_t s = 0; s < sizeOf(skins); ++s)
        for (const Json& joint : (*skins)[s]["joints"])
            rig.skins[s].push_back(rig.rigIndexOfGltf[joint.get<std::size_t>()]);
}

// The nodes that show each mesh. A skinned mesh shown twice with one skin is the same body:
// read once.
MeshInstances meshInstances(const Json* nodes, const Json* meshes, const Rig& rig) {
    MeshInstances shown(sizeOf(meshes));
    for (int node = 0; node < rig.size(); ++node) {
        if (!rig.hasMesh[node]) continue;
        const Json& j = (*nodes)[std::size_t(rig.gltfIndex[node])];
        const Json* skin = member(j, "skin");
        Instance instance{node, skin ? int(skin->get<std::size_t>()) : -1};
        std::vector<Instance>& list = shown[j["mesh"].get<std::size_t>()];
        if (instance.skin < 0 || std::none_of(list.begin(), list.end(),
                                              [&](const Instance& i) { return i.skin == instance.skin; }))
            list.push_back(instance);
    }
    return shown;
}

// Every primitive's accessors must hold bytes, or be meshopt-compressed (decoded later): any
// other leaves the joints to stand for the body (0, with rig.surfaceNote); one without a
// bufferView (zeros) is no surface. The vertices read are at most kMaxSurfaceVertices, every
// k-th beyond: k.
std::uint64_t surfaceStride(const Json* meshes, const Layout& layout, const Json* views,
                            const MeshInstances& shown, Rig& rig) {
    std::uint64_t total = 0;
    for (std::size_t m = 0; m < shown.size(); ++m) {
        if (shown[m].empty()) continue;
        const Json& primitives = (*meshes)[m]["primitives"];
        for (std::size_t p = 0; p < primitives.size(); ++p) {
            const Json& attributes = primitives[p]["attributes"];
            if (const char* why = unreadable(primitives[p], layout, views, attributes)) {
                rig.surfaceNote = "meshes[" + n(m) + "].primitives[" + n(p) + "] " + why +
                                  ": the joints stand for the body";
                return 0;
            }
            if (const Json* a = member(attributes, "POSITION"))
                total += layout.accessors[a->get<std::size_t>()].count * shown[m].size();
        }
    }
    return std::max<std::uint64_t>(1, (total + kMaxSurfaceVertices - 1) / kMaxSurfaceVertices);
}

// A Draco primitive's vertices into the builder; false, with builder.failure set, when they
// cannot be decoded.
bool readDracoPrimitive(SurfaceBuilder& builder, const Json& draco, const AccessorLayout* position,
                        const Where& at, bool& weighted) {
    DecodedVertices vertices;
    // Draco may split a vertex its accessor counts once: bounded by the surface's budget.
    const std::uint64_t most = std::max<std::uint64_t>(position ? position->count : 0, kMaxSurfaceVertices);
    if (const char* why = decodeDracoVertices(draco, builder.layout, builder.buffers, most, vertices)) {
        builder.failure = at.str() + " " + why;
        return false;
    }
    builder.positions = std::move(vertices.positions);
    builder.joints = std::move(vertices.joints);
    builder.weights = std::move(vertices.weights);
    weighted = vertices.weighted;
    return true;
}

enum class PrimitiveRead { Read, Skipped, Failed };  // Failed: builder.failure says why

// A primitive's POSITION (and JOINTS_0, WEIGHTS_0 when `weighted`) into the builder.
PrimitiveRead readPrimitive(SurfaceBuilder& builder, const Json& primitive, const Where& at, bool& weighted) {
    const Json& attributes = primitive["attributes"];
    const auto accessor = [&](const char* name) -> const AccessorLayout* {
        const Json* a = member(attributes, name);
        return a ? &builder.layout.accessors[a->get<std::size_t>()] : nullptr;
    };
    const AccessorLayout* position = accessor("POSITION");
    const AccessorLayout* joints = accessor("JOINTS_0");
    const AccessorLayout* weights = accessor("WEIGHTS_0");
    weighted = false;
    if (const Json* draco = dracoOf(primitive))
        return readDracoPrimitive(builder, *draco, position, at, weighted) ? PrimitiveRead::Read
                                                                           : PrimitiveRead::Failed;
    if (!position || position->view < 0) return PrimitiveRead::Skipped;  // no vertices, or zeros only
    if (position->components != 3 || (joints && joints->components != 4) ||
        (weights && weights->components != 4)) {
        builder.warnings.push_back(at.str() +
                                   ": POSITION is not VEC3, or JOINTS_0/WEIGHTS_0 not VEC4: left "
                                   "out of the body's ground points");
        return PrimitiveRead::Skipped;
    }
    weighted = joints && weights && joints->view >= 0 && weights->view >= 0;
    const Where attributesAt(at, "attributes");
    if (!builder.decodeViews(*position, Where(attributesAt, "POSITION")) ||
        (weighted && (!builder.decodeViews(*joints, Where(attributesAt, "JOINTS_0")) ||
                      !builder.decodeViews(*weights, Where(attributesAt, "WEIGHTS_0")))))
        return PrimitiveRead::Failed;
    builder.decode(attributes, "POSITION", builder.positions);
    if (weighted) {
        builder.decode(attributes, "JOINTS_0", builder.joints);
        builder.decode(attributes, "WEIGHTS_0", builder.weights);
    }
    return PrimitiveRead::Read;
}

// Each primitive of each mesh shown, read and carried by each node that shows it; stops with
// builder.failure set when a compressed one cannot be read. anyMesh: one was read.
Status addMeshes(SurfaceBuilder& builder, const Json* meshes, const Json* skins, const MeshInstances& shown,
                 std::uint64_t every, bool& anyMesh) {
    const Where allMeshes(kRoot, "meshes"), allSkins(kRoot, "skins");
    for (std::size_t m = 0; m < shown.size(); ++m) {
        if (shown[m].empty()) continue;
        const Where meshAt(allMeshes, m);
        const Where primitivesAt(meshAt, "primitives");
        const Json& primitives = (*meshes)[m]["primitives"];
        for (std::size_t p = 0; p < primitives.size(); ++p) {
            const Where at(primitivesAt, p);
            bool weighted = false;
            const PrimitiveRead read = readPrimitive(builder, primitives[p], at, weighted);
            if (read == PrimitiveRead::Failed) return Ok{};
            if (read == PrimitiveRead::Skipped) continue;
            anyMesh = true;
            for (const Instance& instance : shown[m]) {
                if (instance.skin < 0) {
                    builder.addRigid(instance.node, every);
                } else if (weighted) {  // a skinned mesh without weights moves with no joint
                    const std::size_t s = std::size_t(instance.skin);
                    ROOTBAKE_TRY(builder.addSkinned((*skins)[s], Where(allSkins, s), s, builder.rig.skins[s],
                                                    at, every));
                    if (!builder.failure.empty()) return Ok{};
                }
            }
            builder.release();
        }
    }
    return Ok{};
}

// Rig::bind: each node's bind position, from its skins' inverse bind matrices where it has
// them (none: cleared).
void readBindPose(SurfaceBuilder& builder, const MeshInstances& shown, Rig& rig) {
    std::vector<std::uint8_t> bound(std::size_t(rig.size()), 0);
    rig.bind.resize(std::size_t(rig.size()));
    for (int node = 0; node < rig.size(); ++node)
        rig.bind[std::size_t(node)] = glm::dvec3(builder.scene[node][3]);
    for (std::size_t skin = 0; skin < rig.skins.size(); ++skin) {
        std::vector<int> meshNodes;
        for (const std::vector<Instance>& instances : shown)
            for (const Instance& instance : instances)
                if (instance.skin == int(skin)) meshNodes.push_back(instance.node);
        builder.addBind(skin, meshNodes, rig.bind, bound);
    }
    if (std::none_of(bound.begin(), bound.end(), [](std::uint8_t b) { return b != 0; })) rig.bind.clear();
}

}  // namespace

Status buildSurface(const Json& document, const Layout& layout, const std::vector<io::SharedBytes>& buffers,
                    Rig& rig, std::vector<std::string>& warnings) {
    const Json *nodes = nullptr, *meshes = nullptr, *skins = nullptr;
    ROOTBAKE_TRY(getCollection(document, "nodes", nodes));
    ROOTBAKE_TRY(getCollection(document, "meshes", meshes));
    ROOTBAKE_TRY(getCollection(document, "skins", skins));
    const Json* views = nullptr;
    ROOTBAKE_TRY(getCollection(document, "bufferViews", views));
    readSkins(skins, rig);
    const MeshInstances shown = meshInstances(nodes, meshes, rig);
    const std::uint64_t every = surfaceStride(meshes, layout, views, shown, rig);
    if (every == 0) return Ok{};

    SurfaceBuilder builder(layout, buffers, document, rig, warnings);
    bool anyMesh = false;
    ROOTBAKE_TRY(addMeshes(builder, meshes, skins, shown, every, anyMesh));
    if (!builder.failure.empty()) {
        // A compressed mesh that cannot be read: a file's defect or a codec rootbake lacks, said
        // once, and the joints stand for the body.
        rig.surface.clear();
        rig.surfaceNote = builder.failure + ": the joints stand for the body";
        warnings.push_back(rig.surfaceNote);
        return Ok{};
    }
    if (!anyMesh) {
        rig.surfaceNote = "the asset has no mesh: the joints stand for the body";
        return Ok{};
    }
    rig.surface = builder.soles();
    readBindPose(builder, shown, rig);
    return Ok{};
}

}  // namespace rootbake::gltf

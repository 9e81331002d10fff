# Run by scripts/blender-root-bone inside Blender (blender -b --python THIS -- INPUT OUTPUT SIDECAR ...):
# imports each --root-bone output and its input with Blender's own glTF importer and checks
#  1. the hierarchy: the armature has the sidecar's root bone, as the parent of the clips' root (the
#     hips), or above it (a bone of the input reused); nodes of no skin become objects, so there the
#     object of that name must be the root's parent or above it;
#  2. the poses: for every clip (Blender action, matched by glTF animation index), at up to 8 of the
#     source root's keys spread over the clip, every node's evaluated world position (bone heads, objects)
#     in the output against the input's: equal for `root` and `none` clips; for `footContact` clips the
#     nodes under the root bone moved by the sidecar's track at that time (linear between samples, turned
#     by its yaw), the others equal (all equal under a kept root bone, the clip's root). Not compared: a
#     reused bone (it carries the motion) and skinned meshes' nodes (glTF ignores their transform). Tolerance: 1e-4 of the clip's characterHeight (1e-4 scene units
#     without a height).
# An output Blender cannot import is a failure unless it cannot import the input either (Debian's
# Blender has no Draco). Exit 1 on any failure.
import bisect
import json
import math
import struct
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses numpy.bool, gone from numpy 1.24

import bpy
from mathutils import Quaternion, Vector

args = sys.argv[sys.argv.index("--") + 1:]
TIMES_PER_CLIP = 8
TOLERANCE = 1e-4  # of characterHeight


def say(line):
    # On a line of its own: Blender's importer may leave its last line unended.
    sys.stdout.write("\n" + line + "\n")
    sys.stdout.flush()


def float32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def import_gltf(path):
    """Imports path into an empty scene. Returns (importer state, None) or (None, problem).
    The importer's state (its `gltf`: the glTF's nodes and animations, node index -> Blender bone or
    object, and each animation's NLA track name) is caught as it creates the animations, before any
    action is assigned, so the rest pose can be recorded there."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # Looked up after each reset, which may load the add-on's modules anew.
    from io_scene_gltf2.blender.imp import gltf2_blender_scene
    scene_class = gltf2_blender_scene.BlenderScene
    create_animations = scene_class.__dict__["create_animations"].__func__
    caught = {}

    def catch(gltf):
        caught["gltf"] = gltf
        caught["rest"] = record_rest(gltf)
        create_animations(gltf)

    scene_class.create_animations = staticmethod(catch)
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    except Exception as e:  # the importer's own failure
        return None, "import failed: " + str(e).strip().splitlines()[-1]
    finally:
        scene_class.create_animations = staticmethod(create_animations)
    if "gltf" not in caught:
        return None, "the importer never reached its animations"
    return caught, None


def vnode_kind(gltf, index):
    from io_scene_gltf2.blender.imp.gltf2_blender_vnode import VNode
    vnode = gltf.vnodes[index]
    if vnode.type == VNode.Bone:
        return "bone", gltf.vnodes[vnode.bone_arma].blender_object, vnode.blender_bone_name
    if vnode.type == VNode.Object:
        return "object", vnode.blender_object, vnode.blender_object.name
    return None, None, None


TRS = ("location", "rotation_mode", "rotation_quaternion", "rotation_euler", "scale")


def record_rest(gltf):
    """The local TRS the importer gave every bone and object: the glTF rest pose. An action leaves what
    it does not key as the last action left it, so each clip starts from this."""
    rest = []
    for index in range(len(gltf.data.nodes or [])):
        kind, obj, name = vnode_kind(gltf, index)
        if kind is None:
            continue
        target = obj.pose.bones[name] if kind == "bone" else obj
        rest.append((target, {p: getattr(target, p).copy() if hasattr(getattr(target, p), "copy") else getattr(target, p)
                              for p in TRS}))
    return rest


def play(caught, animation):
    """Puts every object at rest and assigns the actions of the glTF animation `animation`."""
    gltf = caught["gltf"]
    for target, values in caught["rest"]:
        for p in TRS:
            setattr(target, p, values[p])
    track = gltf.data.animations[animation].track_name
    for obj in bpy.context.scene.objects:
        data = obj.animation_data
        if data is None:
            continue
        data.action = None
        for t in data.nla_tracks:
            if t.name == track and t.strips:
                data.action = t.strips[0].action


def key_times(gltf, animation, node):
    """The glTF key times (s) of `node` in the animation (of every channel when it has none)."""
    from io_scene_gltf2.io.imp.gltf2_io_binary import BinaryData
    anim = gltf.data.animations[animation]
    channels = [c for c in anim.channels if c.target.node == node] or list(anim.channels)
    times = set()
    for c in channels:
        times.update(k[0] for k in BinaryData.get_data_from_accessor(gltf, anim.samplers[c.sampler].input))
    return sorted(times)


def spread(times, count):
    if len(times) <= count:
        return times
    return [times[round(i * (len(times) - 1) / (count - 1))] for i in range(count)]


def world_positions(caught, nodes, times):
    """{node: [Vector per time]}: each node's evaluated world position (a bone's head) at each time,
    set on the frame the importer put that key on, so an evaluation at a key is that key."""
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    where = {n: vnode_kind(caught["gltf"], n) for n in nodes}
    result = {n: [] for n in nodes}
    for t in times:
        frame = float32(t * fps)  # as the importer stores a key's frame (float)
        whole = math.floor(frame)
        scene.frame_set(whole, subframe=frame - whole)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for n, (kind, obj, name) in where.items():
            evaluated = obj.evaluated_get(depsgraph)
            if kind == "bone":
                result[n].append(evaluated.matrix_world @ evaluated.pose.bones[name].head)
            else:
                result[n].append(evaluated.matrix_world.translation.copy())
    return result


def lighten():
    """Drops what the poses do not need (skinning, shape keys): evaluating a frame is then cheap."""
    for obj in bpy.context.scene.objects:
        obj.modifiers.clear()
        keys = getattr(obj.data, "shape_keys", None)
        if keys is not None and keys.animation_data is not None:
            keys.animation_data.action = None


def descendants(gltf, node):
    found, todo = set(), [node]
    while todo:
        for child in gltf.data.nodes[todo.pop()].children or []:
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def track_motion(clip, t, to_blender):
    """The track's (translation, yaw) at clip time t, linear between samples, in Blender's space."""
    track = clip["track"]
    times = track["times"]
    s = min(max(t - clip["from"], times[0]), times[-1])
    j = min(max(bisect.bisect_right(times, s), 1), len(times) - 1)
    i = j - 1 if len(times) > 1 else 0
    w = (s - times[i]) / (times[j] - times[i]) if times[j] > times[i] else 0.0
    a, b = track["translation"][i], track["translation"][j]
    translation = to_blender([a[k] + (b[k] - a[k]) * w for k in range(3)])
    yaws = track["yaw"]
    yaw = yaws[i] + (yaws[j] - yaws[i]) * w if yaws else 0.0
    return Vector(translation), yaw


def check_hierarchy(sidecar, gltf):
    bone_name = sidecar["rootBone"]["name"]

    # The name Blender gave the node: an unnamed one ("nodes[2]" in the sidecar) gets the importer's own.
    def blender_name(ref):
        name = vnode_kind(gltf, ref["index"])[2] if ref.get("index") is not None else None
        return name or ref["name"]

    roots = {blender_name(c["rootNode"]) for c in sidecar["clips"]
             if c["rootNode"] and c["rootNode"]["name"] != bone_name}
    # A skinned rig's joints become bones of an armature; nodes of no skin become objects.
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE" and bone_name in o.data.bones]
    if armatures:
        bone, kind = armatures[0].data.bones[bone_name], "bone"
    elif bone_name in bpy.data.objects:
        bone, kind = bpy.data.objects[bone_name], "object"
    else:
        return "no bone or object " + repr(bone_name), None
    children = {c.name for c in bone.children}
    if bone.parent is not None and bone.parent.name in roots:
        return repr(bone_name) + " is under the root " + repr(bone.parent.name), None
    if not children and not (kind == "object" and bone.type == "ARMATURE"):
        return repr(bone_name) + " has no child", None
    if not roots or roots & children:
        return None, kind + " " + repr(bone_name) + " is the parent of " + repr(sorted(roots))
    # A bone of the rig reused (docs/sidecar.md): above the root, not always its parent.
    if all(bone_name in ancestors(root) for root in roots):
        return None, kind + " " + repr(bone_name) + " is above " + repr(sorted(roots))
    return repr(bone_name) + " has children " + repr(sorted(children)) + ", not the root " + repr(sorted(roots)), None


def ancestors(name):
    """The names above a bone or object: its parent bones, then its armature and that object's parents."""
    found, obj = [], bpy.data.objects.get(name)
    for armature in bpy.data.objects:
        if armature.type == "ARMATURE" and name in armature.data.bones:
            bone = armature.data.bones[name].parent
            while bone is not None:
                found.append(bone.name)
                bone = bone.parent
            obj = armature
            found.append(obj.name)
            break
    obj = obj.parent if obj is not None else None
    while obj is not None:
        found.append(obj.name)
        obj = obj.parent
    return found


def source_poses(source, sidecar):
    """Imports the input; returns ({clip: (times, {node: positions})}, node names) or a problem."""
    caught, problem = import_gltf(source)
    if problem:
        return None, None, problem
    lighten()
    gltf = caught["gltf"]
    nodes = [n for n in range(len(gltf.data.nodes or [])) if vnode_kind(gltf, n)[0] is not None]
    names = {n: vnode_kind(gltf, n)[2] for n in nodes}
    poses = {}
    for i, clip in enumerate(sidecar["clips"]):
        root = clip["rootNode"]["index"] if clip["rootNode"] else None
        times = spread(key_times(gltf, i, root), TIMES_PER_CLIP)
        play(caught, i)
        poses[i] = (times, world_positions(caught, nodes, times))
    return poses, names, None


def compare_poses(caught, sidecar, poses, names):
    """Compares the poses of the output (imported as caught) with the input's; returns (problems, summary)."""
    lighten()
    gltf = caught["gltf"]
    bone = sidecar["rootBone"]["index"]
    moved = descendants(gltf, bone)
    problems, worst, compared = [], (0.0, ""), 0
    for i, clip in enumerate(sidecar["clips"]):
        times, source = poses[i]
        animation = clip["animation"]
        if clip["characterNode"] is not None:
            problems.append("clip %r: characterNode %r: only scene space is checked" % (clip["name"], clip["characterNode"]["name"]))
            continue
        # A bone of the input reused carries the motion now (it is not where the input has it); a
        # skinned mesh's node moves with it, but glTF ignores that node's transform (the joints count).
        present = [n for n in source if vnode_kind(gltf, n)[0] is not None]
        missing = sorted(set(source) - set(present))
        nodes = [n for n in present if n != bone and gltf.data.nodes[n].skin is None]
        if missing:
            problems.append("clip %r: nodes %r are not in the output" % (clip["name"], missing[:5]))
        play(caught, animation)
        output = world_positions(caught, nodes, times)
        height = clip["characterHeight"]
        scale = height if height > 0 else 1.0
        tolerance = TOLERANCE * scale
        up = Vector(gltf.loc_gltf_to_blender(sidecar["upAxis"])).normalized()
        for k, t in enumerate(times):
            translation, yaw = Vector((0, 0, 0)), 0.0
            # A kept root bone (the clip's root) keeps its keys: nothing is added to a footContact clip.
            kept = clip["rootNode"] is not None and clip["rootNode"]["index"] == bone
            if clip["source"] == "footContact" and not kept:
                translation, yaw = track_motion(clip, t, gltf.loc_gltf_to_blender)
            turn = Quaternion(up, yaw)
            for n in nodes:
                expected = source[n][k]
                if n in moved and not kept:
                    expected = turn @ expected + translation
                distance = (output[n][k] - expected).length
                compared += 1
                if distance / scale > worst[0]:
                    worst = (distance / scale, "%s/%s t=%.4f" % (clip["name"], names[n], t))
                if distance > tolerance:
                    problems.append("clip %r (%s) node %r (nodes[%d]) at t=%.5f s: %.3g from %s (tolerance %.3g)" % (
                        clip["name"], clip["source"], names[n], n, t, distance,
                        "the source moved by the track" if n in moved and clip["source"] == "footContact" and not kept else "the source",
                        tolerance))
    summary = "%d clips, %d node positions within 1e-4 of the height; worst %s" % (
        len(sidecar["clips"]), compared, "%.2g of the height (%s)" % worst if worst[0] > 0 else "0")
    return problems, summary


failed = skipped = 0
for source, glb, sidecar_path in zip(args[0::3], args[1::3], args[2::3]):
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    poses, names, source_problem = source_poses(source, sidecar)
    caught, problem = import_gltf(glb)
    if problem is not None and source_problem is not None:
        skipped += 1
        say("skip " + glb + ": Blender cannot import its input either: " + problem)
        continue
    problems, summary = [], None
    if problem is None:
        problem, hierarchy = check_hierarchy(sidecar, caught["gltf"])
    if problem is None and source_problem is not None:
        problem = "the input does not import, the output does: " + source_problem
    if problem is not None:
        problems.append(problem)
    else:
        problems, summary = compare_poses(caught, sidecar, poses, names)
    if problems:
        failed += 1
        say("FAIL " + glb + ": " + problems[0])
        for p in problems[1:10]:
            say("FAIL   " + p)
        if len(problems) > 10:
            say("FAIL   and %d more" % (len(problems) - 10))
    else:
        say("ok   " + glb + ": " + hierarchy + "; " + summary)
say("blender-root-bone: %d passed, %d failed, %d skipped" % (len(args) // 3 - failed - skipped, failed, skipped))
sys.stdout.flush()
sys.exit(1 if failed else 0)

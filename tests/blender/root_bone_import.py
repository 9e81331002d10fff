# Run by scripts/blender-root-bone inside Blender (blender -b --python THIS -- INPUT OUTPUT SIDECAR ...):
# imports each --root-bone output with Blender's own glTF importer and checks that the armature
# has the sidecar's root bone, as the parent of the clips' root (the hips); nodes of no skin become
# objects, so there the object of that name must be the root's parent. An output Blender cannot
# import is a failure unless it cannot import the input either (Debian's Blender has no Draco).
import json
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses numpy.bool, gone from numpy 1.24

import bpy

args = sys.argv[sys.argv.index("--") + 1:]

def import_problem(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    except Exception as e:  # the importer's own failure
        return "import failed: " + str(e).strip().splitlines()[-1]
    return None


failed = skipped = 0
for source, glb, sidecar_path in zip(args[0::3], args[1::3], args[2::3]):
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    bone_name = sidecar["rootBone"]["name"]
    roots = {c["rootNode"]["name"] for c in sidecar["clips"] if c["rootNode"] and c["rootNode"]["name"] != bone_name}
    problem = import_problem(glb)
    if problem is not None and import_problem(source) is not None:
        skipped += 1
        print("skip " + glb + ": Blender cannot import its input either: " + problem)
        continue
    if problem is None:
        # A skinned rig's joints become bones of an armature; nodes of no skin become objects.
        armatures = [o for o in bpy.data.objects if o.type == "ARMATURE" and bone_name in o.data.bones]
        if armatures:
            bone = armatures[0].data.bones[bone_name]
            kind = "bone"
        elif bone_name in bpy.data.objects:
            bone = bpy.data.objects[bone_name]
            kind = "object"
        else:
            bone = None
            problem = "no bone or object " + repr(bone_name)
        if bone is not None:
            children = {c.name for c in bone.children}
            if bone.parent is not None and bone.parent.name in roots:
                problem = repr(bone_name) + " is under the root " + repr(bone.parent.name)
            elif roots and not roots & children:
                problem = repr(bone_name) + " has children " + repr(sorted(children)) + ", not the root " + repr(sorted(roots))
            elif not children:
                problem = repr(bone_name) + " has no child"
    if problem:
        failed += 1
        print("FAIL " + glb + ": " + problem)
    else:
        print("ok   " + glb + ": " + kind + " " + repr(bone_name) + " is the parent of " + repr(sorted(roots)))
print("blender-root-bone: %d passed, %d failed, %d skipped" % (len(args) // 3 - failed - skipped, failed, skipped))
sys.stdout.flush()
sys.exit(1 if failed else 0)

# Run by scripts/blender-root-bone inside Blender (blender -b --python THIS -- GLB SIDECAR ...):
# imports each --root-bone output with Blender's own glTF importer and checks that the armature
# has the sidecar's root bone, as the parent of the clips' root (the hips).
import json
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses numpy.bool, gone from numpy 1.24

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
failed = 0
for glb, sidecar_path in zip(args[0::2], args[1::2]):
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    bone_name = sidecar["rootBone"]["name"]
    roots = {c["rootNode"]["name"] for c in sidecar["clips"] if c["rootNode"] and c["rootNode"]["name"] != bone_name}
    bpy.ops.wm.read_factory_settings(use_empty=True)
    problem = None
    try:
        bpy.ops.import_scene.gltf(filepath=glb)
    except Exception as e:  # the importer's own failure is a failure here too
        problem = "import failed: " + str(e).splitlines()[0]
    if problem is None:
        armatures = [o for o in bpy.data.objects if o.type == "ARMATURE" and bone_name in o.data.bones]
        if not armatures:
            problem = "no armature has a bone " + repr(bone_name)
        else:
            bone = armatures[0].data.bones[bone_name]
            children = {c.name for c in bone.children}
            if bone.parent is not None and bone.parent.name in roots:
                problem = repr(bone_name) + " is under the root " + repr(bone.parent.name)
            elif roots and not roots & children:
                problem = repr(bone_name) + " has children " + repr(sorted(children)) + ", not the root " + repr(sorted(roots))
            elif not children:
                problem = repr(bone_name) + " has no child bone"
    if problem:
        failed += 1
        print("FAIL " + glb + ": " + problem)
    else:
        print("ok   " + glb + ": " + repr(bone_name) + " is the parent of " + repr(sorted(roots)))
print("blender-root-bone: %d passed, %d failed" % (len(args) // 2 - failed, failed))
sys.stdout.flush()
sys.exit(1 if failed else 0)

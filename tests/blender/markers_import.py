# Run by scripts/blender-markers inside Blender (blender -b --python THIS -- BAKED SIDECAR):
# the markers of each clip with footsteps (the sidecar's `markers`, its nulls left out) must reach
# Blender as the animation's extras.rootbake.markers:
#  1. Blender's own glTF reader (io_scene_gltf2's glTFImporter, which the importer runs) must parse them,
#     equal to the sidecar's, on the animation the sidecar names, and nothing on the other animations;
#  2. where Blender's importer carries animation extras onto actions as custom properties, every action
#     of such an animation (its NLA track is named after it) must carry them. Blender 3.4 (Debian 12's)
#     carries none onto actions: the check says so and is skipped.
# Exit 1 on any failure.
import json
import logging
import math
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses numpy.bool, gone from numpy 1.24

import bpy
from io_scene_gltf2.io.imp.gltf2_io_gltf import glTFImporter

baked, sidecar_path = sys.argv[sys.argv.index("--") + 1:]
failures = 0


def say(line):
    sys.stdout.write("\n" + line + "\n")
    sys.stdout.flush()


def fail(line):
    global failures
    failures += 1
    say("FAIL " + line)


def without_nulls(value):
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def to_python(value):
    # Custom properties come back as IDPropertyGroup / IDPropertyArray.
    if hasattr(value, "to_dict"):
        return {k: to_python(v) for k, v in value.to_dict().items()}
    if hasattr(value, "to_list"):
        return [to_python(v) for v in value.to_list()]
    if isinstance(value, (list, tuple)):
        return [to_python(v) for v in value]
    if isinstance(value, dict):
        return {k: to_python(v) for k, v in value.items()}
    return value


sidecar = json.load(open(sidecar_path))
expected = {}  # animation index -> markers, for the clips with footsteps
for clip in sidecar["clips"]:
    if clip["markers"]["events"]:
        expected[clip["animation"]] = without_nulls(clip["markers"])
if not expected:
    fail(f"{sidecar_path}: no clip has footsteps to look for")

# 1. Blender's glTF reader.
reader = glTFImporter(baked, {"import_user_extensions": [], "loglevel": logging.ERROR})
reader.read()
for index, animation in enumerate(reader.data.animations or []):
    extras = animation.extras if isinstance(animation.extras, dict) else {}
    got = extras.get("rootbake", {}).get("markers")
    want = expected.get(index)
    if want is None and got is not None:
        fail(f"animations[{index}] {animation.name!r}: extras.rootbake without footsteps in the sidecar")
    elif want is not None and not same(got, want):
        fail(f"animations[{index}] {animation.name!r}: extras.rootbake.markers {got!r} is not the sidecar's {want!r}")
    elif want is not None:
        say(f"ok reader: animations[{index}] {animation.name!r}: {len(want['events'])} events, "
            f"phase anchors {want.get('phase', {}).get('anchors')}")

# 2. The importer: custom properties on the actions.
bpy.ops.import_scene.gltf(filepath=baked)
names = {index: reader.data.animations[index].name for index in expected}
carried = [action for action in bpy.data.actions if "rootbake" in action.keys()]
if not carried:
    say(f"skip importer: Blender {bpy.app.version_string}'s glTF importer puts no animation extras on actions "
        "(custom properties); its reader has them (above)")
else:
    for obj in bpy.data.objects:
        if not obj.animation_data:
            continue
        for track in obj.animation_data.nla_tracks:
            for index, name in names.items():
                if track.name != name:
                    continue
                for strip in track.strips:
                    got = to_python(strip.action.get("rootbake", {})).get("markers")
                    if not same(got, expected[index]):
                        fail(f"action {strip.action.name!r} of {name!r}: custom property rootbake.markers {got!r}")
                    else:
                        say(f"ok importer: action {strip.action.name!r} carries {name!r}'s markers")

say(f"blender-markers: {failures} failures")
sys.exit(1 if failures else 0)

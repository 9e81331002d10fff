#!/usr/bin/env python3
"""Seeds for the sidecar and rootbake.json fuzz targets.

  tests/fuzz/text_seeds.py SIDECAR_DIR CONFIG_DIR

Sidecars: a walk that travels and turns and an idle of one pose, as bake writes them
(schema rootbake.sidecar/1), and variants (a root bone, no yaw, the markers and distance of a
rootbake.sidecar/2). Configs: the README's
example and one of every option key.
"""
import json, os, sys

sidecars, configs = sys.argv[1], sys.argv[2]
os.makedirs(sidecars, exist_ok=True)
os.makedirs(configs, exist_ok=True)

def node(name, index):
    return {"name": name, "index": index}

walk = {"name": "walk", "animation": 2, "source": "root", "rootNode": node("Hips", 1), "characterNode": None,
        "contactNodes": [node("LeftToe", 18), node("RightToe", 24)], "from": 0.0, "to": 1.0, "duration": 1.0,
        "characterHeight": 1.5, "travelDirection": [0.0, 0.0, 1.0], "stride": [0.0, 0.0, 1.2],
        "strideLength": 1.2, "turn": 0.2, "extractsRotation": True, "averageSpeed": 1.2,
        "averageAngularSpeed": 0.2,
        "track": {"sampleRate": 2.0, "times": [0.0, 0.5, 1.0],
                  "translation": [[0.0, 0.0, 0.0], [0.0, 0.0, 0.6], [0.0, 0.0, 1.2]], "yaw": [0.0, 0.1, 0.2]},
        "contacts": [{"node": node("LeftToe", 18), "planted": [[0.0, 0.6]]},
                     {"node": node("RightToe", 24), "planted": [[0.0, 0.1], [0.5, 1.0]]}],
        "loop": {"positionError": 0.0}, "reason": "root: Hips", "warnings": []}
idle = dict(walk, name="idle", animation=0, source="none", rootNode=None, contactNodes=[], duration=0.0, to=0.0,
            stride=[0.0, 0.0, 0.0], strideLength=0.0, turn=0.0, extractsRotation=False, averageSpeed=0.0,
            averageAngularSpeed=0.0, track={"sampleRate": 0.0, "times": [], "translation": [], "yaw": []},
            contacts=[])

def sidecar(clips, **extra):
    d = {"schema": "rootbake.sidecar/1", "generator": "rootbake fuzz seed", "input": "walk.glb",
         "inputSha256": "0" * 64, "output": "walk.inplace.glb", "upAxis": [0.0, 1.0, 0.0],
         "units": "metres (glTF scene units)"}
    d.update(extra)
    d["clips"] = clips
    return d

no_yaw = dict(walk, track={k: v for k, v in walk["track"].items() if k != "yaw"})
markers = {"events": [{"time": 0.0, "type": "down", "side": "left", "contact": node("LeftToe", 18)},
                      {"time": 0.1, "type": "up", "side": "right", "contact": node("RightToe", 24)},
                      {"time": 0.5, "type": "down", "side": "right", "contact": node("RightToe", 24)},
                      {"time": 0.6, "type": "up", "side": "left", "contact": node("LeftToe", 18)}],
           "phase": {"contact": node("LeftToe", 18), "anchors": [0.0]}, "stop": None}
walk2 = dict(walk, track=dict(walk["track"], distance=[0.0, 0.6, 1.2]), markers=markers)
idle2 = dict(idle, track=dict(idle["track"], distance=[]),
             markers={"events": [], "phase": {"contact": None, "anchors": []}, "stop": None})
for name, doc in {"walk-idle": sidecar([walk, idle]), "root-bone": sidecar([walk], rootBone=node("root", 0)),
                  "no-yaw": sidecar([no_yaw]), "empty": sidecar([]),
                  "markers": sidecar([walk2, idle2], schema="rootbake.sidecar/2")}.items():
    with open(os.path.join(sidecars, name + ".rootmotion.json"), "w") as f:
        json.dump(doc, f, indent=2)

readme = {"defaults": {"upAxis": "+Y", "minimumTravel": 0.1},
          "clips": {"strafe*": {"extractLateralMotion": True}, "turn_*": {"extractRotation": True},
                    "idle*": {"source": "none"}}}
every = {"defaults": {"rootNode": "Hips", "characterNode": "Armature", "contactNodes": ["LeftToe", "RightToe"],
                      "source": "footContact", "extractRotation": "auto", "extractLateralMotion": False,
                      "upAxis": [0, 0, 1], "minimumTravel": 0.05, "minimumTurn": 15, "directionSnapAngle": 5,
                      "samplesPerSecond": 30, "contactRule": "babylon"},
         "clips": {"[a-c]?walk": {"source": "root"}, "*": {"upAxis": "-Z"}}}
for name, doc in {"readme": readme, "every-key": every}.items():
    with open(os.path.join(configs, name + ".json"), "w") as f:
        json.dump(doc, f, indent=2)
print(f"text seeds: {len(os.listdir(sidecars))} sidecars, {len(os.listdir(configs))} configs", file=sys.stderr)

#!/usr/bin/env python3
"""Tiny hand-made seeds for the fuzzer: loader features the corpus has few of.

  tests/fuzz/tiny_seeds.py OUT_DIR

Each is a small valid asset (a root, hips and two feet; one clip) exercising one
feature: interleaved byteStride, normalized BYTE/SHORT rotations and quantized
translations, a sparse output without a bufferView, a node matrix, a morph
weights channel, STEP and CUBICSPLINE samplers, the same asset as a GLB, and a
foot's mesh whose positions are an EXT_meshopt_compression stream.
"""
import base64, json, os, struct, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def rig():
    return [{"name": "root", "children": [1]},
            {"name": "hips", "translation": [0, 1, 0], "children": [2, 3]},
            {"name": "footL", "translation": [0.2, -1, 0]},
            {"name": "footR", "translation": [-0.2, -1, 0]}]

def document(nodes, buf, views, accessors, samplers, channels, extra=None):
    d = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
         "buffers": [{"byteLength": len(buf)}], "bufferViews": views, "accessors": accessors,
         "animations": [{"name": "clip", "samplers": samplers, "channels": channels}]}
    if extra:
        d.update(extra)
    return d

def gltf(d, buf):
    d = json.loads(json.dumps(d))
    d["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(buf).decode()
    return json.dumps(d, separators=(",", ":")).encode()

def glb(d, buf):
    text = json.dumps(d, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    buf += b"\0" * (-len(buf) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(buf), 0x004E4942) + buf
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body

def f32(*v):
    return struct.pack("<%df" % len(v), *v)

seeds = {}
times = f32(0, 0.5, 1)

# Interleaved: time and translation in one 16-byte stride.
buf = b"".join(f32(t, 0, 1, 2 * t) for t in (0, 0.5, 1))
seeds["stride.gltf"] = gltf(document(rig(), buf,
    [{"buffer": 0, "byteLength": len(buf), "byteStride": 16}],
    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
     {"bufferView": 0, "byteOffset": 4, "componentType": 5126, "count": 3, "type": "VEC3"}],
    [{"input": 0, "output": 1}], [{"sampler": 0, "target": {"node": 1, "path": "translation"}}]), buf)

# Quantized: SHORT normalized rotation, BYTE translation (KHR_mesh_quantization).
rot = struct.pack("<12h", 0, 0, 0, 32767, 0, 23170, 0, 23170, 0, 32767, 0, 0)
tra = struct.pack("<12b", 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0)
buf = times + rot + tra
seeds["quantized.gltf"] = gltf(document(rig(), buf,
    [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 24},
     {"buffer": 0, "byteOffset": 36, "byteLength": 12}],
    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
     {"bufferView": 1, "componentType": 5122, "normalized": True, "count": 3, "type": "VEC4"},
     {"bufferView": 2, "componentType": 5120, "count": 3, "type": "VEC3"}],
    [{"input": 0, "output": 1, "interpolation": "STEP"}, {"input": 0, "output": 2}],
    [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
     {"sampler": 1, "target": {"node": 1, "path": "translation"}}],
    {"extensionsUsed": ["KHR_mesh_quantization"], "extensionsRequired": ["KHR_mesh_quantization"]}), buf)

# Sparse output on zeros: keys 1 and 2 substituted.
buf = times + struct.pack("<2B", 1, 2) + b"\0\0" + f32(0, 1, 1, 0, 1, 2)
d = document(rig(), buf,
    [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 2},
     {"buffer": 0, "byteOffset": 16, "byteLength": 24}],
    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
     {"componentType": 5126, "count": 3, "type": "VEC3",
      "sparse": {"count": 2, "indices": {"bufferView": 1, "componentType": 5121},
                 "values": {"bufferView": 2}}}],
    [{"input": 0, "output": 1}], [{"sampler": 0, "target": {"node": 1, "path": "translation"}}])
seeds["sparse.gltf"] = gltf(d, buf)
seeds["sparse.glb"] = glb(d, buf)

# CUBICSPLINE with tangents, a matrix on the root, and a morph weights channel.
nodes = rig()
nodes[0]["matrix"] = [0.01, 0, 0, 0, 0, 0, -0.01, 0, 0, 0.01, 0, 0, 0, 0, 0, 1]
nodes[2]["mesh"] = 0
cubic = f32(*([0, 0, 0, 0, 1, 0, 0, 0, 1] + [0, 0, 1, 0, 1, 1, 0, 0, 1] + [0, 0, 1, 0, 1, 2, 0, 0, 0]))
weights = f32(0, 1, 0.5, 0.5, 1, 0)
positions = f32(0, 0, 0, 1, 0, 0, 0, 1, 0)
buf = times + cubic + weights + positions
seeds["cubic-matrix-weights.gltf"] = gltf(document(nodes, buf,
    [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 108},
     {"buffer": 0, "byteOffset": 120, "byteLength": 24}, {"buffer": 0, "byteOffset": 144, "byteLength": 36}],
    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
     {"bufferView": 1, "componentType": 5126, "count": 9, "type": "VEC3"},
     {"bufferView": 2, "componentType": 5126, "count": 6, "type": "SCALAR"},
     {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}],
    [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}, {"input": 0, "output": 2}],
    [{"sampler": 0, "target": {"node": 1, "path": "translation"}},
     {"sampler": 1, "target": {"node": 2, "path": "weights"}}],
    {"meshes": [{"primitives": [{"attributes": {"POSITION": 3},
                                 "targets": [{"POSITION": 3}, {"POSITION": 3}]}], "weights": [0, 0]}]}), buf)

def meshopt_attributes(data, stride):
    """An EXT_meshopt_compression ATTRIBUTES stream (version 0) of data's elements, every group
    of 16 deltas stored as whole bytes (header bits 3): larger than an encoder's, but any
    decoder reads it (the extension's Appendix A)."""
    count = len(data) // stride
    out = bytearray([0xA0])
    previous = data[:stride]  # the baseline: the first element, kept in the tail
    block = min((8192 // stride) & ~15, 256)
    for start in range(0, count, block):
        n = min(count - start, block)
        groups = (n + 15) // 16
        for k in range(stride):
            header = bytearray((groups + 3) // 4)
            for g in range(groups):
                header[g // 4] |= 3 << (2 * (g % 4))
            out += header
            last = previous[k]
            for g in range(groups):
                for e in range(start + 16 * g, start + 16 * g + 16):
                    delta = (data[e * stride + k] - last) & 0xFF if e < start + n else 0
                    out.append(((~(delta << 1)) if delta & 0x80 else (delta << 1)) & 0xFF)
                    if e < start + n:
                        last = data[e * stride + k]
        previous = data[(start + n - 1) * stride:(start + n) * stride]
    out += bytes(max(0, 32 - stride)) + data[:stride]
    return bytes(out)

# A box under the left foot, rigid, its positions meshopt-compressed into a fallback buffer
# with no data (as gltfpack writes them): the surface decodes them.
nodes = rig()
nodes[2]["children"] = [4]
nodes.append({"name": "shoe", "mesh": 0})
box = f32(*[c for i in range(8) for c in (0.1 * (i & 1) - 0.05, 0.05 * (i >> 1 & 1) - 0.05, 0.2 * (i >> 2) - 0.05)])
stream = meshopt_attributes(box, 12)
buf = times + f32(0, 1, 0, 0, 1, 1, 0, 1, 2) + stream
d = document(nodes, buf,
    [{"buffer": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 12, "byteLength": 36},
     {"buffer": 1, "byteLength": 96,
      "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": 48, "byteLength": len(stream),
                                                 "byteStride": 12, "count": 8, "mode": "ATTRIBUTES"}}}],
    [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"},
     {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"},
     {"bufferView": 2, "componentType": 5126, "count": 8, "type": "VEC3",
      "min": [-0.05, -0.05, -0.05], "max": [0.05, 0, 0.15]}],
    [{"input": 0, "output": 1}], [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
    {"meshes": [{"primitives": [{"attributes": {"POSITION": 2}}]}],
     "extensionsUsed": ["EXT_meshopt_compression"], "extensionsRequired": ["EXT_meshopt_compression"]})
d["buffers"].append({"byteLength": 96, "extensions": {"EXT_meshopt_compression": {"fallback": True}}})
seeds["meshopt.gltf"] = gltf(d, buf)
seeds["meshopt.glb"] = glb(d, buf)

for name, data in seeds.items():
    with open(os.path.join(out, "tiny-" + name), "wb") as f:
        f.write(data)
print(f"seed: {len(seeds)} tiny seeds", file=sys.stderr)

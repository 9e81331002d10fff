// Runs root_bone.mjs (same arguments) with Babylon's MeshoptCompression decoding through the npm
// package meshoptimizer (0.18.1, the decoder Babylon would otherwise fetch from its CDN), so that
// gltfpack-compressed files load offline. Decoded on this thread: node has no Web Workers.
import { MeshoptCompression } from "@babylonjs/core/index.js";
import { MeshoptDecoder } from "meshoptimizer/meshopt_decoder.module.js";

await MeshoptDecoder.ready;
MeshoptCompression._Default = {
    decodeGltfBufferAsync: async (source, count, stride, mode, filter) => {
        const target = new Uint8Array(count * stride);
        MeshoptDecoder.decodeGltfBuffer(target, count, stride, source, mode, filter);
        return target;
    },
};
await import("./root_bone.mjs");

// Run by scripts/babylon-root-bone from the folder holding Babylon.js's node_modules:
//   node root_bone.mjs INPUT OUTPUT SIDECAR [INPUT OUTPUT SIDECAR ...]
// Loads each bake --root-bone output and its input with Babylon.js (NullEngine, its glTF loader) and
// builds Babylon's RootMotionClip, with default options, on every animation group of both, matched by
// index (the sidecar's clip i is the output's group `animation`, the input's group i). For every clip
// whose output group animates the root bone's position, the root Babylon finds must be that bone (by
// name); for a clip whose sidecar source is `root`, the root bone must carry the clip's travel: Babylon's
// stride (cycleDistance) on the output must be the one it measures on the input, within 1% or 1 mm (for a
// clip that turns, its turn (cycleRotation) within 1% or 0.1 degree).
// Prints one line per file and a summary; exits 1 on any failure. A file neither loads is skipped
// (Draco needs a decoder from the network).
import { readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { NullEngine, Scene, LoadAssetContainerAsync, RootMotionClip, Logger } from "@babylonjs/core/index.js";
import "@babylonjs/loaders/glTF/index.js";

Logger.LogLevels = Logger.ErrorLogLevel;
const engine = new NullEngine();
const RELATIVE = 0.01;   // of the input's stride
const ABSOLUTE = 0.001;  // scene units (1 mm in metres)
const ABSOLUTE_TURN = 0.1 * Math.PI / 180;  // rad
const sourceName = ["none", "root", "footContact"];  // RootMotionSource's values

// A .gltf as "data:" and its JSON, its external buffers made data: URIs (Babylon in node reads no
// file URL); images are left out, since nothing here draws.
function inlineGltf(file) {
    const doc = JSON.parse(readFileSync(file, "utf8"));
    const folder = dirname(file);
    for (const buffer of doc.buffers ?? [])
        if (buffer.uri && !buffer.uri.startsWith("data:"))
            buffer.uri = "data:application/octet-stream;base64," +
                         readFileSync(join(folder, decodeURIComponent(buffer.uri))).toString("base64");
    delete doc.images;
    delete doc.textures;
    for (const material of doc.materials ?? []) {
        delete material.pbrMetallicRoughness;
        delete material.normalTexture;
        delete material.occlusionTexture;
        delete material.emissiveTexture;
        delete material.extensions;
    }
    return "data:" + JSON.stringify(doc);
}

// The clips of one file: per group, { name, root, source, stride, error, animatesBone }.
async function analyse(file, boneName) {
    const scene = new Scene(engine);
    try {
        const gltf = extname(file).toLowerCase() === ".gltf";
        const container = await LoadAssetContainerAsync(gltf ? inlineGltf(file) : readFileSync(file), scene,
                                                        { pluginExtension: gltf ? ".gltf" : ".glb" });
        container.addAllToScene();
        return container.animationGroups.map((group) => {
            group.stop();
            const animatesBone = group.targetedAnimations.some(
                (t) => t.target?.name === boneName && t.animation.targetProperty.startsWith("position"));
            try {
                const clip = new RootMotionClip(group);
                const result = { name: group.name, root: clip.rootNode?.name ?? null, source: sourceName[clip.source],
                                 stride: clip.cycleDistance, turn: clip.cycleRotation, animatesBone };
                clip.dispose();
                return result;
            } catch (e) {
                return { name: group.name, error: String(e.message ?? e), animatesBone };
            }
        });
    } finally {
        scene.dispose();
    }
}

async function load(file, boneName) {
    try {
        return { clips: await analyse(file, boneName) };
    } catch (e) {
        const message = String(e.message ?? e).split("\n")[0].replace(/data:.*/, "data:...");  // not the whole file
        return { problem: "Babylon cannot load it: " + message.slice(0, 200) };
    }
}

const args = process.argv.slice(2);
let passed = 0, failed = 0, skipped = 0;
for (let i = 0; i + 2 < args.length; i += 3) {
    const [input, output, sidecarPath] = args.slice(i, i + 3);
    const sidecar = JSON.parse(readFileSync(sidecarPath, "utf8"));
    const bone = sidecar.rootBone.name;
    const [source, baked] = [await load(input, bone), await load(output, bone)];
    if (source.problem && baked.problem) {
        console.log(`skip ${output}: ${baked.problem}, the input too`);
        ++skipped;
        continue;
    }
    const problems = [];
    if (baked.problem || source.problem) problems.push(baked.problem ? baked.problem : "the input: " + source.problem);
    let picked = 0, compared = 0, worst = 0;
    sidecar.clips.forEach((clip, c) => {
        if (problems.length && (baked.problem || source.problem)) return;
        const out = baked.clips[clip.animation], src = source.clips[c];
        const label = `clip ${JSON.stringify(clip.name)} (${clip.source})`;
        if (!out) return problems.push(`${label}: no animation group ${clip.animation} in the output`);
        if (clip.source !== "none" && !out.animatesBone)
            return problems.push(`${label}: the output does not animate ${JSON.stringify(bone)}'s position`);
        if (!out.animatesBone) return;
        if (out.error) return problems.push(`${label}: RootMotionClip on the output: ${out.error}`);
        if (out.root !== bone)
            return problems.push(`${label}: Babylon's root is ${JSON.stringify(out.root)}, not ${JSON.stringify(bone)}`);
        ++picked;
        if (clip.source !== "root") return;
        if (src.error) return problems.push(`${label}: RootMotionClip on the input: ${src.error}`);
        // A turning clip's stride depends on the point it follows (the pelvis on the input, the root bone on
        // the ground on the output): there the root bone must carry the turn.
        const [measure, unit, out_, in_, floor] = clip.extractsRotation
            ? ["turn", " rad", out.turn, src.turn, ABSOLUTE_TURN]
            : ["stride", "", out.stride, src.stride, ABSOLUTE];
        const tolerance = Math.max(RELATIVE * Math.abs(in_), floor);
        const off = Math.abs(out_ - in_);
        worst = Math.max(worst, off / Math.max(Math.abs(in_), 1e-30));
        ++compared;
        if (!(off <= tolerance))
            problems.push(`${label}: ${measure} ${out_.toPrecision(6)}${unit} on the output (root ${out.root}, ${out.source}), ` +
                          `${in_.toPrecision(6)}${unit} on the input (root ${src.root}, ${src.source}): off by ${off.toPrecision(3)} > ${tolerance.toPrecision(3)}`);
    });
    if (problems.length) {
        ++failed;
        console.log(`FAIL ${output}: ${problems[0]}`);
        for (const p of problems.slice(1, 10)) console.log(`FAIL   ${p}`);
        if (problems.length > 10) console.log(`FAIL   and ${problems.length - 10} more`);
    } else {
        ++passed;
        console.log(`ok   ${output}: root ${JSON.stringify(bone)} picked in ${picked} of ${sidecar.clips.length} clips; ` +
                    `the input's stride (turn, if it turns) in ${compared} root clips, worst off by ${(100 * worst).toPrecision(2)}%`);
    }
}
engine.dispose();
console.log(`babylon-root-bone: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);

// Run by scripts/babylon-markers from the folder holding Babylon.js's node_modules:
//   node markers.mjs BAKED SIDECAR
// Loads a baked asset with Babylon.js (NullEngine, its glTF loader with its default extensions, among
// them ExtrasAsMetadata) and checks that every animation group of a clip with footsteps has the
// sidecar's markers (its nulls left out) as metadata.gltf.extras.rootbake.markers, and that no other
// group has any. Prints one line per clip and a summary; exits 1 on any failure.
import { readFileSync } from "node:fs";
import { NullEngine, Scene, LoadAssetContainerAsync, Logger } from "@babylonjs/core/index.js";
import "@babylonjs/loaders/glTF/index.js";

Logger.LogLevels = Logger.ErrorLogLevel;
const [baked, sidecarFile] = process.argv.slice(2);
const sidecar = JSON.parse(readFileSync(sidecarFile, "utf8"));
let failures = 0;
const fail = (line) => { failures++; console.log(`FAIL ${line}`); };

const withoutNulls = (value) => {
    if (Array.isArray(value)) return value.map(withoutNulls);
    if (value && typeof value === "object")
        return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
    return value;
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const scene = new Scene(new NullEngine());
const container = await LoadAssetContainerAsync(readFileSync(baked), scene, { pluginExtension: ".glb" });
const groups = container.animationGroups;
let withMarkers = 0;
for (const clip of sidecar.clips) {
    const group = groups[clip.animation];
    if (!group) { fail(`${clip.name}: no animation group ${clip.animation}`); continue; }
    const got = group.metadata?.gltf?.extras?.rootbake?.markers;
    if (clip.markers.events.length === 0) {
        if (got !== undefined) fail(`${clip.name}: metadata.gltf.extras.rootbake without footsteps in the sidecar`);
        continue;
    }
    withMarkers++;
    const want = withoutNulls(clip.markers);
    if (!same(got, want)) fail(`${clip.name}: metadata.gltf.extras.rootbake.markers ${JSON.stringify(got)} is not ${JSON.stringify(want)}`);
    else console.log(`ok ${clip.name}: group "${group.name}" has ${want.events.length} events, phase anchors ${JSON.stringify(want.phase?.anchors)}`);
}
if (withMarkers === 0) fail(`${sidecarFile}: no clip has footsteps to look for`);
console.log(`babylon-markers: ${withMarkers} clips with markers, ${failures} failures`);
process.exit(failures ? 1 : 0);

// Babylon.js RootMotionClip on one asset, for scripts/bench to compare with rootbake:
//   node bench.mjs FILE.glb RUNS  -> one JSON document on stdout
// Each run loads the file into a fresh NullEngine scene (load) and builds a RootMotionClip with default
// options for every animation group (its constructor is the analysis and the in-place group), timing each.
// Times are medians over the runs, in seconds.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { NullEngine, Scene, LoadAssetContainerAsync, RootMotionClip, Logger } from "@babylonjs/core/index.js";
import "@babylonjs/loaders/glTF/index.js";

const [file, runsText] = process.argv.slice(2);
const runs = Math.max(1, Number(runsText ?? 3));
Logger.LogLevels = Logger.ErrorLogLevel;

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const bytes = new Uint8Array(readFileSync(file));
const engine = new NullEngine();
const loads = [];
const clipTimes = [];  // [clip][run], s
let names = [];
let strides = [];
for (let run = 0; run < runs; ++run) {
    const scene = new Scene(engine);
    const start = performance.now();
    const container = await LoadAssetContainerAsync(bytes, scene, { pluginExtension: ".glb" });
    container.addAllToScene();
    loads.push((performance.now() - start) / 1000);
    for (const group of container.animationGroups) group.stop();
    names = container.animationGroups.map((g) => g.name);
    strides = [];
    container.animationGroups.forEach((group, i) => {
        const begin = performance.now();
        const clip = new RootMotionClip(group);
        (clipTimes[i] ??= []).push((performance.now() - begin) / 1000);
        strides.push(clip.cycleDistance);  // read, so the analysis cannot be skipped
        clip.dispose();
    });
    scene.dispose();
}
engine.dispose();

const clips = names.map((name, i) => ({ name, analyseSeconds: median(clipTimes[i]), strideLength: strides[i] }));
process.stdout.write(JSON.stringify({
    file,
    runs,
    babylonCore: "9.31.0",
    loadSeconds: median(loads),
    analyseSeconds: clips.reduce((sum, c) => sum + c.analyseSeconds, 0),
    clips,
}) + "\n");

/**
 * `deno task interop [file.glb …]` — imports GLBs with Blender's own glTF importer (headless) and
 * checks what a user would see: an object or bone per named node, shape keys named like the morph
 * targets, an action per animation, the pivots' custom properties (`ctrl_type`, `min`, `max`), a
 * 20° turn of each object pivot about its local X moving its panel exactly and nothing else, and an
 * image of each embedded PNG's size.
 *
 * Without arguments it first builds every graph in `graphs/` on its fixtures (as the test suite does),
 * and `graphs/aircraft_file.json` on the demo fighter with a panel at the deepest level a decoder
 * accepts, and on the corpus airplane as web optimisers leave it (quantized and meshopt-compressed, or
 * Draco-compressed, or with KTX2 or WebP textures, re-encoded as PNG by `png_textures`), and
 * `graphs/gltf.json` on GPU-instanced rivets expanded by `expand_instances`, the rig on a messy
 * glTF its decode and export repair (`tests/support/messy_gltf.ts`) and on a light aircraft packed as
 * Flight Simulator packs models, and the newer outputs of `tests/support/new_outputs.ts` (Carnivores
 * `.rsc` areas C1 and C2, a `.3df` with `.vtl` clips, a `.sph` planet, a Flight Simulator normal map
 * and windshield, an aircraft whose clip keys its surfaces about their hinges) and of
 * `tests/support/client_cases.ts` (a Flight Simulator clear coat, glTF 1.0 RGB textures and an unused
 * skin, the fighter facing +Z rigged with no frame given, helicopters, a Daz joint corrective). Every
 * embedded PNG must be an image Blender reads; each material must blend as its alphaMode says, a
 * textured clear coat feed the Principled BSDF's Clearcoat (red) and Clearcoat Roughness (green), and
 * each shape key sit at the weight the file draws it at.
 * When `blender` is not installed it says so and exits 0. Blender's Python needs numpy for the
 * importer; when it has none, a `python3` of the same version that has numpy lends its packages
 * (or set `PARTGRAPH_BLENDER_PYTHONPATH`).
 *
 * @module
 */
import { GRAPH_CASES, missingCorpus, runCase } from "../tests/support/graph_runs.ts";
import { fighterWithAileronAt } from "../tests/support/deep_fighter.ts";
import { MAX_HIERARCHY_DEPTH } from "../runtime/depth.ts";
import { corpusFile } from "../tests/support/corpus.ts";
import { optimisedGlb } from "../tests/support/compressed.ts";
import { withKtx2Textures } from "../tests/support/ktx2.ts";
import { withWebpTextures } from "../tests/support/webp.ts";
import { withAvifTextures } from "../tests/support/avif.ts";
import { instancedGlb } from "../tests/support/instancing.ts";
import { packedPartsGlb } from "../tests/support/msfs_packed.ts";
import { lightAircraft } from "../tests/nodes/rig/real_shapes.ts";
import {
  editAccessor,
  messyGlb,
  renameWingAttribute,
  wingAttribute,
  wingPrimitive,
} from "../tests/support/messy_gltf.ts";
import { animatedFighter, FIGHTER_ANIMATED } from "../tests/nodes/rig/animated.ts";
import { writeGlb } from "../runtime/scene/gltf_io.ts";
import { buildCompound, CONSTRAINTS } from "../tests/nodes/decode/freelancer/fixtures.ts";
import { SCRIPTS } from "../tests/nodes/decode/freelancer/scripts.ts";
import { animationTree } from "../tests/support/freelancer/encode_model.ts";
import { GENERATOR } from "../runtime/version.ts";
import { gltf1Of } from "../tests/support/gltf1.ts";
import { demoFighter } from "../nodes/demo/fighter.ts";
import { runNode } from "../tests/support/context.ts";
import { CLIENT_CASES, runClientCase } from "../tests/support/new_outputs.ts";
import { blenderEnv, check, checkQueued, output } from "./interop_blender.ts";
import { MORE_CLIENT_CASES } from "../tests/support/client_cases.ts";

const AIRPLANE = "aircraft/sketchbook_airplane.glb";

if (import.meta.main) {
  const version = await output("blender", ["--version"]);
  if (version === undefined) {
    console.log("skipped: blender is not installed (the Blender import checks need it on PATH)");
    Deno.exit(0);
  }
  console.log(version.split("\n")[0]);
  const env = await blenderEnv();
  const dir = await Deno.makeTempDir();
  let failed = 0;
  try {
    if (Deno.args.length) {
      for (const path of Deno.args) await check(path, await Deno.readFile(path), dir);
    } else {
      for (const c of GRAPH_CASES) {
        const missing = missingCorpus(c);
        if (missing) {
          console.log(`skipped ${c.label}: corpus file ${missing} absent`);
          continue;
        }
        const { glb } = await runCase(c);
        await check(c.label, glb!, dir);
      }
      // The deepest hierarchy a decoder takes, rigged: its pivot makes it a level deeper still.
      const { bytes } = await fighterWithAileronAt(MAX_HIERARCHY_DEPTH);
      const deep = {
        label: `aircraft_file.json fighter ${MAX_HIERARCHY_DEPTH} levels deep`,
        graph: "aircraft_file.json",
      };
      const { glb } = await runCase({ ...deep, model: { name: "deep.gltf", bytes: () => bytes } });
      await check(deep.label, glb!, dir);
      // The corpus airplane as web optimisers leave aircraft, rigged: the quantized one keeps
      // KHR_mesh_quantization in its output, which Blender must import with the pivots turning.
      const airplane = corpusFile(AIRPLANE);
      if (!airplane) console.log(`skipped the optimised airplanes: corpus file ${AIRPLANE} absent`);
      for (const kind of airplane ? ["quantized meshopt", "draco"] as const : []) {
        const plane = await optimisedGlb(await Deno.readFile(airplane!), kind);
        const label = `aircraft_file.json sketchbook_airplane.glb, ${kind}`;
        const model = { name: "plane.glb", bytes: () => plane };
        const { glb } = await runCase({
          label,
          graph: "aircraft_file.json",
          model,
          inputs: { forward: "+Z" },
        });
        await check(label, glb!, dir);
      }
      // Its textures as KTX2, WebP or AVIF, which Blender 3.4 refuses, rigged with png_textures: PNGs it
      // imports.
      for (
        const [kind, convert] of airplane
          ? [["KTX2", withKtx2Textures], ["WebP", withWebpTextures], ["AVIF", withAvifTextures]] as const
          : []
      ) {
        const plane = await convert(await Deno.readFile(airplane!));
        const label = `aircraft_file.json sketchbook_airplane.glb, ${kind} textures, png_textures`;
        const model = { name: "plane.glb", bytes: () => plane };
        const inputs = { forward: "+Z", png_textures: true };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model, inputs });
        await check(label, glb!, dir);
      }
      {
        // The demo fighter carrying a clip of its own surfaces: rigged, Blender plays it as it plays the source.
        const source = await writeGlb(await animatedFighter(), { generator: GENERATOR });
        const label = "aircraft_file.json demo fighter with animated surfaces";
        const model = { name: "animated.glb", bytes: () => source };
        const inputs = { forward: "auto", up: "auto" };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model, inputs });
        await check(label, glb!, dir, { glb: source, nodes: FIGHTER_ANIMATED });
      }
      {
        // A Freelancer compound's animation scripts: Blender makes an action of each.
        const { Sc_open, Sc_packed, Sc_scaled } = SCRIPTS;
        const ship = buildCompound({
          constraints: CONSTRAINTS.filter((c) => ["TURRET", "Barrel", "Radar"].includes(c.child)),
          extra: [animationTree({ Sc_open, Sc_packed, Sc_scaled })],
        }).bytes;
        const label = "freelancer.json ship.cmp with animation scripts";
        const model = { name: "animated.cmp", bytes: () => ship };
        const { glb } = await runCase({ label, graph: "freelancer.json", model });
        await check(label, glb!, dir);
      }
      {
        // Messy glTF as exporters write it, repaired on its way through (README → Reliability).
        const messy = await messyGlb((json, bin) => {
          renameWingAttribute(json, "TEXCOORD_0", "TEXCOORD0");
          editAccessor(json, bin, wingAttribute(json, "WEIGHTS_0"), (weights) => weights[0] = 0.4);
          editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[2] = 1);
          json.images[0].mimeType = "image/jpeg";
          json.scenes.push({ name: "Empty" });
        });
        const label =
          "aircraft_file.json messy glTF (misspelt UVs, weights, key times, MIME type, empty scene)";
        const { glb } = await runCase({
          label,
          graph: "aircraft_file.json",
          model: { name: "messy.glb", bytes: () => messy },
        });
        await check(label, glb!, dir);
      }
      {
        // More of what exporters write: nulls, enums in another case, signed indices with a stride, a
        // clip from -1 s, two channels on one target, every node listed as a scene root.
        const messy = await messyGlb((json, bin) => {
          json.cameras = null;
          json.accessors[0].sparse = null;
          json.materials[0].alphaMode = "mask";
          const indices = json.accessors[wingPrimitive(json).indices];
          indices.componentType = 5122;
          json.bufferViews[indices.bufferView].byteStride = 2;
          editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[0] = -1);
          json.animations[0].channels.push({ ...json.animations[0].channels[0] });
          json.scenes[0].nodes = json.nodes.map((_: unknown, i: number) => i);
        });
        const label = "gltf.json messy glTF (nulls, enum case, signed indices, clip before 0, scene roots)";
        const { glb } = await runCase({
          label,
          graph: "gltf.json",
          model: { name: "messy2.glb", bytes: () => messy },
        });
        await check(label, glb!, dir);
      }
      {
        // A light aircraft packed as Flight Simulator packs models, which Blender's importer refuses:
        // rigged, every surface's pivot turns its panel in Blender.
        const packed = packedPartsGlb(lightAircraft({ sweep: 20, dihedral: 5 }));
        const label = "aircraft_file.json light aircraft in Flight Simulator's packing";
        const model = { name: "cub.glb", bytes: () => packed };
        const inputs = { forward: "-Z", up: "+Y" };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model, inputs });
        await check(label, glb!, dir);
      }
      {
        // The demo fighter as glTF 1.0 (binary, several meshes per surface node), which Blender 3.4
        // refuses: upgraded as it is read and rigged, every surface's pivot turns its panel in Blender.
        const old = await gltf1Of((await runNode(demoFighter, {}, {})).scene, {
          binary: true,
          splitMeshes: (name) => /Aileron|flap|rud/i.test(name),
          sharedVertexView: true,
        });
        const label = "aircraft_file.json demo fighter as binary glTF 1.0";
        const model = { name: "fighter1.glb", bytes: () => old };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model });
        await check(label, glb!, dir);
      }
      // Newer decoder outputs (tests/support/new_outputs.ts): Carnivores areas in both layouts, a .3df
      // with .vtl clips, a Freelancer planet, Flight Simulator normal maps and glass, and an aircraft
      // whose own clip keys its surfaces about their hinges, which must still play as the source does.
      // And those of tests/support/client_cases.ts: a Flight Simulator clear coat, glTF 1.0
      // blended RGB textures with an unused skin, the fighter facing +Z rigged with no frame given,
      // helicopters, and a Daz figure's joint corrective at the weight its bent elbow gives.
      for (const c of [...CLIENT_CASES, ...MORE_CLIENT_CASES]) {
        const { glb, model } = await runClientCase(c);
        const clip = c.clip && { glb: model, nodes: c.clip };
        await check(c.label, glb, dir, clip, c.blender);
      }
      {
        // GPU instancing, which Blender 3.4 refuses too, expanded into nodes by expand_instances.
        const rivets = await instancedGlb();
        const label = "gltf.json instanced rivets, expand_instances";
        const model = { name: "rivets.glb", bytes: () => rivets };
        const { glb } = await runCase({
          label,
          graph: "gltf.json",
          model,
          inputs: { expand_instances: true },
        });
        await check(label, glb!, dir);
      }
    }
    failed += await checkQueued(env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(failed ? `${failed} file(s) failed the Blender checks` : "all files passed the Blender checks");
  Deno.exit(failed ? 1 : 0);
}

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
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
import { type BlenderWants, CLIENT_CASES, runClientCase } from "../tests/support/new_outputs.ts";
import { MORE_CLIENT_CASES } from "../tests/support/client_cases.ts";

const CHECKER = fileURLToPath(new URL("./blender_check.py", import.meta.url));
const AIRPLANE = "aircraft/sketchbook_airplane.glb";

const RESULT = "PARTGRAPH_INTEROP ";

/** What the file itself declares, for the Blender side to check against. */
interface Expectation {
  nodes: string[];
  /** Each morphed node's target names and the weights it is drawn at (the node's, else its mesh's). */
  morphs: { node: string; mesh?: string; targets: string[]; weights: number[] }[];
  /** Each named material's alphaMode, and which of its clear coat's amount and roughness are textured. */
  materials: { name: string; alphaMode: string; clearcoat?: { texture: boolean; roughness: boolean } }[];
  animations: string[];
  pivots: { node: string; extras: Record<string, unknown> }[];
  /** Width and height of each PNG image the file embeds (from its IHDR). */
  images: [number, number][];
}

/** Reads the GLB's JSON chunk and lists what Blender should show. */
function expectationOf(glb: Uint8Array): Expectation {
  const length = new DataView(glb.buffer, glb.byteOffset + 12, 4).getUint32(0, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  const bin = glb.subarray(20 + length + 8);
  // deno-lint-ignore no-explicit-any
  const nodes: any[] = json.nodes ?? [];
  const keyed = new Set(
    // deno-lint-ignore no-explicit-any
    (json.animations ?? []).flatMap((a: any) => a.channels ?? []).filter((c: any) =>
      c.target?.path === "weights"
    )
      // deno-lint-ignore no-explicit-any
      .map((c: any) => nodes[c.target.node]),
  );
  // Materials of the meshes nodes draw (a mesh no node uses, as a further LOD, Blender leaves out).
  // deno-lint-ignore no-explicit-any
  const drawn = new Set<any>(
    nodes.filter((n) => n.mesh !== undefined).flatMap((n) => json.meshes[n.mesh].primitives ?? [])
      // deno-lint-ignore no-explicit-any
      .map((p: any) => json.materials?.[p.material]).filter((m: unknown) => m),
  );
  return {
    nodes: nodes.map((n) => n.name).filter((n) => n),
    morphs: nodes.filter((n) => n.name && n.mesh !== undefined && json.meshes[n.mesh].extras?.targetNames)
      .map((n) => ({
        node: n.name,
        mesh: json.meshes[n.mesh].name,
        targets: json.meshes[n.mesh].extras.targetNames,
        // A clip keying the weights sets the keys as the scene's frame stands: no rest weight to check.
        weights: keyed.has(n) ? [] : n.weights ?? json.meshes[n.mesh].weights ?? [],
      })),
    materials: [...drawn].filter((m) => m.name).map((m) => {
      const coat = m.extensions?.KHR_materials_clearcoat;
      return {
        name: m.name,
        alphaMode: m.alphaMode ?? "OPAQUE",
        ...(coat
          ? { clearcoat: { texture: !!coat.clearcoatTexture, roughness: !!coat.clearcoatRoughnessTexture } }
          : {}),
      };
    }),
    // deno-lint-ignore no-explicit-any
    animations: (json.animations ?? []).map((a: any) => a.name).filter((n: string) => n),
    // deno-lint-ignore no-explicit-any
    images: (json.images ?? []).filter((i: any) => i.mimeType === "image/png" && i.bufferView !== undefined)
      // deno-lint-ignore no-explicit-any
      .map((i: any) => {
        const view = json.bufferViews[i.bufferView];
        const ihdr = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + 16, 8);
        return [ihdr.getUint32(0), ihdr.getUint32(4)];
      }),
    pivots: nodes.filter((n) => n.name && n.extras?.ctrl_type).map((n) => ({
      node: n.name,
      extras: Object.fromEntries(
        ["ctrl_type", "min", "max"].filter((k) => k in n.extras).map((k) => [k, n.extras[k]]),
      ),
    })),
  };
}

async function output(
  command: string,
  args: string[],
  env?: Record<string, string>,
): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(command, { args, env, stdout: "piped", stderr: "piped" }).output();
    return new TextDecoder().decode(out.stdout);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** PYTHONPATH for Blender's Python when it lacks numpy: the env override, else a matching python3's. */
async function blenderEnv(): Promise<Record<string, string> | undefined> {
  const probe =
    "import sys\ntry:\n import numpy\n print('numpy')\nexcept ImportError:\n print('none', sys.version_info[:2])";
  const blender = await output("blender", ["-b", "--factory-startup", "--python-expr", probe]);
  if (blender?.includes("\nnumpy")) return undefined;
  const override = Deno.env.get("PARTGRAPH_BLENDER_PYTHONPATH");
  if (override) return { PYTHONPATH: override };
  const version = blender?.match(/none \((\d+), (\d+)\)/);
  const python = await output("python3", [
    "-c",
    "import sys, os, numpy; print(sys.version_info[0], sys.version_info[1], os.path.dirname(os.path.dirname(numpy.__file__)))",
  ]);
  const [major, minor, site] = python?.trim().split(" ") ?? [];
  if (version && site && major === version[1] && minor === version[2]) return { PYTHONPATH: site };
  return undefined;
}

/**
 * A source file whose animation the checked file must play alike: Blender imports both, and the named
 * objects' world matrices must agree at every sampled frame of the clip.
 */
interface ClipSource {
  readonly glb: Uint8Array;
  readonly nodes: readonly string[];
}

async function check(
  label: string,
  glb: Uint8Array,
  dir: string,
  env?: Record<string, string>,
  clip?: ClipSource,
  wants?: BlenderWants,
): Promise<boolean> {
  const file = join(dir, "model.glb");
  const expect = join(dir, "expect.json");
  await Deno.writeFile(file, glb);
  const source = clip && join(dir, "source.glb");
  if (clip) await Deno.writeFile(source!, clip.glb);
  await Deno.writeTextFile(
    expect,
    JSON.stringify({ ...expectationOf(glb), clip: clip && { source, nodes: clip.nodes }, wants }),
  );
  const args = ["-b", "--factory-startup", "-noaudio", ...(env ? ["--python-use-system-env"] : [])];
  const text = await output("blender", [...args, "--python", CHECKER, "--", file, expect], env) ?? "";
  const line = text.split("\n").find((l) => l.startsWith(RESULT));
  if (!line) {
    console.log(`FAIL ${label}: Blender printed no result\n${text.slice(-2000)}`);
    return false;
  }
  const result = JSON.parse(line.slice(RESULT.length));
  if (result.skip) {
    console.log(`skipped ${label}: ${result.skip}`);
    return true;
  }
  const ok = result.problems.length === 0;
  console.log(`${ok ? "ok  " : "FAIL"} ${label} ${JSON.stringify(result.checked)}`);
  for (const problem of result.problems) console.log(`     ${problem}`);
  return ok;
}

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
      for (const path of Deno.args) failed += await check(path, await Deno.readFile(path), dir, env) ? 0 : 1;
    } else {
      for (const c of GRAPH_CASES) {
        const missing = missingCorpus(c);
        if (missing) {
          console.log(`skipped ${c.label}: corpus file ${missing} absent`);
          continue;
        }
        const { glb } = await runCase(c);
        failed += await check(c.label, glb!, dir, env) ? 0 : 1;
      }
      // The deepest hierarchy a decoder takes, rigged: its pivot makes it a level deeper still.
      const { bytes } = await fighterWithAileronAt(MAX_HIERARCHY_DEPTH);
      const deep = {
        label: `aircraft_file.json fighter ${MAX_HIERARCHY_DEPTH} levels deep`,
        graph: "aircraft_file.json",
      };
      const { glb } = await runCase({ ...deep, model: { name: "deep.gltf", bytes: () => bytes } });
      failed += await check(deep.label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
      }
      {
        // The demo fighter carrying a clip of its own surfaces: rigged, Blender plays it as it plays the source.
        const source = await writeGlb(await animatedFighter(), { generator: GENERATOR });
        const label = "aircraft_file.json demo fighter with animated surfaces";
        const model = { name: "animated.glb", bytes: () => source };
        const inputs = { forward: "auto", up: "auto" };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model, inputs });
        failed += await check(label, glb!, dir, env, { glb: source, nodes: FIGHTER_ANIMATED }) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
      }
      {
        // A light aircraft packed as Flight Simulator packs models, which Blender's importer refuses:
        // rigged, every surface's pivot turns its panel in Blender.
        const packed = packedPartsGlb(lightAircraft({ sweep: 20, dihedral: 5 }));
        const label = "aircraft_file.json light aircraft in Flight Simulator's packing";
        const model = { name: "cub.glb", bytes: () => packed };
        const inputs = { forward: "-Z", up: "+Y" };
        const { glb } = await runCase({ label, graph: "aircraft_file.json", model, inputs });
        failed += await check(label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
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
        failed += await check(c.label, glb, dir, env, clip, c.blender) ? 0 : 1;
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
        failed += await check(label, glb!, dir, env) ? 0 : 1;
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(failed ? `${failed} file(s) failed the Blender checks` : "all files passed the Blender checks");
  Deno.exit(failed ? 1 : 0);
}

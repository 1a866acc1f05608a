/**
 * Inputs for the client checks of newer decoder outputs (three.js and the Khronos validator in
 * `tests/nodes/new_outputs_clients_test.ts`, Blender in `scripts/interop.ts`): a Carnivores area
 * (`.rsc`, C1 and C2), a `.3df` with `.vtl` clips of both layouts, a Freelancer planet (`.sph`), a
 * light aircraft packed as Flight Simulator packs it with a DirectX normal map and OPAQUE glass, and
 * the demo fighter whose own clip turns its surfaces about their true hinges. Each runs through the
 * graph in `graphs/` a user would run on it. More cases are in `client_cases.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { type Document, MathUtils, type Node } from "@gltf-transform/core";
import { encode } from "fast-png";
import { runGraph } from "../../mod.ts";
import type { BytesValue } from "../../runtime/node.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { fighterTruth } from "../../nodes/demo/fighter_truth.ts";
import { animation, limbModel, rscArea } from "../nodes/decode/carnivores/fixtures.ts";
import { dxt1Dds } from "../nodes/decode/freelancer/fixtures.ts";
import { IDENTITY, invertAffine, multiply } from "../../nodes/rig/transform.ts";
import { lightAircraft } from "../nodes/rig/real_shapes.ts";
import { encode3df } from "./carnivores/encode.ts";
import { encodeRsc } from "./carnivores/rsc.ts";
import { encodeVtl } from "./carnivores/vtl.ts";
import { materialLibrary, type MaterialSpec, textureLibrary } from "./freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeI32,
  encodeString,
  encodeUtf,
  utfDir,
  utfLeaf,
} from "./freelancer/encode_utf.ts";
import { packedPartsGlb } from "./msfs_packed.ts";
import { glbOf } from "./shapes.ts";
import { runNode } from "./context.ts";
import { tempDir } from "./temp.ts";

/** One run of a graph on files written into a fresh folder. */
export interface ClientCase {
  readonly label: string;
  /** File name under `graphs/`. */
  readonly graph: string;
  /** The files to write; `model` is one of them. */
  readonly files: () => Promise<Record<string, Uint8Array>> | Record<string, Uint8Array>;
  readonly model: string;
  /** Further graph inputs, given the folder the files are in. */
  readonly inputs?: (dir: string) => Record<string, unknown>;
  /** Nodes the model animates, whose clip the output must play as the model plays it. */
  readonly clip?: readonly string[];
  /** What Blender must show beyond what the output file declares (`scripts/interop.ts`). */
  readonly blender?: BlenderWants;
}

/** What a case means Blender to show, known from its input, not read from the output. */
export interface BlenderWants {
  /** Shape keys by name and the value each must be set at. */
  readonly shapeKeys?: Readonly<Record<string, number>>;
  /** Materials whose Principled BSDF's Clearcoat and Clearcoat Roughness a texture must feed. */
  readonly clearcoat?: readonly string[];
  /** Materials by name and the blend method each must have (OPAQUE, BLEND, CLIP). */
  readonly blend?: Readonly<Record<string, string>>;
  /** Objects that must be imported as no pivot: no `ctrl_type` on them or any parent. */
  readonly fixed?: readonly string[];
}

/** Side materials of {@link sphPlanet}, M0–M5; M0 is textured. */
export const SPH_SIDES = ["planet_px", "planet_py", "planet_nz", "planet_nx", "planet_top", "planet_bottom"];

/** A `.sph` planet: six side materials (M0 with a DXT1 texture) and an atmosphere 1.25 × larger. */
export function sphPlanet(): Uint8Array {
  const sides: MaterialSpec[] = SPH_SIDES.map((name, i) => ({
    name,
    dc: [i / 5, 0.5, 1 - i / 5],
    ...(i === 0 ? { dtName: "planet_surface.tga" } : {}),
  }));
  const atmosphere: MaterialSpec = {
    name: "planet_atmo",
    type: "AtmosphereMaterial",
    dc: [0.4, 0.6, 1],
    leaves: [utfLeaf("Alpha", encodeFloats([0.5])), utfLeaf("Scale", encodeFloats([1.25]))],
  };
  const names = [...SPH_SIDES, "planet_atmo"];
  return encodeUtf(utfDir("\\", [
    utfDir("Sphere", [
      utfLeaf("Radius", encodeFloats([3000])),
      utfLeaf("Sides", encodeI32(names.length)),
      ...names.map((name, i) => utfLeaf(`M${i}`, encodeString(name))),
    ]),
    materialLibrary([...sides, atmosphere]),
    textureLibrary([{ name: "planet_surface.tga", dds: dxt1Dds(0x07e0, 8, 8) }]),
  ]));
}

/** The green channel of {@link msfsTexturedAircraft}'s normal map, as the file stores it (DirectX). */
export const MSFS_NORMAL_GREEN = 200;

/**
 * The light aircraft packed as Flight Simulator packs it, its `paint` normal-mapped by a 2×2 PNG in
 * DirectX's convention (green {@link MSFS_NORMAL_GREEN}) and the fuselage's second half a windshield
 * (`ASOBO_material_windshield_v3`) left OPAQUE with alpha 0.3.
 */
export function msfsTexturedAircraft(): Uint8Array {
  return packedAircraftWith((json) => {
    json.asset.extensions = { ASOBO_normal_map_convention: { tangent_space_convention: "DirectX" } };
    json.images = [{ uri: pngDataUri(Array(4).fill([128, MSFS_NORMAL_GREEN, 255]).flat(), 3) }];
    json.textures = [{ source: 0 }];
    json.materials[0].normalTexture = { index: 0 };
    json.extensionsUsed.push("ASOBO_material_windshield_v3");
    const glass = json.materials.push({
      name: "windshield",
      pbrMetallicRoughness: { baseColorFactor: [0.8, 0.9, 1, 0.3], roughnessFactor: 0 },
      extensions: { ASOBO_material_windshield_v3: { glassWidth: 0.004 } },
    }) - 1;
    const fuselage = json.nodes.findIndex((n: { name: string }) => /fuselage/i.test(n.name));
    json.meshes[json.nodes[fuselage === -1 ? 0 : fuselage].mesh].primitives[1].material = glass;
  });
}

/**
 * The light aircraft (sweep 20°, dihedral 5°) packed as Flight Simulator packs it, its glTF JSON
 * edited by `edit` (its first material is `paint`).
 */
// deno-lint-ignore no-explicit-any
export function packedAircraftWith(edit: (json: Record<string, any>) => void): Uint8Array {
  const packed = packedPartsGlb(lightAircraft({ sweep: 20, dihedral: 5 }));
  const view = new DataView(packed.buffer, packed.byteOffset);
  const length = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(packed.subarray(20, 20 + length)));
  edit(json);
  return glbOf(json, packed.subarray(28 + length));
}

/** A PNG data URI of a 2-pixel-wide image of 8-bit `pixels` with `channels` channels. */
export function pngDataUri(pixels: readonly number[], channels: 3 | 4): string {
  const width = 2, height = pixels.length / channels / width;
  const png = encode({ width, height, data: new Uint8Array(pixels), channels, depth: 8 });
  return `data:image/png;base64,${btoa(String.fromCharCode(...png))}`;
}

/** The panels {@link keyedFighter} animates. */
export const KEYED_PANELS = [
  "LeftAileron",
  "Flight_Aileron_R",
  "Flap.L",
  "flap_rh",
  "Rudder",
  "rud_r",
  "Stabilator_Stbd",
  "Stabilator.001",
];

/** Turn angles (degrees) of the keyed panels at times 0, 0.5, 1, 1.5 and 2 s. */
const KEYED_DEGREES = [0, 18, -12, 25, 0];

/**
 * The demo fighter with one clip, `surfaces`, turning each of {@link KEYED_PANELS} about its true
 * hinge line (`fighterTruth`), rotation and translation keyed together, as Flight Simulator aircraft
 * key every surface.
 */
export async function keyedFighter(): Promise<Document> {
  const doc = (await runNode(demoFighter, {})).scene as Document;
  const truth = fighterTruth();
  const buffer = doc.getRoot().listBuffers()[0];
  const clip = doc.createAnimation("surfaces");
  const times = KEYED_DEGREES.map((_, i) => i / 2);
  for (const name of KEYED_PANELS) {
    const panel = truth.panels.find((p) => p.name === name);
    const node = doc.getRoot().listNodes().find((n) => n.getName() === name);
    const keys = panel && node && hingeKeys(node, panel.hingeOrigin, panel.hingeAxis);
    // A fixture that no longer matches the fighter should say so, not key fewer panels.
    if (!keys) throw new Error(`keyedFighter: ${name} is missing or its parent shears a turn`);
    for (
      const [path, values] of [["translation", keys.translations], ["rotation", keys.rotations]] as const
    ) {
      const sampler = doc.createAnimationSampler().setInterpolation("LINEAR")
        .setInput(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Float32Array(times)))
        .setOutput(
          doc.createAccessor("", buffer).setType(path === "rotation" ? "VEC4" : "VEC3")
            .setArray(new Float32Array(values.flat())),
        );
      clip.addSampler(sampler).addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
      );
    }
  }
  return doc;
}

type GlMat4 = Parameters<typeof MathUtils.decompose>[0];

/**
 * Local translations and rotations turning `node` by {@link KEYED_DEGREES} about the world line
 * through `origin` along `axis`, or undefined when its parent's frame shears such a turn (a
 * non-uniform scale across the line).
 */
function hingeKeys(node: Node, origin: readonly number[], axis: readonly number[]) {
  const parent = node.getParentNode()?.getWorldMatrix() ?? IDENTITY;
  const local = node.getMatrix();
  const translations: number[][] = [], rotations: number[][] = [];
  for (const degrees of KEYED_DEGREES) {
    const turn = aboutLine(origin, axis, (degrees * Math.PI) / 180);
    const next = multiply(invertAffine(parent), multiply(turn, multiply(parent, local)));
    const t = [0, 0, 0], r = [0, 0, 0, 1], s = [1, 1, 1];
    MathUtils.decompose(next as unknown as GlMat4, t as never, r as never, s as never);
    const back = MathUtils.compose(t as never, r as never, s as never, [] as unknown as GlMat4);
    const scale = Math.max(...next.map(Math.abs));
    if (next.some((v, i) => Math.abs(v - (back as unknown as number[])[i]) > 1e-6 * scale)) return undefined;
    if (s.some((v, k) => Math.abs(v - node.getScale()[k]) > 1e-5 * Math.abs(v))) return undefined;
    translations.push(t);
    rotations.push(r);
  }
  return { translations, rotations };
}

/** Column-major 4×4 rotation by `angle` about the line through `o` along unit `a`. */
function aboutLine(o: readonly number[], a: readonly number[], angle: number): number[] {
  const [x, y, z] = a, c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
  const r = [
    [c + x * x * k, x * y * k - z * s, x * z * k + y * s],
    [y * x * k + z * s, c + y * y * k, y * z * k - x * s],
    [z * x * k - y * s, z * y * k + x * s, c + z * z * k],
  ];
  const t = [0, 1, 2].map((i) => o[i] - (r[i][0] * o[0] + r[i][1] * o[1] + r[i][2] * o[2]));
  return [r[0][0], r[1][0], r[2][0], 0, r[0][1], r[1][1], r[2][1], 0, r[0][2], r[1][2], r[2][2], 0, ...t, 1];
}

/** Every case: its graph, files and inputs. */
export const CLIENT_CASES: readonly ClientCase[] = [
  ...(["c1", "c2"] as const).map((version): ClientCase => ({
    label: `carnivores.json area1.rsc (${version.toUpperCase()})`,
    graph: "carnivores.json",
    files: () => ({ "area1.rsc": encodeRsc(rscArea(version)) }),
    model: "area1.rsc",
  })),
  {
    label: "carnivores.json limb.3df with run.vtl (Animator) and eat.vtl (engine)",
    graph: "carnivores.json",
    files: () => {
      const model = limbModel();
      return {
        "limb.3df": encode3df(model),
        "run.vtl": encodeVtl(animation("run", 12, 4, model.points, 0)),
        "eat.vtl": encodeVtl(animation("eat", 6, 2, model.points, 1), { layout: "engine" }),
      };
    },
    model: "limb.3df",
    inputs: (dir) => ({ options: { animations: [join(dir, "run.vtl"), join(dir, "eat.vtl")] } }),
  },
  {
    label: "freelancer.json planet.sph (six sides, atmosphere)",
    graph: "freelancer.json",
    files: () => ({ "planet.sph": sphPlanet() }),
    model: "planet.sph",
  },
  {
    label:
      "aircraft_file.json light aircraft in Flight Simulator's packing, DirectX normal map, OPAQUE windshield",
    graph: "aircraft_file.json",
    files: () => ({ "cub.glb": msfsTexturedAircraft() }),
    model: "cub.glb",
    inputs: () => ({ forward: "-Z", up: "+Y" }),
  },
  {
    label: "aircraft_file.json demo fighter keyed about its true hinges",
    graph: "aircraft_file.json",
    files: async () => ({
      "keyed.glb": await writeGlb(await keyedFighter(), { generator: GENERATOR }),
    }),
    model: "keyed.glb",
    clip: KEYED_PANELS,
  },
];

/** What a case's run gave: the graph's outputs, the GLB and the model file it read. */
export interface ClientRun {
  readonly outputs: Record<string, unknown>;
  readonly glb: Uint8Array;
  readonly model: Uint8Array;
}

/** Runs a case in a temporary folder (no disk cache). */
export async function runClientCase(c: ClientCase): Promise<ClientRun> {
  const dir = await tempDir();
  try {
    const files = await c.files();
    for (const [name, bytes] of Object.entries(files)) await Deno.writeFile(join(dir, name), bytes);
    const graph = new URL(`../../graphs/${c.graph}`, import.meta.url).pathname;
    const { outputs } = await runGraph(graph, {
      inputs: { model: join(dir, c.model), ...c.inputs?.(dir) },
      outDir: join(dir, "out"),
      cacheDir: false,
    });
    return { outputs, glb: (outputs.glb as BytesValue).bytes, model: files[c.model] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

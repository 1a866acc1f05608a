/**
 * More inputs for the client checks (`tests/nodes/new_outputs_clients_test.ts` with three.js and the
 * Khronos validator, `scripts/interop.ts` with Blender), one per newer output, each through the graph a
 * user runs: a Flight Simulator clear coat (`decode.gltf` v23), glTF 1.0 blended RGB textures and an
 * unused skin (v22), a glTF 1.0 colour image uploaded as LUMINANCE_ALPHA and a Flight Simulator
 * skinned mesh in its packing (v25), the demo fighter facing glTF's +Z rigged with no frame given
 * (`graphs/aircraft_file.json`'s `auto`), helicopters (`rig.detect_panels` v9) and a Daz figure whose
 * joint corrective its bent elbow drives (`decode.dson` v16, `dson.apply_preset` v10).
 *
 * @module
 */
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { turn } from "../nodes/rig/turned.ts";
import { helicopter, type HelicopterSample } from "../nodes/rig/helicopters.ts";
import { classScene } from "../nodes/rig/surface_classes.ts";
import { JCM, jcmCurve, jcmFigure } from "../nodes/decode/dson/jcm_figure.ts";
import { fighterTruth } from "../../nodes/demo/fighter_truth.ts";
import { dsonBytes, posePreset } from "../nodes/decode/dson/generate.ts";
import { gltf1Of, type Json } from "./gltf1.ts";
import { messyGlb } from "./messy_gltf.ts";
import { type ClientCase, packedAircraftWith, pngDataUri } from "./new_outputs.ts";
import { packedSkinnedGlb } from "./msfs_packed.ts";
import { runNode } from "./context.ts";
import { prng } from "./prng.ts";

/** The clear coat's dirt texture (2×2 RGB): red the coat's amount, green its roughness. */
export const DIRT_PIXELS = [255, 64, 0, 128, 32, 0, 200, 100, 0, 50, 250, 0];

/**
 * The light aircraft in Flight Simulator's packing, its `paint` under `ASOBO_material_clear_coat`
 * whose `dirtTexture` (UV set 0, a mirrored-repeat sampler) is {@link DIRT_PIXELS}.
 */
function msfsClearCoatAircraft(): Uint8Array {
  return packedAircraftWith((json) => {
    json.extensionsUsed.push("ASOBO_material_clear_coat");
    json.images = [{ uri: pngDataUri(DIRT_PIXELS, 3) }];
    json.samplers = [{ wrapS: 33648, wrapT: 33648 }];
    json.textures = [{ source: 0, sampler: 0 }];
    json.materials[0].extensions = { ASOBO_material_clear_coat: { dirtTexture: { index: 0 } } };
  });
}

/**
 * The skinned wing as glTF 1.0, blending on in every technique and its texture (alpha 200) uploaded
 * as RGB (`format` 6407), of `transparency`; and a second skin, `spare`, that no node uses.
 */
function gltf1RgbBlendedWing(transparency: number): Promise<Uint8Array> {
  return messyGlb(() => {}).then(readGltf).then((doc) =>
    gltf1Of(doc, {
      edit: (json: Json) => {
        for (const technique of Object.values(json.techniques) as Json[]) technique.states.enable.push(3042);
        for (const texture of Object.values(json.textures) as Json[]) {
          texture.format = texture.internalFormat = 6407;
        }
        for (const material of Object.values(json.materials) as Json[]) {
          material.values.transparency = transparency;
        }
        json.skins.skin_spare = { ...json.skins.skin_0, name: "spare" };
      },
    })
  );
}

/** The 1.0 wing's colour image (2×2 RGBA) that {@link gltf1LuminanceWing} uploads as LUMINANCE_ALPHA. */
export const LUMINANCE_PIXELS = [200, 40, 10, 128, 30, 220, 90, 255, 0, 0, 250, 64, 255, 255, 255, 0];

/** The skinned wing as glTF 1.0, blending, its texture {@link LUMINANCE_PIXELS} uploaded as LUMINANCE_ALPHA. */
function gltf1LuminanceWing(): Promise<Uint8Array> {
  return messyGlb(() => {}).then(readGltf).then((doc) =>
    gltf1Of(doc, {
      edit: (json: Json) => {
        for (const technique of Object.values(json.techniques) as Json[]) technique.states.enable.push(3042);
        for (const texture of Object.values(json.textures) as Json[]) {
          texture.format = texture.internalFormat = 6410;
        }
        for (const image of Object.values(json.images) as Json[]) image.uri = pngDataUri(LUMINANCE_PIXELS, 4);
      },
    })
  );
}

/** The two helicopters: a Bell 206-like one (a fixed `HorizontalStabilizer`) and a UH-60 (`Stabilator_L`/`_R`). */
export function helicopters(): { bell: HelicopterSample; uh60: HelicopterSample } {
  const next = prng(9001);
  const samples = Array.from({ length: 8 }, (_, i) => helicopter(next, i));
  return { bell: samples[0], uh60: samples[7] };
}

/** The forearm's bend in the decoded JCM figure, and the bend a pose preset gives a figure at rest. */
export const JCM_BENDS = { decoded: -90, preset: -45 } as const;

/** The cases of this module. */
export const MORE_CLIENT_CASES: readonly ClientCase[] = [
  {
    label: "aircraft_file.json light aircraft in Flight Simulator's packing, clear coat (dirtTexture)",
    graph: "aircraft_file.json",
    files: () => ({ "coat.glb": msfsClearCoatAircraft() }),
    model: "coat.glb",
    inputs: () => ({ forward: "-Z", up: "+Y" }),
    blender: { clearcoat: ["paint"] },
  },
  ...[1, 0.5].map((transparency): ClientCase => ({
    label: `gltf.json glTF 1.0 wing, blended RGB texture, transparency ${transparency}, an unused skin`,
    graph: "gltf.json",
    files: async () => ({ "wing.gltf": await gltf1RgbBlendedWing(transparency) }),
    model: "wing.gltf",
    blender: { blend: { painted: transparency < 1 ? "BLEND" : "OPAQUE" } },
  })),
  {
    label: "gltf.json glTF 1.0 wing, colour texture uploaded as LUMINANCE_ALPHA",
    graph: "gltf.json",
    files: async () => ({ "wing.gltf": await gltf1LuminanceWing() }),
    model: "wing.gltf",
    blender: { blend: { painted: "BLEND" } },
  },
  {
    label: "gltf.json Flight Simulator skinned box in its packing (BLEND4: half-float weights, byte colours)",
    graph: "gltf.json",
    files: () => ({ "skinned.glb": packedSkinnedGlb({ blend: 4 }) }),
    model: "skinned.glb",
  },
  {
    label: "aircraft_file.json demo fighter facing +Z, no frame given (auto)",
    graph: "aircraft_file.json",
    files: async () => {
      const doc = turn((await runNode(demoFighter, {})).scene, "+Z", "+Y");
      return { "front.glb": await writeGlb(doc, { generator: GENERATOR }) };
    },
    model: "front.glb",
    blender: { fixed: fighterTruth().decoys },
  },
  ...Object.entries(helicopters()).map(([kind, sample]): ClientCase => ({
    label: `aircraft_file.json ${
      kind === "bell" ? "Bell 206" : "UH-60"
    }-like helicopter (${sample.description})`,
    graph: "aircraft_file.json",
    files: async () => ({ "heli.glb": await writeGlb(classScene(sample), { generator: GENERATOR }) }),
    model: "heli.glb",
    // Given: a helicopter's shape tells its frame only weakly (rig.detect_panels is what is checked).
    inputs: () => ({ forward: "-Z", up: "+Y" }),
    blender: { fixed: sample.stabilator ? [] : sample.stabiliser },
  })),
  {
    label: `dson.json figure whose elbow bent ${JCM_BENDS.decoded}° drives its joint corrective`,
    graph: "dson.json",
    files: () => ({ "arm.duf": dsonBytes(jcmFigure(JCM_BENDS.decoded)) }),
    model: "arm.duf",
    blender: { shapeKeys: { [JCM]: jcmCurve(JCM_BENDS.decoded) } },
  },
  {
    label: `dson.json figure at rest, a pose preset bending its elbow ${JCM_BENDS.preset}°`,
    graph: "dson.json",
    files: () => ({ "arm.duf": dsonBytes(jcmFigure(0)) }),
    model: "arm.duf",
    inputs: () => ({ preset: posePreset([["lForearmBend", "rotation/y", JCM_BENDS.preset]]) }),
    blender: { shapeKeys: { [JCM]: jcmCurve(JCM_BENDS.preset) } },
  },
];

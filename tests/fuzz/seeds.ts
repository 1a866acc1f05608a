/**
 * Seed files for fuzzing, one per format, all made by code from the encoders and fixtures the
 * format tests use: nothing is read from disk, so a fuzz case is reproducible from its seed alone.
 *
 * @module
 */
import { buildCompound, CONSTRAINTS } from "../nodes/decode/freelancer/fixtures.ts";
import { SCRIPTS } from "../nodes/decode/freelancer/scripts.ts";
import { animationTree } from "../support/freelancer/encode_model.ts";
import { animatedCar, animation, limbModel } from "../nodes/decode/carnivores/fixtures.ts";
import { encode3df, encodeCar } from "../support/carnivores/encode.ts";
import { encodeRsc } from "../support/carnivores/rsc.ts";
import { encode3dn } from "../support/carnivores/encode_3dn.ts";
import { dsonBytes, generateFigure } from "../nodes/decode/dson/generate.ts";
import { buildFighterScene } from "../../nodes/demo/fighter_run.ts";
import { writeGlb, writeGltfJson } from "../../runtime/scene/gltf_io.ts";
import { join } from "node:path";
import { CORPUS_DIR } from "../support/corpus.ts";
import { dracoGlb, dracoGrid } from "../support/draco.ts";
import { basisuQuadGlb, uastcKtx2 } from "../support/ktx2.ts";
import { losslessWebp, webpQuadGlb } from "../support/webp.ts";
import { avifQuadGlb, losslessAvif } from "../support/avif.ts";
import { instancedGlb } from "../support/instancing.ts";
import { quantizeLikeGltfpack } from "../support/quantize.ts";
import { writeCompressedGlb } from "../support/compressed.ts";
import { packedBoxGlb, packedSkinnedGlb } from "../support/msfs_packed.ts";
import { gltf1Of } from "../support/gltf1.ts";
import { messyGlb } from "../support/messy_gltf.ts";
import { readGltf } from "../../runtime/scene/gltf_io.ts";

/**
 * The formats the fuzzer covers, each seeded by a file made by code (`draco`: a Draco-compressed GLB;
 * `meshopt`: the demo fighter quantized as gltfpack does and meshopt-compressed; `ktx2`, `webp` and
 * `avif`: a quad with a UASTC KTX2, a lossless WebP or a lossless AVIF texture, which
 * `textures.to_png` re-encodes; `instanced`:
 * a GPU-instanced mesh with normalized-short rotations, which `scene.uninstance` expands; `msfs`: a
 * box packed as Flight Simulator packs models, with an invisible material; `msfs-skin`: a box skinned
 * to two joints in Asobo's `BLEND4` packing (half-float weights, byte colours); `gltf1`: a skinned,
 * animated, textured wing as glTF 1.0 JSON, with a bind shape matrix, two meshes on one node and one
 * vertex view shared by attributes of different strides, which `decode.gltf` upgrades to 2.0).
 */
export const FUZZ_FORMATS = [
  "cmp",
  "3df",
  "car",
  "rsc",
  "3dn",
  "dson",
  "glb",
  "gltf",
  "draco",
  "meshopt",
  "ktx2",
  "webp",
  "avif",
  "instanced",
  "msfs",
  "msfs-skin",
  "gltf1",
] as const;

/** One of {@link FUZZ_FORMATS}. */
export type FuzzFormat = typeof FUZZ_FORMATS[number];

/**
 * Formats whose outputs keep a glTF extension (`meshopt`'s, `KHR_mesh_quantization`): the export's fast
 * check leaves them to the Khronos validator.
 */
export const EXTENDED_OUTPUT_FORMATS: ReadonlySet<FuzzFormat> = new Set(["meshopt"]);

/**
 * Seed sets of real third-party files from the shared corpus (absent in users' clones): `real-<format>`
 * mutates the corpus files of that format in turn.
 */
export const CORPUS_FORMATS = ["real-cmp", "real-3df", "real-car", "real-dson", "real-glb"] as const;

/** One of {@link CORPUS_FORMATS}. */
export type CorpusFormat = typeof CORPUS_FORMATS[number];

/** Corpus sub-folders and file extensions of each {@link CORPUS_FORMATS} entry, and how to mutate them. */
const CORPUS_SOURCES: Record<CorpusFormat, { dir: string; ext: RegExp; as: FuzzFormat }> = {
  "real-cmp": { dir: "freelancer", ext: /\.(cmp|3db)$/i, as: "cmp" },
  "real-3df": { dir: "carnivores", ext: /\.3df$/i, as: "3df" },
  "real-car": { dir: "carnivores", ext: /\.car$/i, as: "car" },
  "real-dson": { dir: "dson", ext: /\.(duf|dsf)$/i, as: "dson" },
  "real-glb": { dir: "aircraft", ext: /\.glb$/i, as: "glb" },
};

/** The corpus seeds of a `real-<format>` set, sorted by name; empty when the corpus is absent. */
export async function corpusSeeds(set: CorpusFormat): Promise<FuzzSeed[]> {
  const { dir, ext, as } = CORPUS_SOURCES[set];
  const folder = join(CORPUS_DIR, dir);
  const names = await Array.fromAsync(Deno.readDir(folder)).then(
    (entries) => entries.filter((e) => e.isFile && ext.test(e.name)).map((e) => e.name).sort(),
    () => [],
  );
  // Gzip-wrapped DSON is inflated, so its JSON is damaged structurally like the plain files'.
  const read = async (name: string) => {
    const bytes = await Deno.readFile(join(folder, name));
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
  return await Promise.all(names.map(async (name) => ({ format: as, name, bytes: await read(name) })));
}

/** A valid file of one format to mutate. */
export interface FuzzSeed {
  readonly format: FuzzFormat;
  /** File name handed to the decoder (its extension matters for sniffing). */
  readonly name: string;
  readonly bytes: Uint8Array;
}

let seeds: Promise<Record<FuzzFormat, FuzzSeed>> | undefined;

/** The seed of every format (built once per process). */
export function fuzzSeeds(): Promise<Record<FuzzFormat, FuzzSeed>> {
  seeds ??= (async () => {
    const fighter = buildFighterScene(1);
    const options = { generator: "partgraph fuzz" };
    // A revolute, a prismatic and a sphere joint, with scripts driving each (every key form: explicit
    // and fixed-interval times, angles, full and both compressed quaternions).
    const small = CONSTRAINTS.filter((c) => ["TURRET", "Barrel", "Radar"].includes(c.child));
    const scripts = animationTree({
      Sc_open: SCRIPTS.Sc_open,
      Sc_packed: SCRIPTS.Sc_packed,
      Sc_scaled: SCRIPTS.Sc_scaled,
    });
    const list: FuzzSeed[] = [
      {
        format: "cmp",
        name: "fuzz.cmp",
        bytes: buildCompound({ constraints: small, extra: [scripts] }).bytes,
      },
      { format: "3df", name: "fuzz.3df", bytes: encode3df(limbModel()) },
      { format: "car", name: "fuzz.car", bytes: encodeCar(animatedCar()) },
      // The mobile `.3dn` (CarnivoresIO's writer): the same boned model, its texture a file apart.
      { format: "3dn", name: "fuzz.3dn", bytes: encode3dn(limbModel()) },
      // A Carnivores area (C1 layout, the smaller): a ground texture, a static and an animated object.
      {
        format: "rsc",
        name: "fuzz.rsc",
        bytes: encodeRsc({
          version: "c1",
          textures: 1,
          objects: [
            { model: limbModel() },
            { model: limbModel(), animation: animation("", 10, 2, limbModel().points, 0) },
          ],
          fogs: 1,
          randomSounds: [4],
          ambientSounds: [2],
        }),
      },
      { format: "dson", name: "fuzz.duf", bytes: dsonBytes(generateFigure({ side: 4, bones: 2 })) },
      { format: "glb", name: "fuzz.glb", bytes: await writeGlb(fighter, options) },
      { format: "gltf", name: "fuzz.gltf", bytes: await writeGltfJson(fighter, options) },
      {
        format: "draco",
        name: "fuzz.draco.glb",
        bytes: await dracoGrid(12, "edgebreaker").then((d) => dracoGlb(d.json, d.stream)),
      },
      { format: "meshopt", name: "fuzz.meshopt.glb", bytes: await quantizedMeshoptFighter() },
      {
        format: "ktx2",
        name: "fuzz.ktx2.glb",
        bytes: await basisuQuadGlb(uastcKtx2(32, 16, (x, y) => [x * 30, y * 60, 200])),
      },
      {
        format: "webp",
        name: "fuzz.webp.glb",
        bytes: await webpQuadGlb(
          await losslessWebp(24, 16, new Uint8Array(24 * 16 * 4).map((_, i) => (i * 29) & 255)),
        ),
      },
      {
        format: "avif",
        name: "fuzz.avif.glb",
        bytes: await avifQuadGlb(
          await losslessAvif(24, 16, new Uint8Array(24 * 16 * 4).map((_, i) => (i * 29) & 255)),
        ),
      },
      { format: "instanced", name: "fuzz.instanced.glb", bytes: await instancedGlb({ quantized: true }) },
      // Without UV tiling, whose texture transform would leave every output to the validator alone.
      {
        format: "msfs",
        name: "fuzz.msfs.glb",
        bytes: packedBoxGlb({ edit: (json) => delete json.materials[0].extensions }),
      },
      { format: "msfs-skin", name: "fuzz.msfs-skin.glb", bytes: packedSkinnedGlb({ blend: 4 }) },
      {
        format: "gltf1",
        name: "fuzz.gltf",
        bytes: await gltf1Of(await readGltf(await messyGlb(() => {})), {
          bindShapeTranslation: [0.5, -2, 3],
          splitMeshes: (name) => name === "Flap_R",
          sharedVertexView: true,
        }),
      },
    ];
    return Object.fromEntries(list.map((s) => [s.format, s])) as Record<FuzzFormat, FuzzSeed>;
  })();
  return seeds;
}

/** The demo fighter as web optimisers leave it: quantized (KHR_mesh_quantization) and meshopt-compressed. */
async function quantizedMeshoptFighter(): Promise<Uint8Array> {
  const doc = buildFighterScene(1);
  quantizeLikeGltfpack(doc);
  return await writeCompressedGlb(doc, "meshopt");
}

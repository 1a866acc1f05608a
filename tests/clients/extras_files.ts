/**
 * Scenes carrying extras as real tools and users leave them, to pass through real clients: Unity and
 * Unreal exporters' instance and asset ids (64-bit, or uint32 hashes past 2³¹−1), millisecond
 * timestamps, three.js `userData` (booleans, nulls, `[x, y, null]` lists, tags mixed with numbers),
 * Blender custom properties written back (`[1, 0]` flags, long nested groups), CAD converters' long
 * key names, Freelancer-style CRC ids as numbers (older converters than partgraph's, which writes them
 * as hex text), and empty groups and lists. Each is a function of a seed: which properties carry which
 * values varies with it, so one seed may tune a fix and another judge it.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { prng } from "../support/prng.ts";

type Rng = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const int = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

/** One extras field a tool writes, by what it holds (for the census: `kind` of each value). */
interface Field {
  readonly kind: string;
  readonly key: string;
  readonly value: (rng: Rng) => Json;
}

/** A key of more than 63 bytes, as CAD converters spell a parameter's full path. */
const LONG_KEY = "Autodesk_Revit_Parameters_IdentityData_AssemblyCode_Description_Text";

/** The fields real files carry, each with the kind of value it is. */
const FIELDS: readonly Field[] = [
  { kind: "wide id", key: "unity_instance_id", value: (rng) => int(rng, 2 ** 31, 2 ** 32 - 1) },
  { kind: "wide id", key: "crc", value: (rng) => int(rng, 2 ** 31, 2 ** 32 - 1) },
  { kind: "wide id", key: "created_ms", value: (rng) => 1_700_000_000_000 + int(rng, 0, 99_999_999) },
  {
    kind: "wide id",
    key: "asset",
    value: (rng) => ({ guid_hi: -int(rng, 2 ** 31 + 1, 2 ** 40), path: "Assets/Ship.prefab" }),
  },
  { kind: "wide id", key: "lods", value: (rng) => [int(rng, 0, 9), int(rng, 2 ** 31, 2 ** 33)] },
  { kind: "small number", key: "mass", value: (rng) => Math.round(rng() * 1e4) / 100 },
  { kind: "small number", key: "layer", value: (rng) => int(rng, -5, 31) },
  { kind: "text", key: "tag", value: (rng) => pick(rng, ["Untagged", "Player", "Крыло", "翼"]) },
  { kind: "text", key: "notes", value: (rng) => "x".repeat(int(rng, 1000, 5000)) },
  { kind: "list", key: "offset", value: (rng) => [rng(), rng(), rng()] },
  { kind: "list", key: "names", value: () => ["a", "b", "c"] },
  { kind: "list", key: "rows", value: (rng) => [[int(rng, 0, 9)], [1, 2]] },
  { kind: "group", key: "physics", value: (rng) => ({ drag: rng(), body: { kind: "box" } }) },
  { kind: "group", key: "empty", value: () => ({}) },
  { kind: "group", key: "none_in_group", value: () => ({ parent: null, id: 3 }) },
  { kind: "boolean", key: "visible", value: (rng) => rng() < 0.5 },
  { kind: "boolean", key: "flags", value: (rng) => ({ castShadow: rng() < 0.5, receiveShadow: true }) },
  { kind: "null", key: "parent", value: () => null },
  { kind: "null in list", key: "pivot", value: (rng) => [rng(), null, 0] },
  { kind: "mixed list", key: "tags", value: (rng) => ["door", int(rng, 1, 4)] },
  { kind: "mixed list", key: "steps", value: (rng) => [{ t: 0 }, int(rng, 1, 9)] },
  { kind: "long key", key: LONG_KEY, value: () => "A-100" },
  { kind: "long key", key: "ifc", value: () => ({ [LONG_KEY]: 12, GlobalId: "2O2Fr$t4X7Zf8NOew3FLOH" }) },
];

/** The kinds of value a census counts, in the order it lists them. */
export const FIELD_KINDS = [...new Set(FIELDS.map((field) => field.kind))];

/**
 * Each property's extras as written into the scene, by `<kind>:<name>`: scenes, nodes, meshes and
 * materials by their glTF list and name; with `everywhere`, also `asset:`, `primitives:<mesh>/<i>`,
 * `images:`, `textureInfos:<material>`, `skins:`, `animations:`, `channels:<clip>/<i>`,
 * `accessors:<what>` (properties a Blender 3.4 round trip matches by place or not at all).
 */
export type ExtrasByProperty = Map<string, Record<string, Json>>;

/** The kind of value each key of {@link FIELDS} holds. */
export function fieldKind(key: string): string {
  return FIELDS.find((field) => field.key === key)?.kind ?? "other";
}

/**
 * A scene whose nodes, meshes, materials and scene carry 2–6 fields each (and one in five a
 * partgraph-style `partgraph` group holding a field too: a value Blender cannot keep inside it takes
 * the whole group with it). Returns the scene and the extras each property was given.
 */
export function extrasScene(
  seed: number,
  options: { everywhere?: boolean } = {},
): { doc: Document; extras: ExtrasByProperty } {
  const rng = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(`Scene_${seed}`);
  const extras: ExtrasByProperty = new Map();
  const give = (
    kind: string,
    property: { getName(): string; setExtras(extras: object): unknown },
    random = rng,
    id = property.getName(),
  ) => {
    const fields: Record<string, Json> = {};
    for (let i = int(random, 2, 6); i > 0; i--) {
      const field = pick(random, FIELDS);
      fields[field.key] = field.value(random);
    }
    if (random() < 0.2) {
      const field = pick(random, FIELDS);
      fields.partgraph = { part: { kind: "aileron", side: "left" }, [field.key]: field.value(random) };
    }
    property.setExtras(fields);
    extras.set(`${kind}:${id}`, fields);
  };
  give("scenes", scene);
  const position = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const parts = int(rng, 3, 8);
  for (let i = 0; i < parts; i++) {
    const material = doc.createMaterial(`Paint_${seed}_${i}`);
    const mesh = doc.createMesh(`Panel_${seed}_${i}_mesh`)
      .addPrimitive(doc.createPrimitive().setAttribute("POSITION", position).setMaterial(material));
    const node = doc.createNode(`Panel_${seed}_${i}`).setMesh(mesh).setTranslation([i, 0, 0]);
    scene.addChild(node);
    give("nodes", node);
    give("meshes", mesh);
    give("materials", material);
  }
  if (options.everywhere) everywhere(doc, seed, give);
  return { doc, extras };
}

type Give = (
  kind: string,
  property: { getName(): string; setExtras(extras: object): unknown },
  random: Rng,
  id: string,
) => void;

/**
 * Extras where tools also write them, on properties Blender 3.4 matches by place or not at all (its own
 * rng, so a seed's other extras stay as they were): Sketchfab's `asset.extras` (author, licence,
 * title), three.js `userData` of textures, clips and geometry (primitives), Unity's clip events and
 * skin ids, MSFS-style primitive and accessor fields.
 */
function everywhere(doc: Document, seed: number, give: Give): void {
  const rng = prng(seed * 7919 + 1);
  const root = doc.getRoot();
  const buffer = root.listBuffers()[0];
  const scene = root.listScenes()[0];
  give("asset", root, rng, "");
  root.listMeshes().forEach((mesh, m) => {
    if (rng() < 0.5) give("primitives", mesh.listPrimitives()[0], rng, `${m}/0`);
  });
  const png = Uint8Array.from(atob(PNG_1X1), (c) => c.charCodeAt(0));
  const image = doc.createTexture(`Decal_${seed}`).setImage(png).setMimeType("image/png");
  give("images", image, rng, image.getName());
  const material = root.listMaterials()[0].setBaseColorTexture(image);
  give("textureInfos", material.getBaseColorTextureInfo()!, rng, material.getName());
  const uv = doc.createAccessor().setType("VEC2").setBuffer(buffer).setArray(
    new Float32Array([0, 0, 1, 0, 0, 1]),
  );
  for (const primitive of root.listMeshes()[0].listPrimitives()) primitive.setAttribute("TEXCOORD_0", uv);
  give("accessors", uv, rng, "uv");
  // A skinned triangle: two joints under a root node, every vertex on the first.
  const [hip, knee] = [
    doc.createNode(`Hip_${seed}`),
    doc.createNode(`Knee_${seed}`).setTranslation([0, 1, 0]),
  ];
  hip.addChild(knee);
  const skin = doc.createSkin(`Rig_${seed}`).addJoint(hip).addJoint(knee).setSkeleton(hip);
  give("skins", skin, rng, skin.getName());
  const skinned = doc.createMesh(`Leg_${seed}_mesh`).addPrimitive(
    doc.createPrimitive()
      .setAttribute("POSITION", root.listMeshes()[0].listPrimitives()[0].getAttribute("POSITION"))
      .setAttribute(
        "JOINTS_0",
        doc.createAccessor().setType("VEC4").setBuffer(buffer).setArray(new Uint8Array(12)),
      )
      .setAttribute(
        "WEIGHTS_0",
        doc.createAccessor().setType("VEC4").setBuffer(buffer)
          .setArray(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
      ),
  );
  scene.addChild(hip).addChild(doc.createNode(`Leg_${seed}`).setMesh(skinned).setSkin(skin));
  // A clip turning the knee, and one channel's events.
  const times = doc.createAccessor().setBuffer(buffer).setArray(new Float32Array([0, 1]));
  const turns = doc.createAccessor().setType("VEC4").setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068]));
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(turns).setInterpolation("LINEAR");
  const channel = doc.createAnimationChannel().setTargetNode(knee).setTargetPath("rotation").setSampler(
    sampler,
  );
  const clip = doc.createAnimation(`Kneel_${seed}`).addSampler(sampler).addChannel(channel);
  give("animations", clip, rng, clip.getName());
  give("channels", channel, rng, `${clip.getName()}/0`);
}

/** A 1×1 opaque white PNG. */
const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

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

/** Each property's extras as written into the scene, by `<kind>:<name>` (scenes, nodes, meshes, materials). */
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
export function extrasScene(seed: number): { doc: Document; extras: ExtrasByProperty } {
  const rng = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(`Scene_${seed}`);
  const extras: ExtrasByProperty = new Map();
  const give = (kind: string, property: { getName(): string; setExtras(extras: object): unknown }) => {
    const fields: Record<string, Json> = {};
    for (let i = int(rng, 2, 6); i > 0; i--) {
      const field = pick(rng, FIELDS);
      fields[field.key] = field.value(rng);
    }
    if (rng() < 0.2) {
      const field = pick(rng, FIELDS);
      fields.partgraph = { part: { kind: "aileron", side: "left" }, [field.key]: field.value(rng) };
    }
    property.setExtras(fields);
    extras.set(`${kind}:${property.getName()}`, fields);
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
  return { doc, extras };
}

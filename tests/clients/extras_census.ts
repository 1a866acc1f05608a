/**
 * What comes back of each extras field after `export.gltf` and a Blender 3.4 round trip with Include →
 * Custom Properties on (`extras_files.ts` makes the scenes): each top-level field of a scene, node,
 * mesh or material is kept (equal as JSON numbers compare: `3000000000.0` is `3000000000`), changed in
 * type only (a boolean back as 1/0), or lost (dropped, or turned into Python text); and whether a
 * warning of the export named the field's key.
 *
 * @module
 */
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { throughBlender } from "./blender.ts";
import { extrasScene, fieldKind } from "./extras_files.ts";

/** One field that did not come back as written. */
export interface ExtrasLoss {
  /** `<kind>:<name>` of the property, and the field's key. */
  readonly property: string;
  readonly key: string;
  /** The kind of value the generator wrote (`extras_files.ts`), `partgraph` for the nested group. */
  readonly kind: string;
  /** `lost` (dropped or text) or `1/0` (booleans written back as numbers). */
  readonly how: "lost" | "1/0";
  /** Whether a warning of the export named the key. */
  readonly warned: boolean;
}

/** The census of some seeds: fields compared, and each that did not come back. */
export interface ExtrasCensus {
  readonly fields: number;
  readonly losses: ExtrasLoss[];
}

// deno-lint-ignore no-explicit-any
type Json = any;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** Equal as JSON values (numbers by value); `loose` takes a boolean's 1/0 for it. */
function same(a: Json, b: Json, loose: boolean): boolean {
  if (typeof a === "boolean" && loose && typeof b === "number") return b === (a ? 1 : 0);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i], loose));
  }
  if (a && typeof a === "object") {
    if (!b || typeof b !== "object" || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k], loose));
  }
  return a === b;
}

/** Kinds of property a round trip is matched by name (the scene by place); others anywhere in the file. */
const NAMED = new Set(["scenes", "nodes", "meshes", "materials"]);

/** How a warning names a property of each kind matched anywhere. */
const NOUNS: Record<string, string> = {
  asset: "the file",
  primitives: "primitive",
  images: "image",
  textureInfos: "baseColorTexture of material",
  accessors: "accessor",
  skins: "skin",
  animations: "clip",
  channels: "channel",
};

/** Every extras object of a file. */
function allExtras(value: Json, found: Json[] = []): Json[] {
  if (Array.isArray(value)) { for (const item of value) allExtras(item, found); }
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "extras" && item && typeof item === "object") found.push(item);
      else allExtras(item, found);
    }
  }
  return found;
}

/**
 * Exports each seed's scene once per entry of `variants` (with `everywhere`, extras on every kind of
 * property: `extras_files.ts`), passes them all through one Blender process (a Blender start costs more
 * than these files' trips), and compares the extras: one census per variant, in order; a skip reason
 * without Blender. A field of a property Blender cannot match by name counts as kept when any extras of
 * the file written back hold its key with its value.
 */
export async function extrasCensuses(
  seeds: readonly number[],
  variants: readonly { everywhere?: boolean }[],
): Promise<{ skip: string } | ExtrasCensus[]> {
  const runs: {
    seed: number;
    glb: Uint8Array;
    extras: ReturnType<typeof extrasScene>["extras"];
    warnings: string[];
  }[] = [];
  for (const options of variants) {
    for (const seed of seeds) {
      const { doc, extras } = extrasScene(seed, options);
      const ctx = testContext();
      const glb = (await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes;
      runs.push({ seed, glb, extras, warnings: ctx.warnings.map((w) => w.message) });
    }
  }
  const result = await throughBlender(runs.map((run) => ({ glb: run.glb, extras: true })));
  if ("skip" in result) return result;
  return variants.map((_, v) => {
    let fields = 0;
    const losses: ExtrasLoss[] = [];
    for (let i = v * seeds.length; i < (v + 1) * seeds.length; i++) {
      const run = runs[i];
      const output = result.outputs[i];
      if ("error" in output) throw new Error(`Blender failed on seed ${run.seed}: ${output.error}`);
      const back = glbJson(output.glb);
      const anywhere = allExtras(back);
      for (const [property, written] of run.extras) {
        const [kind, name] = property.split(":");
        // Blender imports a file's scene into its own (named `Scene`): the one scene is matched by place.
        const found = !NAMED.has(kind)
          ? {}
          : (kind === "scenes" ? back.scenes?.[0] : (back[kind] ?? []).find((p: Json) => p.name === name))
            ?.extras ?? {};
        for (const [key, value] of Object.entries(written)) {
          fields++;
          const match = NAMED.has(kind)
            ? found
            : anywhere.find((extras) => same(value, extras[key], false)) ?? {};
          if (same(value, match[key], false)) continue;
          const how = same(value, match[key], true) ? "1/0" : "lost";
          const warned = run.warnings.some((w) =>
            NAMED.has(kind)
              ? w.includes(`'${key}'`) || w.includes(`.${key}`)
              : w.includes(key) && w.includes(NOUNS[kind] ?? kind)
          );
          losses.push({
            property,
            key,
            kind: key === "partgraph" ? "partgraph" : fieldKind(key),
            how,
            warned,
          });
        }
      }
    }
    return { fields, losses };
  });
}

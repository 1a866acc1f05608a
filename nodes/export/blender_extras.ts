/**
 * Extras Blender 3.4 cannot keep as custom properties, named so the user knows before a round trip.
 * Its importer copies each top-level key of a scene's, node's, mesh's, material's, camera's or
 * light's extras into one custom property; a value its 32-bit, typed properties cannot hold makes it
 * store that whole key as Python text (`"{'tags': ['door', 2]}"`), and with Include → Custom
 * Properties on it writes that text back — every value under the key lost to every reader. Measured
 * on Blender 3.4 (`tests/clients/blender_extras_test.ts`): a list holding a null, a list mixing numbers
 * or booleans with text, lists or groups, and a key longer than 63 bytes inside a group turn the key
 * into text; a top-level key longer than 63 bytes or whose value is null is dropped. Integers past
 * 32 bits did so too: `writtenText` (`runtime/scene/written_json.ts`) now writes them as Blender keeps
 * them. Booleans come back as 1 and 0 (Blender 3.4 has no boolean property), which JSON readers that
 * test truth still read the same: not warned of, or every file would say it.
 *
 * @module
 */

/** The longest key Blender stores, in bytes of UTF-8 (its property names hold 64 with the NUL). */
const MAX_KEY_BYTES = 63;

// deno-lint-ignore no-explicit-any
type Json = any;

/** What Blender does with a value that does not fit, and why, for the first such place under a key. */
interface Misfit {
  readonly path: string;
  readonly why: string;
}

/**
 * Warnings for the extras keys of `json` (a written file's JSON) that Blender 3.4 keeps only as text
 * or drops, one per key and outcome, naming up to three properties holding it and the first place
 * inside that does not fit.
 *
 * @example
 * ```ts
 * blenderExtrasDrops({ nodes: [{ name: "Door", extras: { tags: ["door", 2] } }] });
 * // ["extras 'tags' of node 'Door': Blender 3.4 keeps it only as Python text (…) …"]
 * ```
 */
export function blenderExtrasDrops(json: Json): string[] {
  const found = new Map<string, { owners: string[]; misfit: Misfit; dropped: boolean }>();
  const lights = json.extensions?.KHR_lights_punctual?.lights;
  const owners: [string, Json[] | undefined][] = [
    ["scene", json.scenes],
    ["node", json.nodes],
    ["mesh", json.meshes],
    ["material", json.materials],
    ["camera", json.cameras],
    ["light", lights],
  ];
  for (const [kind, list] of owners) {
    (list ?? []).forEach((property: Json, i: number) => {
      const extras = property?.extras;
      if (!extras || typeof extras !== "object" || Array.isArray(extras)) return;
      for (const [key, value] of Object.entries(extras)) {
        const dropped = byteLength(key) > MAX_KEY_BYTES || value === null;
        const misfit = dropped
          ? {
            path: "",
            why: value === null ? "its value is null" : `its name is over ${MAX_KEY_BYTES} bytes`,
          }
          : firstMisfit(value, "");
        if (!misfit) continue;
        const id = `${dropped ? "dropped" : "text"}:${key}`;
        const entry = found.get(id) ?? found.set(id, { owners: [], misfit, dropped }).get(id)!;
        entry.owners.push(`${kind} '${property.name ?? `#${i}`}'`);
      }
    });
  }
  return [...found.entries()].map(([id, { owners, misfit, dropped }]) => {
    const key = id.slice(id.indexOf(":") + 1);
    const shown = owners.slice(0, 3).join(", ") + (owners.length > 3 ? ` and ${owners.length - 3} more` : "");
    const outcome = dropped
      ? `Blender 3.4's importer drops it (${misfit.why})`
      : `Blender 3.4 keeps it only as Python text, every value under it lost to readers of a file it ` +
        `writes back (${misfit.why} at extras.${key}${misfit.path})`;
    return `extras '${key}' of ${shown}: ${outcome}; three.js keeps it as written`;
  });
}

/** The first place in `value` Blender's custom properties cannot hold, or undefined. */
function firstMisfit(value: Json, path: string): Misfit | undefined {
  if (Array.isArray(value)) {
    if (value.some((item) => item === null)) return { path, why: "a list holding null" };
    const numbers = value.filter((item) => typeof item === "number" || typeof item === "boolean").length;
    if (numbers > 0 && numbers < value.length) {
      return { path, why: "a list mixing numbers with other values" };
    }
    for (let i = 0; i < value.length; i++) {
      const inner = firstMisfit(value[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (byteLength(key) > MAX_KEY_BYTES) return { path, why: `a key over ${MAX_KEY_BYTES} bytes` };
    const inner = firstMisfit(item, `${path}.${key}`);
    if (inner) return inner;
  }
  return undefined;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

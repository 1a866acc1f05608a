/**
 * Numbers JSON cannot hold in a written file's extras. A decoder or node may put NaN or ±Infinity into
 * a property's extras (a formula of a damaged file, a division by a zero length); `JSON.stringify`
 * writes each as `null`, so every client reads `null` where the scene held a number — silently, until
 * this warning. The value itself is not repaired: there is no number to write in its place.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
type Json = any;

/** Places listed per warning before the rest are counted. */
const SHOWN = 4;

/**
 * One warning per property whose extras hold NaN or ±Infinity, naming the property (its glTF list and
 * name, else index) and the places (`extras.a.b[2]`), given the JSON value a file was written from.
 *
 * @example
 * ```ts
 * nonFiniteExtras({ nodes: [{ name: "Flap", extras: { hinge: NaN } }] });
 * // ["extras of node 'Flap' hold NaN or Infinity at extras.hinge, which JSON cannot hold: written null"]
 * ```
 */
export function nonFiniteExtras(json: Json): string[] {
  const messages: string[] = [];
  const visit = (value: Json, owner: string): void => {
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, owner);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === "extras") {
        const places: string[] = [];
        collect(item, "extras", places);
        if (places.length) {
          const shown = places.slice(0, SHOWN).join(", ") +
            (places.length > SHOWN ? ` and ${places.length - SHOWN} more` : "");
          const name = typeof value.name === "string" ? `'${value.name}'` : "";
          messages.push(
            `extras of ${owner}${
              name ? ` ${name}` : ""
            } hold NaN or Infinity at ${shown}, which JSON cannot ` +
              "hold: written null, as every client then reads them",
          );
        }
      } else visit(item, singular(key));
    }
  };
  visit(json, "the file");
  return messages;
}

/** `meshes` → `mesh`, `nodes` → `node`: a glTF list's key as the name of one of its items. */
function singular(key: string): string {
  return key.endsWith("shes") ? key.slice(0, -2) : key.endsWith("s") ? key.slice(0, -1) : key;
}

/** The places under `value` holding a number that is not finite. */
function collect(value: Json, path: string, places: string[]): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) places.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${path}[${i}]`, places));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) collect(item, `${path}.${key}`, places);
  }
}

/**
 * Daz's mesh smoothing modifier on fitted clothing (`studio/modifier/smoothing`, Daz's
 * DzMeshSmoothModifier), named in a warning, not applied. Daz puts it on most store clothing (the
 * Transfer Utility adds it) and on items a user gives one (Edit → Object → Geometry → Add Smoothing
 * Modifier). Its `studio_modifier_channels` say what it does: "Enable Smoothing", "Smoothing Type"
 * (Generic Smoothing, or Base Shape Matching: smooth towards the modelled shape), "Smoothing
 * Iterations", and its collision pass: "Collision Item" (a node, most often the body) and
 * "Collision Iterations", pushing the item out of that item's surface.
 *
 * Daz runs both on the deformed mesh, after morphs and the pose, at every frame. A glTF mesh is its
 * rest shape with morph targets and a skin, evaluated by the viewer: there is no place for a
 * pose-dependent smoothing or collision, and Daz's algorithm is not published, so it is not
 * imitated here. Applying a Laplacian-style smoothing of `smoothing_iterations` passes to the rest
 * shape was considered (decode.dson v39) and left: at rest "Base Shape Matching" smooths towards the
 * modelled shape (little to do), "Generic Smoothing" would change a shape Daz's own rest view keeps
 * only within an unknown step size and weighting, and the collision needs the deformed body of every
 * frame; a guessed pass would be a silent wrong shape, worse than the named gap. What changes is that a user is told: where a dialled morph or a pose pushes the
 * body into the item, Daz's collision keeps the item outside and the glTF does not (before
 * decode.dson v32 the modifier was passed over silently).
 *
 * @module
 */
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/** A smoothing modifier applied to a mesh: its definition and the scene instance overriding it. */
export interface SmoothingUse {
  readonly mesh: number;
  readonly entry: DsonEntry;
  /** The scene's modifier instance, when the scene applied it. */
  readonly instance?: { readonly record: JsonRecord; readonly path: string; readonly file: DsonFile };
}

/** Whether modifier `record` is Daz's mesh smoothing modifier (an `extra` of its type). */
export function isSmoothing(record: JsonRecord): boolean {
  const extra = record.extra;
  return Array.isArray(extra) &&
    extra.some((e) => !!e && typeof e === "object" && (e as JsonRecord).type === "studio/modifier/smoothing");
}

/** The channels of `records`' `studio_modifier_channels` extras by id, a later record's winning. */
function channelsOf(records: readonly JsonRecord[]): Map<string, JsonRecord> {
  const out = new Map<string, JsonRecord>();
  for (const record of records) {
    if (!Array.isArray(record.extra)) continue;
    for (const extra of record.extra) {
      if (!extra || typeof extra !== "object" || !Array.isArray((extra as JsonRecord).channels)) continue;
      for (const wrapper of (extra as JsonRecord).channels as unknown[]) {
        const channel = wrapper && typeof wrapper === "object" ? (wrapper as JsonRecord).channel : undefined;
        if (!channel || typeof channel !== "object") continue;
        const id = (channel as JsonRecord).id;
        if (typeof id === "string") out.set(id, { ...out.get(id), ...(channel as JsonRecord) });
      }
    }
  }
  return out;
}

/** A channel's scene value (`current_value`, else `value`), when written. */
function valueOf(channel: JsonRecord | undefined): unknown {
  if (!channel) return undefined;
  return channel.current_value ?? channel.value;
}

/**
 * The warning for smoothing modifier `use` on the mesh of node `name` (scene instance `key`), or undefined when its
 * "Enable Smoothing" is off (Daz neither smooths nor collides then): where it is and what Daz does
 * with it.
 */
export function describeSmoothing(
  use: SmoothingUse,
  name: string,
  key: string,
): { file: DsonFile; path: string; message: string } | undefined {
  const channels = channelsOf([use.entry.value, ...(use.instance ? [use.instance.record] : [])]);
  if (valueOf(channels.get("Enable Smoothing")) === false) return undefined;
  const type = channels.get("Smoothing Type");
  const typeValue = valueOf(type);
  const names = Array.isArray(type?.enum_values)
    ? type.enum_values
    : ["Generic Smoothing", "Base Shape Matching"];
  const kind = typeof typeValue === "number" && typeof names[typeValue] === "string"
    ? String(names[typeValue])
    : undefined;
  const iterations = valueOf(channels.get("Smoothing Iterations"));
  const collide = channels.get("Collision Item")?.node;
  const collideIterations = valueOf(channels.get("Collision Iterations"));
  const smooth = [kind, typeof iterations === "number" ? `${iterations} iteration(s)` : undefined]
    .filter((s) => s !== undefined);
  const against = typeof collide === "string" && collide !== ""
    ? ` and pushes it out of '${parseDsonUri(collide).id || collide}'` +
      (typeof collideIterations === "number" ? ` (${collideIterations} collision iteration(s))` : "")
    : "";
  const id = typeof use.entry.value.id === "string" ? use.entry.value.id : "?";
  const at = use.instance ?? { file: use.entry.file, path: use.entry.path };
  return {
    file: at.file,
    path: at.path,
    message:
      `Daz smooths '${name}'${
        key === name ? "" : ` (instance '${key}')`
      } with its mesh smoothing modifier '${id}'` +
      (smooth.length ? ` (${smooth.join(", ")})` : "") + `${against} after morphs and the pose deform it; ` +
      "neither smoothing nor collision is applied here (glTF has no place for a pose-dependent pass, and " +
      "Daz's smoothing weights, step and collision offset are not published, so a rest-shape imitation " +
      "would be a guess): the item is drawn " +
      "as modelled and projected, so where a dialled morph or a pose pushes its body into it, the body may " +
      "show through where Daz would keep it outside",
  };
}

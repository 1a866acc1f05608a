/**
 * Morph target counts brought into step, on the file's JSON before anything reads it, as viewers
 * show such files. Real files disagree with themselves here: Sketchfab and old exporters write a
 * mesh's or node's `weights` longer or shorter than its targets (or weights on a mesh whose targets
 * they dropped), a merge or an old Blender gives one primitive of a mesh fewer targets than another,
 * an optimizer strips targets and leaves `extras.targetNames` as it was, and a shape key moving nothing
 * is written as a sparse accessor listing no vertex (sparse `count` 0, which the spec forbids).
 *
 * What viewers do, and so what is kept: three.js's GLTFLoader sets influence i from weight i for
 * every primitive, so a weight past the targets drives nothing and a missing one is 0 (the spec's
 * default), and a primitive without target i does not move with it; Blender's importer names targets
 * by index from `extras.targetNames`, `target_<i>` past the list. Both read a sparse part of count 0
 * as no change. Left as written, glTF-Transform keeps the counts apart, and the scene's export is a
 * file the validator refuses (weights not one per target) with every weight past the first missing
 * one meaning another target to the next reader.
 *
 * @module
 */
// The file as parsed, before any check: every field may be anything, and is tested before use.
// deno-lint-ignore no-explicit-any
type Json = any;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const MORPHED = ["POSITION", "NORMAL", "TANGENT"] as const;

/** A mesh's or node's name for a note: its name when it has one, else its index. */
function label(kind: "mesh" | "node", item: Json, index: number): string {
  return typeof item.name === "string" && item.name ? `${kind} '${item.name}'` : `${kind} ${index}`;
}

/**
 * Brings `json`'s morph counts into step (see the module doc), returning a repair per change as
 * `<JSON path>: <what was done>`. Anything malformed is left for the structure check to name.
 */
export function alignMorphCounts(file: object): string[] {
  const json = file as Json;
  const repairs: string[] = [];
  const accessors = Array.isArray(json.accessors) ? json.accessors as Json[] : [];
  // Sparse parts of count 0: no change, as a missing sparse part is.
  accessors.forEach((accessor, a) => {
    if (isObject(accessor) && isObject(accessor.sparse) && accessor.sparse.count === 0) {
      delete accessor.sparse;
      repairs.push(
        `/accessors/${a}/sparse: a sparse part listing no element (count 0, which glTF does not allow) is read as no change, as three.js and Blender read it`,
      );
    }
  });
  if (!Array.isArray(json.meshes)) return repairs; // glTF 1.0 (meshes by id) has no morph targets.
  const targetCounts = (json.meshes as Json[]).map((mesh, m) => {
    if (!isObject(mesh) || !Array.isArray(mesh.primitives)) return 0;
    const primitives = (mesh.primitives as Json[]).filter(isObject);
    const counts = primitives.map((p) => Array.isArray(p.targets) ? p.targets.length : 0);
    const most = Math.max(0, ...counts);
    const path = `/meshes/${m}`;
    if (counts.some((c) => c !== most)) {
      primitives.forEach((primitive, p) => {
        if (counts[p] < most) padTargets(json, primitive, most, mesh.primitives as Json[]);
      });
      repairs.push(
        `${path}/primitives: ${label("mesh", mesh, m)}'s primitives have ${
          counts.join(", ")
        } morph targets; ` +
          `the ones with fewer are given targets moving nothing up to ${most}, as viewers draw them (glTF asks for the same count)`,
      );
    }
    fitWeights(mesh, most, `${path}/weights`, label("mesh", mesh, m), repairs);
    fitNames(json, mesh, most, `${path}/extras/targetNames`, label("mesh", mesh, m), repairs);
    return most;
  });
  if (!Array.isArray(json.nodes)) return repairs;
  (json.nodes as Json[]).forEach((node, n) => {
    if (!isObject(node) || node.weights === undefined) return;
    const count = typeof node.mesh === "number" ? targetCounts[node.mesh] ?? 0 : 0;
    const name = `${label("node", node, n)}${typeof node.mesh === "number" ? "" : " (it has no mesh)"}`;
    fitWeights(node, count, `/nodes/${n}/weights`, name, repairs);
  });
  return repairs;
}

/** `item.weights` made one per target: those past the targets left out, missing ones 0. */
function fitWeights(item: Json, count: number, path: string, name: string, repairs: string[]): void {
  const weights = item.weights;
  // Weights not all numbers are the structure check's to refuse, at the weight's own path.
  if (!Array.isArray(weights) || weights.length === count || !weights.every(Number.isFinite)) return;
  if (count === 0) {
    delete item.weights;
    repairs.push(
      `${path}: ${name} has ${weights.length} morph weights and no morph targets; the weights (driving nothing in viewers) are left out`,
    );
  } else if (weights.length > count) {
    item.weights = weights.slice(0, count);
    repairs.push(
      `${path}: ${name} has ${weights.length} morph weights for ${count} targets; the ${
        weights.length - count
      } past the targets (driving nothing in viewers) are left out`,
    );
  } else {
    item.weights = [...weights, ...Array(count - weights.length).fill(0)];
    repairs.push(
      `${path}: ${name} has ${weights.length} morph weights for ${count} targets; the missing ${
        count - weights.length
      } are 0, as viewers read them`,
    );
  }
}

/**
 * `extras.targetNames` made one per target: by index, as Blender's importer reads it, and past the list
 * as it names them: the first primitive's target's POSITION accessor name, else `target_<i>`.
 */
function fitNames(
  json: Json,
  mesh: Json,
  count: number,
  path: string,
  name: string,
  repairs: string[],
): void {
  const names = isObject(mesh.extras) ? mesh.extras.targetNames : undefined;
  if (!Array.isArray(names) || names.length === count) return;
  if (count === 0) {
    delete mesh.extras.targetNames;
    repairs.push(`${path}: ${name} names ${names.length} morph targets and has none; the names are left out`);
    return;
  }
  const accessorName = (i: number) => {
    const target = mesh.primitives?.[0]?.targets?.[i];
    const named = isObject(target) ? json.accessors?.[target.POSITION as number]?.name : undefined;
    return typeof named === "string" && named ? named : `target_${i}`;
  };
  mesh.extras.targetNames = Array.from(
    { length: count },
    (_, i) => i < names.length ? names[i] : accessorName(i),
  );
  repairs.push(
    names.length > count
      ? `${path}: ${name} names ${names.length} morph targets and has ${count}; the names past its targets are left out (Blender names them by index; three.js ignores all of them)`
      : `${path}: ${name} names ${names.length} of its ${count} morph targets; the rest are named as Blender names them (their positions' accessor name, else target_<i>) (three.js ignores all of them)`,
  );
}

/**
 * Gives `primitive` targets moving nothing up to `count`: accessors of zeros (no buffer view) for
 * each attribute the other primitives' same target moves and this primitive has.
 */
function padTargets(json: Json, primitive: Json, count: number, siblings: Json[]): void {
  if (!Array.isArray(json.accessors)) json.accessors = [];
  const accessors = json.accessors as Json[];
  const attributes = isObject(primitive.attributes) ? primitive.attributes : {};
  const vertices = accessors[attributes.POSITION as number]?.count;
  const targets: Json[] = Array.isArray(primitive.targets) ? primitive.targets : [];
  for (let t = targets.length; t < count; t++) {
    const target: Json = {};
    for (const semantic of MORPHED) {
      const moved = siblings.some((s) =>
        isObject(s) && Array.isArray(s.targets) && isObject(s.targets[t]) && semantic in s.targets[t]
      );
      const base = accessors[attributes[semantic] as number];
      if (!moved || !isObject(base) || !Number.isInteger(base.count ?? vertices)) continue;
      accessors.push({
        componentType: 5126,
        count: base.count ?? vertices,
        type: "VEC3",
        ...(semantic === "POSITION" ? { min: [0, 0, 0], max: [0, 0, 0] } : {}),
      });
      target[semantic] = accessors.length - 1;
    }
    if (!Object.keys(target).length && Number.isInteger(vertices)) {
      // No sibling moves an attribute this primitive has: a target must move something, so its positions.
      accessors.push({ componentType: 5126, count: vertices, type: "VEC3", min: [0, 0, 0], max: [0, 0, 0] });
      target.POSITION = accessors.length - 1;
    }
    targets.push(target);
  }
  primitive.targets = targets;
}

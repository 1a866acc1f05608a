/**
 * Meshes of a written glTF: attribute names and formats, counts within a primitive and its morph
 * targets, indices, and what data checks each attribute needs (unit normals and tangents, clamped
 * colours, skin influences, indices below the vertex count).
 *
 * @module
 */
import { collection, int, type Json, keys, numbers, object, optionalIntAt, shaped } from "./json.ts";
import { type AccessorLayout, FLOAT, UNSIGNED_INT, type ViewLayout } from "./layout.ts";
import { type AttributePlace, type InfluenceSet, type Plan, spelt, type Usages } from "./plan.ts";
import { outside } from "./verdict.ts";

/** What the rest of the check needs to know about a mesh. */
export interface MeshFacts {
  readonly targets: number;
  readonly skinned: boolean;
  /** Per primitive: its material and how many TEXCOORD_n sets it has. */
  readonly primitives: { material?: number; texCoords: number; pointer: string }[];
  /** Per primitive with joints: its influence sets (the skin's joint count is known from nodes). */
  readonly influenceSets: InfluenceSet[][];
}

const MESH_KEYS = keys("primitives", "weights");
const PRIMITIVE_KEYS = keys("attributes", "indices", "material", "mode", "targets");
const SET_SEMANTIC = /^(TEXCOORD|COLOR|JOINTS|WEIGHTS)_(0|[1-9][0-9]*)$/;

/** What the rules below read of an attribute semantic, worked out once per spelling. */
interface SemanticFacts {
  /** `TEXCOORD`, `COLOR`, `JOINTS` or `WEIGHTS` and the set number, for a set semantic. */
  readonly set?: readonly [string, number];
  /** POSITION, NORMAL or TANGENT. */
  readonly single: boolean;
  /** The key of the format tables: the semantic without a trailing `_n`. */
  readonly formatKey: string;
}

const semanticFacts = new Map<string, SemanticFacts>();

/** The {@link SemanticFacts} of `semantic` (remembered for the first few hundred spellings seen). */
function factsOf(semantic: string): SemanticFacts {
  let facts = semanticFacts.get(semantic);
  if (!facts) {
    const set = SET_SEMANTIC.exec(semantic);
    facts = {
      set: set ? [set[1], Number(set[2])] : undefined,
      single: ["POSITION", "NORMAL", "TANGENT"].includes(semantic),
      formatKey: semantic.replace(/_\d+$/, ""),
    };
    if (semanticFacts.size < 512) semanticFacts.set(semantic, facts);
  }
  return facts;
}

/** The accessor types the format tables name, by their place in the format code. */
const TYPES = ["SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"];

/**
 * `type/componentType[/normalized]` of an accessor as one number, so the tables are asked without a
 * string made per attribute (a ship has a thousand): the component type, the type's place in
 * {@link TYPES} and the normalized flag.
 */
function formatCode(type: string, componentType: number, normalized: boolean): number {
  return componentType * 32 + TYPES.indexOf(type) * 2 + (normalized ? 1 : 0);
}

/** {@link formatCode} of an accessor. */
function format(a: AccessorLayout): number {
  return formatCode(a.type, a.componentType, a.normalized);
}

/** The set of format codes of `specs`, each spelt `type/componentType[/n]`. */
function formats(...specs: string[]): ReadonlySet<number> {
  return new Set(specs.map((spec) => {
    const [type, componentType, normalized] = spec.split("/");
    return formatCode(type, Number(componentType), normalized === "n");
  }));
}

/** Formats the glTF 2.0 core allows per attribute semantic (no KHR_mesh_quantization). */
const FORMATS: Readonly<Record<string, ReadonlySet<number>>> = {
  POSITION: formats("VEC3/5126"),
  NORMAL: formats("VEC3/5126"),
  TANGENT: formats("VEC4/5126"),
  TEXCOORD: formats("VEC2/5126", "VEC2/5121/n", "VEC2/5123/n"),
  COLOR: formats("VEC3/5126", "VEC4/5126", "VEC3/5121/n", "VEC4/5121/n", "VEC3/5123/n", "VEC4/5123/n"),
  JOINTS: formats("VEC4/5121", "VEC4/5123"),
  WEIGHTS: formats("VEC4/5126", "VEC4/5121/n", "VEC4/5123/n"),
};
const TARGET_FORMATS: Readonly<Record<string, ReadonlySet<number>>> = {
  POSITION: formats("VEC3/5126"),
  NORMAL: formats("VEC3/5126"),
  TANGENT: formats("VEC3/5126"),
};
const INDEX_FORMATS = formats("SCALAR/5121", "SCALAR/5123", "SCALAR/5125");

/** Reads every mesh, adding its data checks to `plan`. */
export function readMeshes(
  root: Json,
  accessors: readonly AccessorLayout[],
  views: readonly ViewLayout[],
  usages: Usages,
  plan: Plan,
): MeshFacts[] {
  const materials = collection(root, "materials").length;
  // Vertex accessors per buffer view without byteStride: the validator wants a stride when two share one.
  const unstrided = new Map<number, Set<number>>();
  // An attribute's pointer is spelt only when a rule fails (`spelt`): `place` is its primitive's or
  // morph target's pointer and its semantic, `under` what joins them.
  const vertexAccessor = (
    value: unknown,
    place: AttributePlace & { semantic: string },
    under: string,
    table: Record<string, ReadonlySet<number>>,
  ) => {
    const semantic = place.semantic;
    const index = Number.isInteger(value) && (value as number) >= 0 && (value as number) < accessors.length
      ? value as number
      : int(value, spelt(place, under), accessors.length);
    const accessor = accessors[index];
    usages.accessor(index, accessor, "vertex", place, under);
    const allowed = semantic.startsWith("_") ? undefined : table[factsOf(semantic).formatKey];
    if (allowed ? !allowed.has(format(accessor)) : accessor.componentType === UNSIGNED_INT) {
      outside("attribute format not allowed for its semantic", spelt(place, under));
    }
    if (accessor.view === undefined) return accessor; // sparse, or zeros: the layout rules are about views
    const view = views[accessor.view];
    if (view.target !== undefined && view.target !== 34962) {
      outside("vertex data in an index view", spelt(place, under));
    }
    if (
      accessor.offsetInView % 4 !== 0 || (view.byteStride === undefined && accessor.elementBytes % 4 !== 0)
    ) {
      outside("vertex attribute not aligned to 4 bytes", spelt(place, under));
    }
    if (view.byteStride === undefined) {
      const shared = unstrided.get(accessor.view) ?? new Set();
      shared.add(index);
      if (shared.size > 1) {
        outside("vertex accessors share a buffer view without byteStride", spelt(place, under));
      }
      unstrided.set(accessor.view, shared);
    }
    return accessor;
  };

  return collection(root, "meshes").map((value, m) => {
    const meshPointer = `/meshes/${m}`;
    const mesh = shaped(value, meshPointer, MESH_KEYS);
    const primitives = mesh.primitives;
    if (!Array.isArray(primitives) || !primitives.length) {
      outside("no primitives", `${meshPointer}/primitives`);
    }
    let targetCount = -1, skinned = false;
    const facts: MeshFacts["primitives"] = [];
    const influenceSets: InfluenceSet[][] = [];
    primitives.forEach((item, p) => {
      const pointer = `${meshPointer}/primitives/${p}`;
      const primitive = shaped(item, pointer, PRIMITIVE_KEYS);
      const attributes = object(primitive.attributes, `${pointer}/attributes`);
      const sets: Record<string, number[]> = { TEXCOORD: [], COLOR: [], JOINTS: [], WEIGHTS: [] };
      const base = new Map<string, AccessorLayout>();
      for (const semantic in attributes) {
        const place = { pointer, semantic };
        const { set, single } = factsOf(semantic);
        if (set) sets[set[0]].push(set[1]);
        else if (!single && !semantic.startsWith("_")) {
          outside("attribute semantic outside glTF 2.0 core", spelt(place));
        }
        base.set(semantic, vertexAccessor(attributes[semantic], place, "/attributes/", FORMATS));
      }
      const position = base.get("POSITION");
      if (position && (!position.min || !position.max)) {
        outside("POSITION without min and max", spelt({ pointer, semantic: "POSITION" }));
      }
      // Without POSITION (only a warning) the validator counts vertices by the first attribute.
      const first = base.values().next().value;
      if (!first) outside("primitive without attributes", `${pointer}/attributes`);
      const vertexCount = first.count;
      for (const [semantic, accessor] of base) {
        if (accessor.count !== vertexCount) outside("attribute counts differ", spelt({ pointer, semantic }));
      }
      for (const [name, list] of Object.entries(sets)) {
        if (list.some((n) => n >= list.length)) {
          outside(`${name}_n sets not numbered 0…`, `${pointer}/attributes`);
        }
      }
      if (sets.JOINTS.length !== sets.WEIGHTS.length) outside("JOINTS and WEIGHTS sets differ", pointer);
      if (sets.JOINTS.length) {
        skinned = true;
        influenceSets.push(sets.JOINTS.map((_, n) => ({
          joints: base.get(`JOINTS_${n}`)!,
          weights: base.get(`WEIGHTS_${n}`)!,
          pointer: `${pointer}/attributes`,
        })));
      }
      for (const semantic of ["NORMAL", "TANGENT"]) {
        const accessor = base.get(semantic);
        if (accessor) {
          plan.unitVectors.push({ accessor, pointer, semantic, tangent: semantic === "TANGENT" });
        }
      }
      const color = base.get("COLOR_0");
      if (color?.componentType === FLOAT) {
        plan.clamped.push({ accessor: color, pointer, semantic: "COLOR_0" });
      }

      optionalIntAt(primitive, "mode", pointer, 7); // any of the seven; odd counts are only warnings
      if (primitive.indices !== undefined) {
        const at = `${pointer}/indices`;
        const index = int(primitive.indices, at, accessors.length);
        const accessor = accessors[index];
        usages.accessor(index, accessor, "index", at);
        if (accessor.view === undefined) outside("indices without a buffer view", at);
        const view = views[accessor.view];
        if (!INDEX_FORMATS.has(format(accessor))) outside("indices format", at);
        if (view.byteStride !== undefined || (view.target !== undefined && view.target !== 34963)) {
          outside("indices in a strided or vertex view", at);
        }
        plan.indices.push({ accessor, vertexCount, pointer: at });
      }

      const targets = primitive.targets === undefined ? [] : primitive.targets;
      if (!Array.isArray(targets) || (primitive.targets !== undefined && !targets.length)) {
        outside("targets not a non-empty array", `${pointer}/targets`);
      }
      targets.forEach((target, t) => {
        const at = `${pointer}/targets/${t}`;
        const attributesOfTarget = object(target, at);
        if (!Object.keys(attributesOfTarget).length) outside("empty morph target", at);
        for (const semantic in attributesOfTarget) {
          if (!TARGET_FORMATS[semantic] || !base.has(semantic)) {
            outside("morph target attribute", `${at}/${semantic}`);
          }
          const accessor = vertexAccessor(
            attributesOfTarget[semantic],
            { pointer: at, semantic },
            "/",
            TARGET_FORMATS,
          );
          if (accessor.count !== vertexCount) outside("morph target count differs", `${at}/${semantic}`);
          if (semantic === "POSITION" && (!accessor.min || !accessor.max)) {
            outside("target POSITION bounds", at);
          }
        }
      });
      if (targetCount !== -1 && targetCount !== targets.length) {
        outside("primitives' target counts differ", pointer);
      }
      targetCount = targets.length;
      const material = optionalIntAt(primitive, "material", pointer, materials);
      facts.push({ material, texCoords: sets.TEXCOORD.length, pointer });
    });
    if (mesh.weights !== undefined) {
      numbers(mesh.weights, `${meshPointer}/weights`, 0);
      if ((mesh.weights as number[]).length !== targetCount) {
        outside("mesh weights count", `${meshPointer}/weights`);
      }
    }
    return { targets: targetCount, skinned, primitives: facts, influenceSets };
  });
}

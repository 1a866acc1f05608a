/**
 * The data checks a written file needs, collected while its JSON is read: which accessors hold
 * indices, unit vectors, animation times, rotations, inverse bind matrices and skin influences, and
 * which buffer views hold images. `data.ts` then runs them over the BIN chunk.
 *
 * @module
 */
import type { AccessorLayout } from "./layout.ts";
import { outside } from "./verdict.ts";

/** What an accessor is used for; the validator refuses an accessor used two ways. */
export type Usage = "vertex" | "index" | "input" | "output" | "ibm";

/** One JOINTS_n/WEIGHTS_n pair of a skinned primitive. */
export interface InfluenceSet {
  readonly joints: AccessorLayout;
  readonly weights: AccessorLayout;
  readonly pointer: string;
}

/**
 * Where a check of an attribute points: `pointer`, or with `semantic`, that attribute of the primitive
 * at `pointer` (`${pointer}/attributes/${semantic}`, spelt by {@link spelt} only when the check fails).
 */
export interface AttributePlace {
  readonly pointer: string;
  readonly semantic?: string;
}

/** How many pointers {@link spelt} joined (a count for tests: a valid file's check spells none). */
export const spellings = { count: 0 };

/**
 * The JSON pointer of `place` (`under` between the pointer and the semantic: `/attributes/` for a
 * primitive's attributes, `/` for a morph target's). Called only to report a failure: the check reads a
 * thousand attributes of a ship, and spelling each one's pointer ahead was most of its strings.
 */
export function spelt(place: AttributePlace, under = "/attributes/"): string {
  if (place.semantic === undefined) return place.pointer;
  spellings.count++;
  return `${place.pointer}${under}${place.semantic}`;
}

/** The data checks of one file. */
export interface Plan {
  readonly indices: { accessor: AccessorLayout; vertexCount: number; pointer: string }[];
  readonly unitVectors: (AttributePlace & { accessor: AccessorLayout; tangent: boolean })[];
  readonly clamped: (AttributePlace & { accessor: AccessorLayout })[];
  readonly times: { accessor: AccessorLayout; pointer: string }[];
  readonly rotations: { accessor: AccessorLayout; pointer: string; cubic: boolean }[];
  readonly inverseBinds: { accessor: AccessorLayout; pointer: string }[];
  readonly influences: { sets: InfluenceSet[]; maxJoint: number }[];
  /** Images in a buffer view (GLB) or with their bytes from a data URI (`.gltf`). */
  readonly images: { view?: number; bytes?: Uint8Array; mimeType: string; pointer: string }[];
}

/** The pointer of `place`: itself, or an attribute's place {@link spelt}. */
function where(place: string | AttributePlace, under?: string): string {
  return typeof place === "string" ? place : spelt(place, under);
}

/** An empty plan. */
export function emptyPlan(): Plan {
  return {
    indices: [],
    unitVectors: [],
    clamped: [],
    times: [],
    rotations: [],
    inverseBinds: [],
    influences: [],
    images: [],
  };
}

/**
 * Records each accessor's and each buffer view's use: one use per accessor, one kind of content per
 * view (vertex data, indices, other accessors, an image), as the validator requires.
 */
export class Usages {
  readonly #accessors = new Map<number, Usage>();
  readonly #views = new Map<number, string>();

  /**
   * Marks accessor `index` as used for `usage`, and the views holding its data accordingly; `place`
   * (a pointer, or an attribute's place spelt as {@link spelt} spells it with `under`) is for a failure.
   */
  accessor(
    index: number,
    accessor: AccessorLayout,
    usage: Usage,
    place: string | AttributePlace,
    under?: string,
  ): void {
    const before = this.#accessors.get(index);
    if (before && before !== usage) outside(`accessor used as ${before} and ${usage}`, where(place, under));
    this.#accessors.set(index, usage);
    if (accessor.view !== undefined) {
      this.view(accessor.view, usage === "vertex" || usage === "index" ? usage : "other", place, under);
    }
    if (accessor.sparse) { for (const view of accessor.sparse.views) this.view(view, "other", place, under); }
  }

  /** Marks buffer view `view` as holding `content` (`place` and `under` as {@link accessor} takes them). */
  view(view: number, content: string, place: string | AttributePlace, under?: string): void {
    const before = this.#views.get(view);
    if (before && before !== content) {
      outside(`buffer view holds ${before} and ${content}`, where(place, under));
    }
    this.#views.set(view, content);
  }

  /** What buffer view `view` holds, if anything uses it. */
  content(view: number): string | undefined {
    return this.#views.get(view);
  }
}

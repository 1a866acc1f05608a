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

/** The data checks of one file. */
export interface Plan {
  readonly indices: { accessor: AccessorLayout; vertexCount: number; pointer: string }[];
  readonly unitVectors: { accessor: AccessorLayout; pointer: string; tangent: boolean }[];
  readonly clamped: { accessor: AccessorLayout; pointer: string }[];
  readonly times: { accessor: AccessorLayout; pointer: string }[];
  readonly rotations: { accessor: AccessorLayout; pointer: string; cubic: boolean }[];
  readonly inverseBinds: { accessor: AccessorLayout; pointer: string }[];
  readonly influences: { sets: InfluenceSet[]; maxJoint: number }[];
  /** Images in a buffer view (GLB) or with their bytes from a data URI (`.gltf`). */
  readonly images: { view?: number; bytes?: Uint8Array; mimeType: string; pointer: string }[];
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

  /** Marks accessor `index` as used for `usage`, and the views holding its data accordingly. */
  accessor(index: number, accessor: AccessorLayout, usage: Usage, pointer: string): void {
    const before = this.#accessors.get(index);
    if (before && before !== usage) outside(`accessor used as ${before} and ${usage}`, pointer);
    this.#accessors.set(index, usage);
    if (accessor.view !== undefined) {
      this.view(accessor.view, usage === "vertex" || usage === "index" ? usage : "other", pointer);
    }
    for (const view of accessor.sparse?.views ?? []) this.view(view, "other", pointer);
  }

  /** Marks buffer view `view` as holding `content`. */
  view(view: number, content: string, pointer: string): void {
    const before = this.#views.get(view);
    if (before && before !== content) outside(`buffer view holds ${before} and ${content}`, pointer);
    this.#views.set(view, content);
  }

  /** What buffer view `view` holds, if anything uses it. */
  content(view: number): string | undefined {
    return this.#views.get(view);
  }
}

/**
 * The values of bodies that fitted items' formulas read (`formula_body.ts`), gathered while each
 * mesh's formulas are evaluated: meshes are evaluated body first (an item fitted to an item after
 * that one), and each mesh's values — its morphs' weights once its formulas set them, its
 * controllers with their formulas applied, its plain dials — are kept for the items fitted to its
 * figure to read.
 *
 * @module
 */
import { followsBody } from "./auto_follow.ts";
import type { BodyLookup } from "./formula_body.ts";
import { drivenValues, type ModifierValue } from "./formula_eval.ts";
import type { SceneMeshes } from "./load_meshes.ts";
import type { SceneNodes } from "./load_nodes.ts";
import { figureRoot, type Morph } from "./model.ts";
import type { DsonGeometry } from "./geometry.ts";
import { percentDecode } from "./uri.ts";

/** A body's dialled auto-follow morph a fitted item has no morph of the name of, and the body geometry it moves. */
export interface UnprojectedMorph {
  readonly morph: Morph;
  readonly geometry: DsonGeometry;
}

/** What one evaluated mesh offers the items fitted to its figure. */
interface Evaluated {
  readonly mesh: number;
  readonly values: ReadonlyMap<string, ModifierValue>;
  readonly driven: ReadonlySet<string>;
  readonly channelValue?: (id: string) => number | undefined;
}

/** See the module doc. */
export class BodyValues {
  readonly #nodes: SceneNodes;
  readonly #meshes: SceneMeshes;
  readonly #fitted: ReadonlyMap<number, number>;
  /** Evaluated meshes by figure node. */
  readonly #byFigure = new Map<number, Evaluated[]>();

  constructor(targets: { nodes: SceneNodes; meshes: SceneMeshes; fitted?: ReadonlyMap<number, number> }) {
    this.#nodes = targets.nodes;
    this.#meshes = targets.meshes;
    this.#fitted = targets.fitted ?? new Map();
  }

  /** `meshes` ordered bodies first: by how many fittings deep their figure is (stable). */
  order(meshes: readonly number[]): number[] {
    const depth = (mesh: number) => {
      let d = 0;
      // At most one step per node: a loop of fitted items (warned where found) ends here.
      for (let f = this.#figure(mesh); this.#fitted.has(f) && d <= this.#nodes.list.length; d++) {
        f = this.#fitted.get(f)!;
      }
      return d;
    };
    const depths = new Map(meshes.map((m) => [m, depth(m)]));
    return [...meshes].sort((a, b) => depths.get(a)! - depths.get(b)!);
  }

  /** The DSON key of the figure owning `mesh`. */
  figureKey(mesh: number): string | undefined {
    return this.#nodes.list[this.#figure(mesh)]?.key;
  }

  /** Records `mesh` as evaluated: its values, and the graph's evaluation of them (if any). */
  evaluated(
    mesh: number,
    values: ReadonlyMap<string, ModifierValue>,
    channelValue?: (id: string) => number | undefined,
  ): void {
    const figure = this.#figure(mesh);
    const list = this.#byFigure.get(figure) ?? [];
    this.#byFigure.set(figure, [...list, { mesh, values, driven: drivenValues(values), channelValue }]);
  }

  /** How `mesh`'s formulas read the body its figure is fitted to; undefined when it is fitted to none. */
  lookup(mesh: number): BodyLookup | undefined {
    const own = this.#figure(mesh);
    const body = this.#fitted.get(own);
    if (body === undefined) return undefined;
    const evaluated = () => this.#byFigure.get(body) ?? [];
    const holder = (id: string) => evaluated().find((e) => e.values.has(id));
    return {
      figure: this.#nodes.list[body].key,
      names: this.#names(body),
      own: this.#names(own),
      has: (id) => holder(id) !== undefined,
      named: (name) => {
        const all = evaluated().flatMap((e) => [...e.values]);
        const same = (s: unknown) => typeof s === "string" && (s === name || percentDecode(s) === name);
        // Daz matches the property's name; a modifier written without one is named by its id.
        return (all.find(([, v]) => same(v.entry.value.name)) ?? all.find(([id]) => same(id)))?.[0];
      },
      value: (id) => {
        const found = holder(id);
        if (!found) return undefined;
        // A morph's weight as the body shows it (its formulas applied where they could be).
        const morph = this.#meshes.parts[found.mesh].morphs.find((m) => m.id === id);
        if (morph) return morph.weight;
        // A controller: its formulas' value, unknown when they could not be evaluated.
        if (found.driven.has(id)) return found.channelValue?.(id);
        return found.values.get(id)!.value;
      },
    };
  }

  /**
   * The body's morphs that are dialled (a weight other than 0) and marked `auto_follow` whose name
   * none of `own` (the modifiers of `mesh`, fitted to it) has, each with the body's geometry it
   * moves: Daz projects such a morph onto the item (DzFollowingProjectionOptions; `auto_project.ts`).
   */
  unprojected(mesh: number, own: ReadonlyMap<string, ModifierValue>): UnprojectedMorph[] {
    const body = this.#fitted.get(this.#figure(mesh));
    if (body === undefined) return [];
    const names = new Set([...own].flatMap(([id, v]) => [id, String(v.entry.value.name ?? id)]));
    const out: UnprojectedMorph[] = [];
    for (const { mesh: other, values } of this.#byFigure.get(body) ?? []) {
      for (const morph of this.#meshes.parts[other].morphs) {
        if (morph.weight === 0 || names.has(morph.name) || names.has(morph.id)) continue;
        // Its channel's flag, or a morph projected onto a fitted item this one is fitted to.
        // (the scene's switch where it writes one; an instance's `false` is kept off the record).
        const own = values.get(morph.id);
        if (!morph.autoFollow && !(own && followsBody(own))) continue;
        out.push({ morph, geometry: this.#meshes.parts[other].geometry });
      }
    }
    return out;
  }

  #figure(mesh: number): number {
    return figureRoot(this.#nodes.list, this.#meshes.parts[mesh].owner);
  }

  /** The names a node path may give figure node `figure`: its id, key and name, each also decoded. */
  #names(figure: number): Set<string> {
    const node = this.#nodes.list[figure];
    const names = [node.id, node.key, node.name];
    return new Set([...names, ...names.map(percentDecode)]);
  }
}

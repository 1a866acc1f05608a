/**
 * A subtree in other units than the rest of the model: a part exported in millimetres (or centimetres)
 * and merged into a model in metres — its vertices and its children's places 1000× (100×), its own place
 * often too, so it hangs far off the model, larger than all of it — or the other way round, a part in
 * metres inside a model in millimetres, 1000× too small. The rig reads every size and place in the scene
 * together: one such part sets the model's bounds, and the frame and hinges guessed from them.
 *
 * Parts are judged by size against the model's other parts (the median of their boxes), so one large
 * or small part of a kind (a fuselage, a pitot tube) is no evidence: a subtree whose every part is more
 * than about 30× off the others' median, and that a factor of 1000 or 100 brings within 3× of it and
 * inside the others' box, is a unit slip. Where the subtree lies far outside the others (its own place
 * scaled too, or vertices running far from its origin) it is read scaled back, with a warning; a
 * subtree too small, or too large but in place (a terrain under the model?), is named only.
 *
 * Linear in the nodes: world matrices are taken down the tree once, and each subtree's verdict is
 * gathered from its children's.
 *
 * @module
 */
import { AnimationChannel, type Mesh } from "@gltf-transform/core";
import type { SceneTree } from "./transform_habits.ts";
import { mat4 } from "gl-matrix";

/** Parts this many times (log10) off the others' median size are suspects: about 30×. */
const OFF = 1.5;
/** A scene root's subtree (a backdrop, a second model) must be this much (log10) off: about 300×. */
const OFF_ROOT = 2.5;
/** A factor must bring the subtree within this (log10, about 3×) of the others' median. */
const FITS = 0.5;
const FACTORS = [1000, 100];
/** A small part in other units is past this (log10, about 3×) of the others' median: see smallUnitParts. */
const NEAR_OFF = 0.5;

interface Box {
  min: number[];
  max: number[];
}

const size = (b: Box) => Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
const centre = (b: Box) => b.min.map((v, i) => (v + b.max[i]) / 2);

function grow(into: Box, b: Box): void {
  for (let i = 0; i < 3; i++) {
    into.min[i] = Math.min(into.min[i], b.min[i]);
    into.max[i] = Math.max(into.max[i], b.max[i]);
  }
}

/** Whether point `p` is inside `b` grown by `margin` on every side. */
const inside = (p: number[], b: Box, margin: number) =>
  p.every((v, i) => v >= b.min[i] - margin && v <= b.max[i] + margin);

/**
 * The parts outside `excluded` (the model the suspects are measured against): their median size, the
 * box round them and a quarter of its size as the margin; undefined when fewer than two are left.
 */
function theRest(
  boxes: ReadonlyMap<number, Box>,
  excluded: ReadonlySet<number>,
): { restSize: number; restBox: Box; margin: number } | undefined {
  const rest = [...boxes.keys()].filter((i) => !excluded.has(i));
  if (rest.length < 2) return undefined;
  const restBox: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (const i of rest) grow(restBox, boxes.get(i)!);
  return { restSize: median(rest.map((i) => size(boxes.get(i)!))), restBox, margin: 0.25 * size(restBox) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A mesh's box in its own frame (from its primitives' POSITION bounds), or undefined without finite ones. */
function meshBox(mesh: Mesh): Box | undefined {
  const box: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (const primitive of mesh.listPrimitives()) {
    const position = primitive.getAttribute("POSITION");
    if (!position || position.getType() !== "VEC3" || !position.getCount()) continue;
    grow(box, { min: position.getMin([0, 0, 0]), max: position.getMax([0, 0, 0]) });
  }
  return box.min.every(Number.isFinite) && box.max.every(Number.isFinite) ? box : undefined;
}

/** `box` carried into world space by `world`: the box of its eight corners. */
function worldBox(box: Box, world: mat4): Box {
  const out: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (let k = 0; k < 8; k++) {
    const p = [
      k & 1 ? box.max[0] : box.min[0],
      k & 2 ? box.max[1] : box.min[1],
      k & 4 ? box.max[2] : box.min[2],
    ];
    const w = [0, 1, 2].map((r) =>
      world[r] * p[0] + world[4 + r] * p[1] + world[8 + r] * p[2] + world[12 + r]
    );
    grow(out, { min: w, max: w });
  }
  return out;
}

/**
 * Repairs and notes (`/nodes/<i>: text`) on subtrees in other units than the rest (see the module doc);
 * `unsized` meshes (drawn at a size no unit explains) are left out.
 */
export function unitSubtreeNotes(tree: SceneTree, unsized: ReadonlySet<Mesh> = new Set()): string[] {
  const { nodes, children } = tree;
  // Too few parts to compare: nothing read.
  if (nodes.filter((node) => node.getMesh()).length < 3) return [];
  const parent = new Int32Array(nodes.length).fill(-1);
  children.forEach((list, i) => {
    for (const child of list) parent[child] = i;
  });
  // World matrices, parents first (iteratively: trees can be 10^5 levels deep).
  const world: mat4[] = new Array(nodes.length);
  const order: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (parent[i] < 0) order.push(i);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const local = nodes[i].getMatrix() as mat4;
    world[i] = parent[i] < 0 ? mat4.clone(local) : mat4.multiply(mat4.create(), world[parent[i]], local);
    for (const child of children[i]) order.push(child);
  }
  const meshBoxes = new Map<Mesh, Box | undefined>();
  // Units are compared within a scene: another scene's backdrop or a second model is no evidence.
  const judged = new Set<number>();
  const judgeScene = (order: number[]): string[] => {
    const boxes = new Map<number, Box>();
    for (const i of order) {
      const mesh = nodes[i].getMesh();
      // A mesh many nodes share (a CAD file's bolts) is measured once.
      if (mesh && !meshBoxes.has(mesh)) meshBoxes.set(mesh, meshBox(mesh));
      const own = mesh && !unsized.has(mesh) && meshBoxes.get(mesh);
      const box = own ? worldBox(own, world[i]) : undefined;
      if (box && size(box) > 0) boxes.set(i, box);
    }
    if (boxes.size < 3) return [];
    const all = median([...boxes.values()].map(size));
    // Per node: -1 every part below (and its own) much smaller than the median, 1 much larger, 0 mixed or
    // in line, undefined no part. Children before parents: the breadth-first order backwards.
    const side = new Map<number, number>();
    const off = (i: number) => {
      const r = Math.log10(size(boxes.get(i)!) / all);
      return r > OFF ? 1 : r < -OFF ? -1 : 0;
    };
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k];
      let s: number | undefined = boxes.has(i) ? off(i) : undefined;
      for (const child of children[i]) {
        const c = side.get(child);
        if (c === undefined) continue;
        s = s === undefined || s === c ? c : 0;
      }
      if (s !== undefined) side.set(i, s);
    }
    // The others: every part not in a suspect subtree.
    const roots = order.filter((i) =>
      side.get(i) && !(parent[i] >= 0 && side.get(parent[i]) === side.get(i))
    );
    const suspect = new Set<number>();
    for (const r of roots) {
      const stack = [r];
      while (stack.length) {
        const i = stack.pop()!;
        suspect.add(i);
        for (const child of children[i]) stack.push(child);
      }
    }
    const others = theRest(boxes, suspect);
    if (!others) return [];
    const { restSize, restBox, margin } = others;
    const notes: string[] = [];
    for (const r of roots) {
      if (judged.has(r)) continue;
      judged.add(r);
      const parts: number[] = [];
      const box: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
      const stack = [r];
      while (stack.length) {
        const i = stack.pop()!;
        if (boxes.has(i)) {
          parts.push(i);
          grow(box, boxes.get(i)!);
        }
        for (const child of children[i]) stack.push(child);
      }
      const ratio = median(parts.map((i) => size(boxes.get(i)!))) / restSize;
      if (Math.abs(Math.log10(ratio)) <= (parent[r] < 0 ? OFF_ROOT : OFF)) continue;
      const factors = FACTORS.map((f) => (ratio > 1 ? 1 / f : f))
        .filter((k) => Math.abs(Math.log10(ratio * k)) < FITS)
        .sort((a, b) => Math.abs(Math.log10(ratio * a)) - Math.abs(Math.log10(ratio * b)));
      const node = nodes[r];
      const name = node.getName() ? `'${node.getName()}'` : `node ${tree.jsonIndex(node)}`;
      const below = parts.length > 1
        ? ` and the ${parts.length - 1} part${parts.length > 2 ? "s" : ""} below it`
        : "";
      const times = ratio > 1
        ? `${Number(ratio.toPrecision(2))}×`
        : `1/${Number((1 / ratio).toPrecision(2))}`;
      const origin = [world[r][12], world[r][13], world[r][14]];
      const parentOrigin = parent[r] < 0 ? [0, 0, 0] : [0, 1, 2].map((a) => world[parent[r]][12 + a]);
      // Scaled by k about the node's origin (its place kept), or about its parent's (its place scaled too).
      const placed = (k: number, withPlace: boolean) => {
        const o = withPlace ? parentOrigin.map((v, a) => v + k * (origin[a] - v)) : origin;
        return centre(box).map((v, a) => o[a] + k * (v - origin[a]));
      };
      const k = factors.find((k) =>
        inside(placed(k, false), restBox, margin) || inside(placed(k, true), restBox, margin)
      );
      const what = `${name}${below} ${
        parts.length > 1 ? "are" : "is"
      } ${times} the size of the model's other parts (their median)`;
      if (k === undefined) {
        notes.push(
          `/nodes/${
            tree.jsonIndex(node)
          }: ${what}, and no factor of 1000 or 100 fits it among them: read as written`,
        );
        continue;
      }
      const unit = `${ratio > 1 ? "millimetres or centimetres" : "metres"} in a model of ${
        ratio > 1 ? "metres" : "millimetres"
      }`;
      const factor = k < 1 ? `1/${Math.round(1 / k)}` : `${k}`;
      const far = !inside(centre(box), restBox, margin);
      const withPlace = !inside(placed(k, false), restBox, margin);
      // Keys on the root's scale (or, where its place is scaled, translation) would undo the repair as
      // the animation plays: named only.
      const keyed = node.listParents().some((p) =>
        p instanceof AnimationChannel &&
        (p.getTargetPath() === "scale" || (withPlace && p.getTargetPath() === "translation"))
      );
      if (ratio > 1 && far && !keyed) {
        node.setScale(node.getScale().map((v) => v * k) as [number, number, number]);
        if (withPlace) {
          node.setTranslation(node.getTranslation().map((v) => v * k) as [number, number, number]);
        }
        notes.push(
          `/nodes/${
            tree.jsonIndex(node)
          }: ${what} and lie far outside them: probably ${unit} (another file's part); read scaled by ` +
            `${factor}${withPlace ? ", its place too" : ""}, which puts it among them`,
        );
      } else {
        notes.push(
          `/nodes/${tree.jsonIndex(node)}: ${what}; scaled by ${factor} it would be in line with them${
            keyed ? " (its animation keys its scale or place: not repaired)" : ""
          }: ${unit}? Read as written`,
        );
      }
    }
    notes.push(...smallUnitParts(order, suspect, boxes));
    return notes;
  };
  /**
   * Small parts in centimetres (or millimetres): 100× a pitot or antenna is 3-30× the others' median, so
   * size alone does not show it. A subtree whose every part is past 3× the median, lying outside the
   * others' box where a factor of 100 (or 1000) about its parent's origin (its place scaled too) or its own
   * puts it among them, is read scaled back; one in place reaching far past them on both sides is named.
   */
  const smallUnitParts = (order: number[], suspect: Set<number>, boxes: Map<number, Box>): string[] => {
    const all = median([...boxes.values()].map(size));
    // Per node: whether every part at and below it is past NEAR_OFF of the median (undefined: no part).
    const big = new Map<number, boolean>();
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k];
      let b: boolean | undefined = boxes.has(i)
        ? Math.log10(size(boxes.get(i)!) / all) > NEAR_OFF
        : undefined;
      for (const child of children[i]) {
        const c = big.get(child);
        if (c !== undefined) b = (b ?? true) && c;
      }
      if (b !== undefined) big.set(i, b);
    }
    const candidates = order.filter((i) =>
      big.get(i) && parent[i] >= 0 && !big.get(parent[i]) && !suspect.has(i)
    );
    if (!candidates.length) return [];
    const below = (r: number) => {
      const out: number[] = [];
      for (const stack = [r]; stack.length;) {
        const i = stack.pop()!;
        out.push(i);
        for (const child of children[i]) stack.push(child);
      }
      return out;
    };
    const taken = new Set([...suspect, ...candidates.flatMap(below)]);
    const others = theRest(boxes, taken);
    if (!others) return [];
    const { restSize, restBox, margin } = others;
    const notes: string[] = [];
    for (const r of candidates) {
      const parts = below(r).filter((i) => boxes.has(i));
      const box: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
      for (const i of parts) grow(box, boxes.get(i)!);
      const ratio = median(parts.map((i) => size(boxes.get(i)!))) / restSize;
      const origin = [world[r][12], world[r][13], world[r][14]];
      const parentOrigin = [0, 1, 2].map((a) => world[parent[r]][12 + a]);
      const placed = (k: number, withPlace: boolean) => {
        const o = withPlace ? parentOrigin.map((v, a) => v + k * (origin[a] - v)) : origin;
        return centre(box).map((v, a) => o[a] + k * (v - origin[a]));
      };
      // Scaled back, a part still in line with the others (not 30× smaller): the nearest first.
      const factors = FACTORS.map((f) => 1 / f).filter((k) => Math.abs(Math.log10(ratio * k)) < OFF)
        .sort((a, b) => Math.abs(Math.log10(ratio * a)) - Math.abs(Math.log10(ratio * b)));
      const node = nodes[r];
      const name = node.getName() ? `'${node.getName()}'` : `node ${tree.jsonIndex(node)}`;
      const more = parts.length > 1
        ? ` and the ${parts.length - 1} part${parts.length > 2 ? "s" : ""} below it`
        : "";
      const what = `${name}${more} (${
        Number(ratio.toPrecision(2))
      }× the size of the model's other parts, their median)`;
      if (!inside(centre(box), restBox, margin)) {
        const k = factors.find((k) =>
          inside(placed(k, true), restBox, margin) || inside(placed(k, false), restBox, margin)
        );
        if (k === undefined) continue;
        const withPlace = !inside(placed(k, false), restBox, margin);
        const keyed = node.listParents().some((p) =>
          p instanceof AnimationChannel &&
          (p.getTargetPath() === "scale" || (withPlace && p.getTargetPath() === "translation"))
        );
        const factor = `1/${Math.round(1 / k)}`;
        if (keyed) {
          notes.push(
            `/nodes/${
              tree.jsonIndex(node)
            }: ${what} lies outside them; scaled by ${factor} it would be among ` +
              "them (its animation keys its scale or place: not repaired): centimetres or millimetres in a model of metres? Read as written",
          );
          continue;
        }
        node.setScale(node.getScale().map((v) => v * k) as [number, number, number]);
        if (withPlace) {
          node.setTranslation(node.getTranslation().map((v) => v * k) as [number, number, number]);
        }
        notes.push(
          `/nodes/${tree.jsonIndex(node)}: ${what} lies outside them, and scaled by ${factor}${
            withPlace ? " with its place" : ""
          } it is among them: probably ${
            k === 1 / 100 ? "centimetres" : "millimetres"
          } in a model of metres ` +
            "(another file's part); read so scaled",
        );
      } else if (
        factors.length &&
        // Past the others on both sides along an axis, by half their extent each way: no part of theirs.
        [0, 1, 2].some((a) => {
          const extent = restBox.max[a] - restBox.min[a];
          return extent > 0 && box.min[a] < restBox.min[a] - extent / 2 &&
            box.max[a] > restBox.max[a] + extent / 2;
        })
      ) {
        notes.push(
          `/nodes/${
            tree.jsonIndex(node)
          }: ${what} reaches far past them on both sides, in place; scaled by 1/${
            Math.round(1 / factors[0])
          } it would be in line with them: ${
            factors[0] === 1 / 100 ? "centimetres" : "millimetres"
          } in a model of metres? Read as written`,
        );
      }
    }
    return notes;
  };
  return tree.scenes.flatMap((roots) => {
    const order = [...roots];
    for (let k = 0; k < order.length; k++) {
      for (const child of children[order[k]]) order.push(child);
    }
    return judgeScene(order);
  });
}

/// <reference lib="dom" />
/**
 * The preview's node tree, as Blender's outliner lists a scene: one row per node, indented by depth,
 * parts (`ctrl_type` nodes) marked, a node with children folded or unfolded by its arrow, a click
 * selecting the node (the viewer highlights it and its part slider).
 *
 * Only the rows in view are in the page: the tree is a flat list of rows of one height, and a scroll
 * puts the rows it reveals in place. Nested lists cost the browser far more than their length — a
 * chain of 500 nested nodes took 140 ms to lay out and one of 1,000 did not come back within two
 * minutes — while rows in view cost the same for 10 nodes or 100,000. Indentation stops at
 * {@link MAX_INDENT} levels (a row 2,000 levels down would start 24,000 px to the right, and a panel's width is 300); deeper rows
 * say their depth instead. Each row's tooltip is the node's path.
 *
 * @module
 */
// @ts-types="@types/three"
import type * as THREE from "three";
import { shownName } from "./shown_name.ts";

/** The height of a row, px (fixed: a row's place is its index times this). */
export const ROW_HEIGHT = 18;
/** Levels of indentation drawn; rows deeper than this show their depth as a number. */
export const MAX_INDENT = 10;
/** Pixels of indentation per level. */
const INDENT = 12;
/** Rows laid out above and below the view, so a short scroll shows no gap. */
const SPARE = 20;

/** One node of the tree as listed. */
interface Row {
  object: THREE.Object3D;
  depth: number;
}

/** The node tree in `container`; `pick` is told of a click on a node. */
export class NodeTree {
  private root?: THREE.Object3D;
  private nameOf: (object: THREE.Object3D) => string = (o) => o.name;
  private isPart: (object: THREE.Object3D) => boolean = () => false;
  /** The rows shown, in order (folded nodes' descendants left out). */
  private rows: Row[] = [];
  private readonly folded = new Set<THREE.Object3D>();
  private selected?: THREE.Object3D;
  private readonly space = document.createElement("div");
  private drawQueued = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly pick: (object: THREE.Object3D) => void,
  ) {
    this.space.className = "tree-space";
    container.addEventListener("scroll", () => this.requestDraw());
    new ResizeObserver(() => this.requestDraw()).observe(container);
  }

  /** Lists the nodes under `root` (not `root` itself); none: empties the tree. */
  show(
    root: THREE.Object3D | undefined,
    nameOf: (object: THREE.Object3D) => string,
    isPart: (object: THREE.Object3D) => boolean,
  ): void {
    this.root = root;
    this.nameOf = nameOf;
    this.isPart = isPart;
    this.folded.clear();
    this.selected = undefined;
    this.container.scrollTop = 0;
    this.relist();
  }

  /** Marks `object`'s row selected (none: no row), unfolding its ancestors and scrolling it into view. */
  select(object: THREE.Object3D | undefined): void {
    this.selected = object;
    let unfolded = false;
    for (let o = object?.parent; o && o !== this.root; o = o.parent) {
      unfolded = this.folded.delete(o) || unfolded;
    }
    if (unfolded) this.relist();
    const index = object ? this.rows.findIndex((row) => row.object === object) : -1;
    if (index >= 0) {
      const top = index * ROW_HEIGHT, view = this.container.clientHeight;
      if (top < this.container.scrollTop || top + ROW_HEIGHT > this.container.scrollTop + view) {
        this.container.scrollTop = Math.max(0, top - view / 2);
      }
    }
    this.draw();
  }

  /** Folds or unfolds a node's children. */
  toggle(object: THREE.Object3D): void {
    if (!this.folded.delete(object)) this.folded.add(object);
    this.relist();
  }

  /** Flattens the tree into rows (depth-first, in child order; without recursion, for any depth). */
  private relist(): void {
    const rows: Row[] = [];
    const stack: Row[] = [...(this.root?.children ?? [])].reverse().map((object) => ({ object, depth: 0 }));
    while (stack.length) {
      const row = stack.pop()!;
      rows.push(row);
      if (this.folded.has(row.object)) continue;
      const children = row.object.children;
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ object: children[i], depth: row.depth + 1 });
      }
    }
    this.rows = rows;
    this.container.dataset.rows = String(rows.length);
    this.space.style.height = `${rows.length * ROW_HEIGHT}px`;
    if (!rows.length) this.container.replaceChildren();
    else if (this.space.parentNode !== this.container) this.container.replaceChildren(this.space);
    this.draw();
  }

  private requestDraw(): void {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      this.draw();
    });
  }

  /** Puts the rows in view (and {@link SPARE} either side) in the page. */
  private draw(): void {
    if (!this.rows.length) return;
    const first = Math.max(0, Math.floor(this.container.scrollTop / ROW_HEIGHT) - SPARE);
    const shown = Math.ceil((this.container.clientHeight || 400) / ROW_HEIGHT) + 2 * SPARE;
    const elements = this.rows.slice(first, first + shown).map((row, i) => this.rowElement(row, first + i));
    this.space.replaceChildren(...elements);
  }

  private rowElement({ object, depth }: Row, index: number): HTMLElement {
    const element = document.createElement("div");
    element.className = "tree-row";
    element.style.top = `${index * ROW_HEIGHT}px`;
    element.style.paddingLeft = `${Math.min(depth, MAX_INDENT) * INDENT}px`;
    element.dataset.depth = String(depth);
    if (this.isPart(object)) element.classList.add("tree-part");
    if (object === this.selected) element.classList.add("selected");
    const arrow = document.createElement("span");
    arrow.className = "tree-fold";
    if (object.children.length) {
      arrow.textContent = this.folded.has(object) ? "▸" : "▾";
      arrow.onclick = (event) => {
        event.stopPropagation();
        this.toggle(object);
      };
    }
    element.append(arrow);
    if (depth > MAX_INDENT) {
      element.append(
        Object.assign(document.createElement("span"), { className: "tree-depth", textContent: `${depth}` }),
      );
    }
    // The file's name, as text; <bdi> keeps a right-to-left name from reordering what follows it.
    const name = this.nameOf(object) || `(${object.type})`;
    element.append(Object.assign(document.createElement("bdi"), { textContent: shownName(name) }));
    element.title = shownName(this.pathOf(object));
    element.onclick = () => this.pick(object);
    return element;
  }

  /** A node's names from the top of the tree down, for its tooltip (the last 12 levels of a deep one). */
  private pathOf(object: THREE.Object3D): string {
    const names: string[] = [];
    let o: THREE.Object3D | null = object;
    for (; o && o !== this.root && names.length < 12; o = o.parent) {
      names.push(this.nameOf(o) || `(${o.type})`);
    }
    if (o && o !== this.root) names.push("…");
    return names.reverse().join(" › ");
  }
}

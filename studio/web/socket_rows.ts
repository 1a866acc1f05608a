/**
 * Where each node's sockets sit, looked up once per kind of node in a redraw: a node's sockets follow
 * from its type (or, for a node group, its group file), so 20,000 nodes of eight types need eight
 * lookups, not 20,000 shapes (a redraw of a large graph built every node's shape to find which are in
 * view, most of a pan's or a wheel step's time).
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { INPUTS_ID, OUTPUTS_ID } from "./shapes.ts";
import { HEADER, ROW } from "./svg.ts";

/**
 * One kind of node's socket rows, by name (the first of a name), how many rows it draws, and its
 * category (the colour of its header).
 */
interface Rows {
  readonly inputs: ReadonlyMap<string, number>;
  readonly outputs: ReadonlyMap<string, number>;
  readonly count: number;
  readonly category: string;
}

/** The socket rows of a model's nodes, as its shapes draw them now; make one per redraw. */
export class SocketRows {
  private readonly byKind = new Map<string, Rows>();

  constructor(private readonly model: GraphModel) {}

  /** Node `id`'s rows: computed from its shape the first time its kind is asked for. */
  private rows(id: string): Rows {
    const node = id === INPUTS_ID || id === OUTPUTS_ID ? undefined : this.model.graph.nodes[id];
    // The kinds cannot collide: a type never starts with "@" or "graph:" but for the type "graph".
    const kind = !node ? id : node.type === "graph" ? `graph:${node.graph ?? ""}` : node.type;
    let rows = this.byKind.get(kind);
    if (!rows) {
      const shape = this.model.shape(id);
      const index = (list: { name: string }[]) => {
        const map = new Map<string, number>();
        list.forEach((s, i) => map.has(s.name) || map.set(s.name, i));
        return map;
      };
      rows = {
        inputs: index(shape.inputs),
        outputs: index(shape.outputs),
        count: Math.max(shape.inputs.length, shape.outputs.length),
        category: shape.category,
      };
      this.byKind.set(kind, rows);
    }
    return rows;
  }

  /** Node `id`'s drawn height (as `GraphModel.height`). */
  height(id: string): number {
    return HEADER + this.rows(id).count * ROW + 8;
  }

  /** The row of socket `name` on a side of node `id`; -1 when it does not draw one. */
  row(id: string, name: string, side: "in" | "out"): number {
    const rows = this.rows(id);
    return (side === "in" ? rows.inputs : rows.outputs).get(name) ?? -1;
  }

  /** Node `id`'s category, as its shape has it (the colour of its header). */
  category(id: string): string {
    return this.rows(id).category;
  }
}

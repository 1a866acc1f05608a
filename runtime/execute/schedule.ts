/**
 * What a run evaluates, in which order: the nodes the requested outputs (graph outputs and sinks)
 * need, upstream before downstream. Iterative — a chain of any length costs memory, not stack.
 *
 * @module
 */
import type { Plan, PlanNode } from "../plan.ts";

/** The ids of the nodes a node's inputs link to, each once, in socket order. */
export function upstreamOf(node: PlanNode): string[] {
  const ups = new Set<string>();
  for (const source of Object.values(node.inputs)) if ("node" in source) ups.add(source.node);
  return [...ups];
}

/**
 * The nodes needed for the plan's outputs and sinks, ordered so every node comes after the nodes
 * it reads from (depth-first post-order with an explicit stack; the plan is acyclic).
 */
export function evaluationOrder(plan: Plan): PlanNode[] {
  const wanted = new Set<string>();
  for (const source of Object.values(plan.outputs)) if ("node" in source) wanted.add(source.node);
  for (const node of plan.nodes.values()) if (node.def.sink) wanted.add(node.id);

  const order: PlanNode[] = [];
  const placed = new Set<string>();
  const opened = new Set<string>();
  for (const root of [...wanted].sort()) {
    const stack = [root];
    while (stack.length) {
      const id = stack[stack.length - 1];
      if (placed.has(id)) {
        stack.pop();
        continue;
      }
      const node = plan.nodes.get(id)!;
      if (!opened.has(id)) {
        opened.add(id);
        for (const up of upstreamOf(node).reverse()) if (!placed.has(up)) stack.push(up);
        continue;
      }
      stack.pop();
      placed.add(id);
      order.push(node);
    }
  }
  return order;
}

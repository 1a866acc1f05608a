/// <reference lib="dom" />
/**
 * Node groups made from a selection (Ctrl+G) and taken apart again (Alt+G), as in Blender's node
 * editor, computed on copies of the graph JSON so the page can save the new file first and apply the
 * change as one undo step. Both keep what a run computes: a group's inputs carry exactly the values
 * its nodes had (wires, graph inputs), and an ungrouped node gets exactly what the runtime's expansion
 * of the group would give it (`runtime/plan.ts`: the group node's `params` first, then its `inputs`,
 * then the input's default).
 *
 * @module
 */
import { splitLink } from "./model.ts";
import { folderOf, type Graph, type GraphNode, joinPath, type Json, relativePath } from "./types.ts";

/** A link or graph-input reference, as a node's `inputs` holds it. */
type Source = string | { $input: string };

/** What {@link groupNodes} needs to know about the graph beyond its JSON. */
export interface GroupContext {
  /** The outer graph's path (as the server displays it): relative paths in it resolve from its folder. */
  outerPath: string;
  /** The new file, relative to the outer graph's folder, as the group node's `graph` names it. */
  file: string;
  /** Type of an output socket of a node of the outer graph; undefined when unknown. */
  socketType(node: string, socket: string): string | undefined;
  /** Node types that come from the outer graph's own `modules` (the new file must name them too). */
  moduleTypes: ReadonlySet<string>;
}

/** A selection grouped: the new file's graph, the outer graph with the group node, its id. */
export interface Grouped {
  inner: Graph;
  outer: Graph;
  node: string;
}

/**
 * Groups the nodes `ids` of `graph` into a new graph file. The new file's inputs are the wires coming
 * into the selection, one per source (named after the first socket it feeds), and the outer graph's
 * inputs the selection uses (socket or parameter, keeping their names and declarations); its outputs
 * are the selection's sockets wired to anything outside it (named after the socket). Returns the
 * reason when it cannot be done: nothing to group, a wire of unknown type, or a node outside the
 * selection that both takes from it and feeds it (the group would feed itself).
 */
export function groupNodes(graph: Graph, ids: readonly string[], ctx: GroupContext): Grouped | string {
  const chosen = new Set(ids.filter((id) => id in graph.nodes));
  if (!chosen.size) return "select the nodes to group (Group Input and Group Output stay)";
  const between = feedsBack(graph, chosen);
  if (between) return `${between} takes from the selection and feeds it: group it too, or leave it out`;
  const newPath = joinPath(ctx.outerPath, ctx.file);
  const rebase = (relative: string) => rebasePath(relative, folderOf(ctx.outerPath), folderOf(newPath));

  const inputs: NonNullable<Graph["inputs"]> = {};
  /** The group node's value for each new input, and whether an inner parameter uses it. */
  const given = new Map<string, { source: Source; param: boolean }>();
  const bySource = new Map<string, string>();
  const inputFor = (key: string, base: string, decl: { type: string }, source: Source): string => {
    let name = bySource.get(key);
    if (name === undefined) {
      name = freeName(base, inputs);
      bySource.set(key, name);
      inputs[name] = decl;
      given.set(name, { source, param: false });
    }
    return name;
  };
  const nodes: Record<string, GraphNode> = {};
  for (const id of Object.keys(graph.nodes)) {
    if (!chosen.has(id)) continue;
    const node: GraphNode = structuredClone(graph.nodes[id]);
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value === "string") {
        const [from, fromSocket] = splitLink(value);
        if (chosen.has(from)) continue;
        const type = ctx.socketType(from, fromSocket);
        if (!type) return `the type of ${value} (into ${id}.${socket}) is unknown: fix that wire first`;
        node.inputs![socket] = { $input: inputFor(`link:${value}`, socket, { type }, value) };
      } else {
        const decl = graph.inputs?.[value.$input];
        if (!decl) return `${id}.${socket} uses '${value.$input}', which is not a graph input`;
        node.inputs![socket] = {
          $input: inputFor(`input:${value.$input}`, value.$input, clone(decl), value),
        };
      }
    }
    for (const [param, value] of Object.entries(node.params ?? {})) {
      if (!isRef(value)) continue;
      const decl = graph.inputs?.[value.$input];
      if (!decl) return `${id}.${param} uses '${value.$input}', which is not a graph input`;
      const name = inputFor(`input:${value.$input}`, value.$input, clone(decl), { $input: value.$input });
      given.get(name)!.param = true;
      node.params![param] = { $input: name };
    }
    if (node.type === "graph" && node.graph) {
      const moved = rebase(node.graph);
      if (moved === undefined) return `cannot say where ${node.graph} lies from ${newPath}`;
      node.graph = moved;
    }
    nodes[id] = node;
  }

  const outer: Graph = structuredClone(graph);
  const groupId = freeName(baseName(ctx.file), outer.nodes);
  const outputs: Record<string, string> = {};
  const byLink = new Map<string, string>();
  const outputFor = (link: string): string => {
    let name = byLink.get(link);
    if (name === undefined) {
      name = freeName(splitLink(link)[1], outputs);
      byLink.set(link, name);
      outputs[name] = link;
    }
    return `${groupId}.${name}`;
  };
  for (const [id, node] of Object.entries(outer.nodes)) {
    if (chosen.has(id)) continue;
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value === "string" && chosen.has(splitLink(value)[0])) {
        node.inputs![socket] = outputFor(value);
      }
    }
  }
  for (const [name, link] of Object.entries(outer.outputs ?? {})) {
    if (chosen.has(splitLink(link)[0])) outer.outputs![name] = outputFor(link);
  }

  const group: GraphNode = { type: "graph", graph: ctx.file };
  for (const [name, { source, param }] of given) {
    if (param) (group.params ??= {})[name] = source as { $input: string };
    else (group.inputs ??= {})[name] = source;
  }
  const positions = [...chosen].map((id): [number, number] => graph.ui?.nodes?.[id] ?? [0, 0]);
  const xs = positions.map((p) => p[0]);
  const ys = positions.map((p) => p[1]);
  const inner: Graph = {
    ...(graph.$schema === undefined ? {} : { $schema: rebase(graph.$schema) ?? graph.$schema }),
    version: 1,
    name: baseName(ctx.file),
    ...(Object.keys(inputs).length ? { inputs } : {}),
    ...(usesModules(nodes, ctx.moduleTypes) && graph.modules
      ? { modules: graph.modules.map((m) => rebase(m) ?? m) }
      : {}),
    nodes,
    outputs,
    ui: {
      nodes: Object.fromEntries([...chosen].map((id, i) => [id, positions[i]])),
      inputs: [Math.min(...xs) - 260, Math.min(...ys)],
      outputs: [Math.max(...xs) + 260, Math.min(...ys)],
    },
  };

  for (const id of chosen) {
    delete outer.nodes[id];
    delete outer.ui?.nodes?.[id];
  }
  outer.nodes[groupId] = group;
  const at: [number, number] = [
    Math.round(xs.reduce((a, b) => a + b, 0) / xs.length),
    Math.round(ys.reduce((a, b) => a + b, 0) / ys.length),
  ];
  ((outer.ui ??= {}).nodes ??= {})[groupId] = at;
  return { inner, outer, node: groupId };
}

/** What {@link ungroupNode} needs to know beyond the two graphs. */
export interface UngroupContext {
  /** The outer graph's path (as the server displays it). */
  outerPath: string;
  /** The group's file (as the server displays it): its relative paths resolve from its folder. */
  innerPath: string;
}

/**
 * A node group ungrouped: the outer graph with the group's nodes in its place, their new ids, and the
 * graph inputs added to it for values the group gave sockets (see {@link ungroupNode}).
 */
export interface Ungrouped {
  outer: Graph;
  ids: string[];
  inputs: string[];
}

/**
 * Replaces the group node `id` of `graph` by the nodes of its graph `inner` (each id kept unless the
 * outer graph uses it, then made unique: `parts_2`), wired as the runtime wires the group: each inner
 * use of a group input takes what the group node gives (a parameter, a wire, a graph input) or the
 * input's default; each outer use of a group output takes the inner socket it names. A literal value
 * for an input that feeds a socket (a JSON socket given `{"a": 1}`) cannot sit on the socket, which
 * takes only wires and graph inputs: it becomes a new graph input of the outer graph, named after the
 * group's input, with the value as its default — what the runtime gives the socket either way. Returns
 * the reason when the graph files cannot say it: a path that cannot be expressed from the outer
 * graph's folder, or a wire into an input the group uses as a parameter.
 */
export function ungroupNode(graph: Graph, id: string, inner: Graph, ctx: UngroupContext): Ungrouped | string {
  const group = graph.nodes[id];
  if (group?.type !== "graph") return `${id} is not a node group`;
  const outer: Graph = structuredClone(graph);
  delete outer.nodes[id];
  const renamed = new Map<string, string>();
  for (const innerId of Object.keys(inner.nodes)) {
    const free = freeName(innerId, {
      ...outer.nodes,
      ...Object.fromEntries([...renamed.values()].map((n) => [n, 0])),
    });
    renamed.set(innerId, free);
  }
  /** What each group input is bound to: a parameter value, a wire or graph input, a literal, or nothing. */
  type Bound = { param: Json } | { link: Source } | { literal: Json } | undefined;
  const bound = (name: string): Bound => {
    if (group.params?.[name] !== undefined) return { param: group.params[name] };
    if (group.inputs?.[name] !== undefined) return { link: group.inputs[name] };
    const fallback = inner.inputs?.[name]?.default;
    return fallback === undefined ? undefined : { literal: wrapLiteral(fallback) };
  };
  const rebase = (relative: string) => rebasePath(relative, folderOf(ctx.innerPath), folderOf(ctx.outerPath));
  /** The outer graph inputs made for literal values given to sockets, by group input name. */
  const made = new Map<string, string>();
  const literalInput = (name: string, value: Json): string => {
    const known = made.get(name);
    if (known !== undefined) return known;
    const fresh = freeName(name, outer.inputs ?? {});
    const decl = inner.inputs?.[name];
    (outer.inputs ??= {})[fresh] = {
      type: decl?.type ?? "json",
      default: value,
      description: decl?.description ?? `The value ${id} gave its input '${name}'.`,
    };
    made.set(name, fresh);
    return fresh;
  };

  const added: Record<string, GraphNode> = {};
  for (const [innerId, original] of Object.entries(inner.nodes)) {
    const node: GraphNode = structuredClone(original);
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value === "string") {
        const [from, fromSocket] = splitLink(value);
        node.inputs![socket] = `${renamed.get(from) ?? from}.${fromSocket}`;
        continue;
      }
      const to = bound(value.$input);
      if (to && "link" in to) node.inputs![socket] = to.link;
      else if (to && "param" in to && isRef(to.param)) node.inputs![socket] = { $input: to.param.$input };
      else {
        // A graph input's default is the value itself (no `$literal` escape), as the runtime binds it.
        const literal = to === undefined ? null : unwrap("param" in to ? to.param : to.literal);
        // Not given: the group was missing it already. null: absent, which an unset socket is too.
        if (literal === null) delete node.inputs![socket];
        else node.inputs![socket] = { $input: literalInput(value.$input, literal) };
      }
    }
    if (node.inputs && !Object.keys(node.inputs).length) delete node.inputs;
    for (const [param, value] of Object.entries(node.params ?? {})) {
      if (!isRef(value)) continue;
      const to = bound(value.$input);
      if (to === undefined) delete node.params![param];
      else if ("param" in to) node.params![param] = to.param;
      else if ("literal" in to) node.params![param] = to.literal;
      else if (typeof to.link !== "string") node.params![param] = to.link;
      else return `${id} wires ${to.link} into '${value.$input}', which ${innerId}.${param} takes as a value`;
    }
    if (node.params && !Object.keys(node.params).length) delete node.params;
    if (node.type === "graph" && node.graph) {
      const moved = rebase(node.graph);
      if (moved === undefined) return `cannot say where ${node.graph} lies from ${ctx.outerPath}`;
      node.graph = moved;
    }
    added[renamed.get(innerId)!] = node;
  }

  const through = (socket: string): string | undefined => {
    const link = inner.outputs?.[socket];
    if (link === undefined) return undefined;
    const [from, fromSocket] = splitLink(link);
    return `${renamed.get(from) ?? from}.${fromSocket}`;
  };
  for (const node of Object.values(outer.nodes)) {
    for (const [socket, value] of Object.entries(node.inputs ?? {})) {
      if (typeof value !== "string" || splitLink(value)[0] !== id) continue;
      const link = through(splitLink(value)[1]);
      if (link === undefined) delete node.inputs![socket];
      else node.inputs![socket] = link;
    }
  }
  for (const [name, value] of Object.entries(outer.outputs ?? {})) {
    if (splitLink(value)[0] !== id) continue;
    const link = through(splitLink(value)[1]);
    if (link === undefined) delete outer.outputs![name];
    else outer.outputs![name] = link;
  }
  for (const module of inner.modules ?? []) {
    const moved = rebase(module);
    if (moved === undefined) return `cannot say where module ${module} lies from ${ctx.outerPath}`;
    if (!(outer.modules ?? []).includes(moved)) (outer.modules ??= []).push(moved);
  }

  // The inner layout, moved so its top-left node sits where the group node was.
  const at = graph.ui?.nodes?.[id] ?? [0, 0];
  const spots = Object.keys(inner.nodes).map((n) => inner.ui?.nodes?.[n] ?? [0, 0]);
  const left = Math.min(...spots.map((p) => p[0]));
  const top = Math.min(...spots.map((p) => p[1]));
  const ui = outer.ui ??= {};
  delete ui.nodes?.[id];
  Object.keys(inner.nodes).forEach((innerId, i) => {
    (ui.nodes ??= {})[renamed.get(innerId)!] = [at[0] + spots[i][0] - left, at[1] + spots[i][1] - top];
  });
  Object.assign(outer.nodes, added);
  return { outer, ids: [...renamed.values()], inputs: [...made.values()] };
}

/**
 * The node outside `chosen` that both takes from the selection and feeds it (directly or through
 * other outside nodes), if any: grouping would make the group node feed itself.
 */
function feedsBack(graph: Graph, chosen: ReadonlySet<string>): string | undefined {
  const consumers = new Map<string, string[]>();
  for (const [id, node] of Object.entries(graph.nodes)) {
    for (const value of Object.values(node.inputs ?? {})) {
      if (typeof value !== "string") continue;
      const from = splitLink(value)[0];
      consumers.set(from, [...(consumers.get(from) ?? []), id]);
    }
  }
  const reached = new Map<string, string>();
  const queue: [string, string][] = [];
  for (const id of chosen) {
    for (const next of consumers.get(id) ?? []) if (!chosen.has(next)) queue.push([next, next]);
  }
  while (queue.length) {
    const [id, first] = queue.pop()!;
    if (reached.has(id)) continue;
    reached.set(id, first);
    for (const next of consumers.get(id) ?? []) {
      if (chosen.has(next)) return first;
      queue.push([next, first]);
    }
  }
  return undefined;
}

/** A relative path of a graph in folder `from`, as seen from folder `to`; URLs and absolute paths stay. */
function rebasePath(relative: string, from: string, to: string): string | undefined {
  if (relative.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(relative)) return relative;
  // joinPath resolves against a file's folder: a file name stands in for one in `from`.
  const inFrom = from === "" ? "x" : from.endsWith("/") ? `${from}x` : `${from}/x`;
  return relativePath(to, joinPath(inFrom, relative));
}

/** A name not yet a key of `taken`, from `base` (`base`, `base_2`, …), usable as a node id or input name. */
function freeName(base: string, taken: Record<string, unknown>): string {
  const clean = base.replace(/[^A-Za-z0-9_-]/g, "_");
  const start = /^[A-Za-z_]/.test(clean) ? clean : `n_${clean}`;
  let name = start;
  for (let i = 2; name in taken; i++) name = `${start}_${i}`;
  return name;
}

/** A file's name without its folder and `.json`. */
function baseName(file: string): string {
  return file.split("/").pop()!.replace(/\.json$/i, "") || "group";
}

function usesModules(nodes: Record<string, GraphNode>, types: ReadonlySet<string>): boolean {
  return Object.values(nodes).some((n) => types.has(n.type));
}

function isRef(value: unknown): value is { $input: string } {
  return !!value && typeof value === "object" && typeof (value as { $input?: unknown }).$input === "string";
}

/** A default written as a parameter value: an object that reads as `$input`/`$literal` is wrapped. */
function wrapLiteral(value: Json): Json {
  return value && typeof value === "object" && !Array.isArray(value) &&
      ("$input" in value || "$literal" in value)
    ? { $literal: value }
    : value;
}

/** A parameter value as the runtime reads it (`$literal` unwrapped: an object with that key alone). */
function unwrap(value: Json): Json {
  return value && typeof value === "object" && !Array.isArray(value) && "$literal" in value &&
      Object.keys(value).length === 1
    ? value.$literal
    : value;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

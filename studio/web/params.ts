/// <reference lib="dom" />
/**
 * The parameter panel: one widget per parameter, built from the node's parameter spec — numbers with
 * their min/max, enums as menus, booleans as checkboxes, strings, JSON and file paths (read ones
 * relative to the project folder, as runs resolve them). A value bound to a graph input shows the input's name (click to unbind); an unbound one has a
 * menu that binds it to a graph input of its type, or to a new one; an issue on a parameter shows beside it.
 *
 * A value edit does not rebuild the panel (the widget already shows it), and a live check's answer
 * only re-marks the rows' issues ({@link showParamIssues}): a rebuild would drop the text being typed
 * in another field and the focus, e.g. the field Tab moves to.
 *
 * @module
 */
import { type GraphModel, INPUTS_ID, OUTPUTS_ID } from "./model.ts";
import type { Issue, Json, ParamDef } from "./types.ts";
import { escapePointer } from "./svg.ts";
import { nameField } from "./name_field.ts";
import type { RenameKind } from "./rename.ts";
import { shownMessage, shownName } from "./shown_name.ts";

/** What the panel calls after applying a change; `rebuild` when the panel's rows must be redrawn. */
export type OnEdit = (rebuild?: boolean) => void;

/**
 * Renames a node id, graph input or graph output of the graph shown (the page makes every reference
 * follow, in other files too); gives the reason when the name is refused.
 */
export type OnRename = (kind: RenameKind, from: string, to: string) => Promise<string | undefined>;

/** The Group Input node's panel: each graph input with its name, type, default and description; add, remove. */
export function renderGraphInputs(
  panel: HTMLElement,
  model: GraphModel,
  issues: Issue[],
  onEdit: OnEdit,
  onRename: OnRename,
): void {
  startInterfacePanel(panel, INPUTS_ID, "Graph inputs");
  for (const [name, decl] of Object.entries(model.graph.inputs ?? {})) {
    const { row, detail: type } = interfaceRow("input", name, decl.type, onRename);
    type.title = decl.description ?? "";
    const value = document.createElement("input");
    value.className = "default";
    value.placeholder = `default (${decl.type === "string" ? "text" : "JSON"}; empty: required)`;
    value.value = decl.default === undefined ? "" : JSON.stringify(decl.default);
    value.onchange = () => {
      value.setCustomValidity("");
      try {
        model.setGraphInputDefault(
          name,
          value.value.trim() === "" ? undefined : parseDefault(value.value, decl.type),
        );
        onEdit();
      } catch (error) {
        value.setCustomValidity(`not JSON: ${(error as Error).message}`);
        value.reportValidity();
      }
    };
    const remove = Object.assign(document.createElement("button"), { textContent: "remove" });
    remove.onclick = () => {
      model.removeGraphInput(name);
      onEdit(true);
    };
    // A graph authored here needs its inputs described as hand-written ones are (errors, docs, --help).
    const about = Object.assign(document.createElement("input"), {
      className: "description",
      value: decl.description ?? "",
      placeholder: "description (shown in errors and docs)",
    });
    about.setAttribute("aria-label", `description of ${name}`);
    about.onchange = () => {
      model.setGraphInputDescription(name, about.value);
      // The row stays (a rebuild would drop the focus Tab just moved): its type's tooltip follows.
      type.title = model.graph.inputs?.[name]?.description ?? "";
      onEdit();
    };
    row.append(value, remove, about);
    panel.append(row);
  }
  const add = document.createElement("div");
  add.className = "param add-input";
  const name = Object.assign(document.createElement("input"), { placeholder: "new input name" });
  const type = document.createElement("select");
  for (const t of ["string", "number", "boolean", "json", "bytes", "scene"]) type.append(new Option(t, t));
  const button = Object.assign(document.createElement("button"), { textContent: "add input" });
  const problem = document.createElement("span");
  problem.className = "param-issue";
  button.onclick = () => {
    problem.textContent = model.addGraphInput(name.value.trim(), type.value) ?? "";
    if (!problem.textContent) onEdit(true);
  };
  add.append(name, type, button, problem);
  panel.append(add);
  showParamIssues(panel, issues);
}

/**
 * The Group Output node's panel: each graph output's name (renaming it renames the socket of every
 * node that uses this graph as a group) and the socket it reads.
 */
export function renderGraphOutputs(panel: HTMLElement, model: GraphModel, onRename: OnRename): void {
  startInterfacePanel(panel, OUTPUTS_ID, "Graph outputs");
  for (const [name, link] of Object.entries(model.graph.outputs ?? {})) {
    panel.append(interfaceRow("output", name, `← ${link}`, onRename).row);
  }
  if (!model.graph.outputs || !Object.keys(model.graph.outputs).length) {
    const none = document.createElement("p");
    none.className = "doc";
    none.textContent = "No graph outputs: drop a wire on + to add one.";
    panel.append(none);
  }
}

/** Empties `panel` for Group Input's or Output's rows (`node`: which of the two), under `title`. */
function startInterfacePanel(panel: HTMLElement, node: string, title: string): void {
  const heading = document.createElement("h3");
  heading.textContent = title;
  panel.replaceChildren(heading);
  panel.dataset.node = node;
}

/**
 * A row of Group Input's or Output's panel for the graph's socket `name`: its name field (renaming it
 * renames the socket wherever the graph is a node group), then `detail` (its type, or the link an
 * output reads). The row is marked `data-input` or `data-output` for the issue marks and the tests.
 */
function interfaceRow(
  kind: "input" | "output",
  name: string,
  detail: string,
  onRename: OnRename,
): { row: HTMLElement; detail: HTMLElement } {
  const row = document.createElement("div");
  row.className = "param";
  row.dataset[kind] = name;
  const shown = document.createElement("span");
  shown.className = "type";
  shown.textContent = detail;
  row.append(nameField(kind, name, `graph ${kind} ${name}`, (to) => onRename(kind, name, to), shown));
  return { row, detail: shown };
}

/**
 * A graph input's default as typed: JSON, except that a string input takes text that is not a
 * quoted JSON string as the string itself (a path typed as is), as `--set name=value` does.
 */
function parseDefault(text: string, type: string): Json {
  return type === "string" && !text.trim().startsWith('"') ? text : JSON.parse(text);
}

/**
 * Marks each parameter row (or graph input row) of the panel with the issues at its JSON path, in
 * place; called with every live check's answer.
 */
export function showParamIssues(panel: HTMLElement, issues: Issue[]): void {
  const id = panel.dataset.node ?? "";
  for (const row of panel.querySelectorAll<HTMLElement>("[data-param], [data-input]")) {
    const at = row.dataset.param !== undefined
      ? `/nodes/${escapePointer(id)}/params/${escapePointer(row.dataset.param)}`
      : `/inputs/${escapePointer(row.dataset.input!)}`;
    row.querySelectorAll(".param-issue").forEach((old) => old.remove());
    for (const problem of issues.filter((i) => i.path === at || i.path.startsWith(`${at}/`))) {
      const p = document.createElement("span");
      p.className = "param-issue";
      p.textContent = shownMessage(problem.message);
      row.append(p);
    }
  }
}

/** Fills `panel` with the parameters of node `id`; `onEdit` runs after each applied change. */
export function renderParams(
  panel: HTMLElement,
  model: GraphModel,
  id: string,
  issues: Issue[],
  onEdit: OnEdit,
  onRename: OnRename,
) {
  panel.replaceChildren();
  panel.dataset.node = id;
  const node = model.graph.nodes[id];
  if (!node) return;
  const heading = document.createElement("h3");
  heading.append(nameField("node", id, `node id ${id}`, (to) => onRename("node", id, to)));
  const doc = document.createElement("p");
  doc.className = "doc";
  const known = node.type === "graph" || model.def(node.type) !== undefined;
  doc.textContent = node.type === "graph" ? `Node group: runs ${node.graph}` : model.def(node.type)?.doc ??
    `'${shownName(node.type)}' is not a node type this runtime has (renamed or removed in another ` +
      "version?): its parameters and wires are kept as the file has them; the Check list says what " +
      "may replace it";
  panel.append(heading, doc);
  // A type the runtime no longer has: its parameters are shown as the file has them, not hidden.
  if (!known) panel.append(...keptParams(node.params ?? {}));
  for (const [name, spec] of Object.entries(paramSpecs(model, id))) {
    const row = document.createElement("label");
    row.className = "param";
    row.dataset.param = name;
    const caption = document.createElement("span");
    caption.textContent = shownName(name);
    caption.title = spec.doc;
    const value = model.graph.nodes[id].params?.[name];
    const field = widget(model, id, name, spec, onEdit);
    if (isRef(value)) row.append(caption, field);
    else {
      const both = document.createElement("div");
      both.className = "param-value";
      both.append(field, bindMenu(model, id, name, spec, onEdit));
      row.append(caption, both);
    }
    panel.append(row);
  }
  showParamIssues(panel, issues);
}

/** Read-only rows of the parameters a node of an unknown type has in its file, as JSON. */
function keptParams(params: Record<string, unknown>): HTMLElement[] {
  return Object.entries(params).map(([name, value]) => {
    const row = document.createElement("div");
    row.className = "param kept";
    row.dataset.param = name;
    const caption = document.createElement("span");
    caption.textContent = shownName(name);
    const shown = document.createElement("code");
    shown.textContent = shownMessage(JSON.stringify(value) ?? "null");
    row.append(caption, shown);
    return row;
  });
}

/** Parameter specs of a node: its definition's, or a node group's parameter inputs. */
function paramSpecs(model: GraphModel, id: string): Record<string, ParamDef> {
  const node = model.graph.nodes[id];
  if (node.type !== "graph") return model.def(node.type)?.params ?? {};
  const sockets = model.groups.get(node.graph ?? "");
  const specs: Record<string, ParamDef> = {};
  for (const name of sockets?.paramInputs ?? []) {
    const decl = sockets!.inputs[name];
    const type =
      (["number", "string", "boolean"].includes(decl.type) ? decl.type : "json") as ParamDef["type"];
    specs[name] = { type, doc: decl.description ?? "", default: decl.default };
  }
  return specs;
}

function isRef(value: unknown): value is { $input: string } {
  return !!value && typeof value === "object" && !Array.isArray(value) && "$input" in value;
}

/** The graph input type a parameter can be bound to (the runtime's `paramSocketType`). */
function inputTypeOf(spec: ParamDef): string {
  return spec.type === "number" || spec.type === "boolean" || spec.type === "json" ? spec.type : "string";
}

/**
 * The menu that binds a parameter to a graph input: each graph input of its type, or a new one named
 * after the parameter whose default is the value it has now (so binding changes nothing a run computes
 * until the input is set). Undo unbinds again, and so does the bound row's button.
 */
function bindMenu(model: GraphModel, id: string, name: string, spec: ParamDef, onEdit: OnEdit): HTMLElement {
  const type = inputTypeOf(spec);
  const menu = document.createElement("select");
  menu.className = "bind";
  // Tab goes from value to value, as it did before the menus: typing through a node's parameters
  // should not stop on each one's menu.
  menu.tabIndex = -1;
  menu.title = `Bind ${name} to a graph input (${type})`;
  menu.setAttribute("aria-label", menu.title);
  menu.append(new Option("bind…", ""));
  for (const [input, decl] of Object.entries(model.graph.inputs ?? {})) {
    if (decl.type === type) menu.append(new Option(`← ${input}`, `input:${input}`));
  }
  menu.append(new Option(`+ new input '${name}'`, "new"));
  menu.onchange = () => {
    if (menu.value === "new") {
      const current = model.graph.nodes[id].params?.[name];
      const value = current === undefined ? spec.default : current;
      const plain = value && typeof value === "object" && !Array.isArray(value) && "$literal" in value
        ? value.$literal
        : value;
      // No value (or null, which only bytes and scene inputs take): the new input is required.
      model.bindToNewInput(id, name, type, plain === null ? undefined : plain);
    } else if (menu.value.startsWith("input:")) {
      model.setParam(id, name, { $input: menu.value.slice("input:".length) });
    } else return;
    onEdit(true);
  };
  return menu;
}

function widget(
  model: GraphModel,
  id: string,
  name: string,
  spec: ParamDef,
  onEdit: OnEdit,
): HTMLElement {
  const current = model.graph.nodes[id].params?.[name];
  const apply = (value: Json | undefined, rebuild = false) => {
    model.setParam(id, name, value);
    onEdit(rebuild);
  };
  if (isRef(current)) {
    const bound = document.createElement("button");
    bound.textContent = `← graph input '${current.$input}' (unbind)`;
    bound.onclick = () => apply(undefined, true);
    return bound;
  }
  const shown = current === undefined ? spec.default : current;
  switch (spec.type) {
    case "number": {
      const input = document.createElement("input");
      input.type = "number";
      if (spec.min !== undefined) input.min = String(spec.min);
      if (spec.max !== undefined) input.max = String(spec.max);
      input.step = spec.integer ? "1" : "any";
      input.value = shown === undefined || shown === null ? "" : String(shown);
      if (spec.default !== undefined) input.placeholder = `default ${JSON.stringify(spec.default)}`;
      input.onchange = () => {
        // Text the browser cannot read as a number (1e400) has no value: say so rather than apply "".
        if (input.validity.badInput) return void input.reportValidity();
        apply(input.value === "" ? undefined : Number(input.value));
      };
      return input;
    }
    case "enum": {
      const select = document.createElement("select");
      for (const value of spec.values ?? []) {
        const option = document.createElement("option");
        option.value = JSON.stringify(value);
        option.textContent = String(value);
        option.selected = JSON.stringify(value) === JSON.stringify(shown);
        select.append(option);
      }
      select.onchange = () => apply(JSON.parse(select.value));
      return select;
    }
    case "boolean": {
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = shown === true;
      box.onchange = () => apply(box.checked);
      return box;
    }
    case "json": {
      const area = document.createElement("textarea");
      area.value = shown === undefined ? "" : JSON.stringify(shown);
      area.onchange = () => {
        area.setCustomValidity("");
        if (area.value.trim() === "") return apply(undefined);
        try {
          apply(JSON.parse(area.value));
        } catch (error) {
          area.setCustomValidity(`not JSON: ${(error as Error).message}`);
          area.reportValidity();
        }
      };
      return area;
    }
    default: {
      const input = document.createElement("input");
      input.type = "text";
      input.value = typeof shown === "string" ? shown : "";
      // A run resolves a read path from the project folder (the studio's working folder, where every
      // path it shows starts), whichever folder the graph is in; a written one inside the output folder.
      if (spec.type === "path" && spec.access === "write") input.placeholder = "path in the output folder";
      else if (spec.type === "path") input.placeholder = "path relative to the project folder";
      input.onchange = () => apply(input.value === "" ? undefined : input.value);
      return input;
    }
  }
}

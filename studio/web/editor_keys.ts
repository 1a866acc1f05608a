/// <reference lib="dom" />
/**
 * The node editor's keys, Blender style: X/Delete deletes, Shift+D duplicates, F2 renames, Home
 * frames all and Numpad . the selection, Shift+L arranges (the selection, or the whole graph),
 * Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y) undo and redo, Tab opens a
 * node group (Tab on nothing goes back), Ctrl+G groups and Alt+G (Ctrl+Alt+G) ungroups. Without a
 * mouse: the arrows select the next node that way (PageDown/PageUp every node in turn), Shift+arrows
 * move the selection, Shift+PageDown/PageUp add to it (A all, Alt+A none), Enter goes to its parameters, C connects a wire
 * (`editor_nav.ts`, `connect_dialog.ts`).
 *
 * @module
 */
import type { EditorEvents, NodeEditor } from "./editor.ts";
import { openConnect } from "./connect_dialog.ts";
import { arrowStep, describeNode, isArrow, MOVE_STEP, nextNode, pageNode } from "./editor_nav.ts";

/** A key pressed in the editor: the edit or view change it stands for (others pass through). */
export function editorKey(ed: NodeEditor, events: EditorEvents, e: KeyboardEvent): void {
  const model = ed.model;
  if (!model) return;
  const mod = e.ctrlKey || e.metaKey;
  // e.code: with Alt held, some layouts (macOS) give e.key another character (Alt+G is "©").
  const g = e.code === "KeyG" || e.key.toLowerCase() === "g";
  // Numpad . is Blender's Frame Selected; with Num Lock off it reads Delete, so it goes first.
  if (e.code === "NumpadDecimal") {
    ed.frameSelected();
  } else if (mod && e.key.toLowerCase() === "z") {
    ed.history(e.shiftKey ? "redo" : "undo");
  } else if (mod && e.key.toLowerCase() === "y") {
    ed.history("redo");
  } else if (g && e.altKey) {
    events.ungroup(ed.selection.slice());
  } else if (g && mod) {
    events.group(ed.selection.slice());
  } else if (e.key === "Delete" || e.key === "x" || e.key === "X") {
    const gone = ed.selection.filter((id) => id in model.graph.nodes);
    if (!gone.length) {
      events.status("Nothing to delete: select nodes first (Group Input and Group Output stay)");
    } else {
      model.deleteNodes(gone);
      events.status(`Deleted ${gone.join(", ")}`);
    }
    ed.select([]);
    events.changed();
  } else if (e.shiftKey && e.key.toLowerCase() === "d") {
    const copies = model.duplicate(ed.selection);
    events.status(
      copies.length ? `Duplicated as ${copies.join(", ")}` : "Nothing to duplicate: select nodes first",
    );
    ed.select(copies);
    events.changed();
  } else if (
    (isArrow(e.key) && !e.shiftKey || e.key === "PageDown" || e.key === "PageUp") && !mod && !e.altKey
  ) {
    const last = ed.selection[ed.selection.length - 1];
    const next = isArrow(e.key) ? nextNode(model, last, e.key) : pageNode(model, last, e.key as "PageUp");
    // Shift+PageDown/PageUp adds the node to the selection (to group or move several by keyboard).
    const adding = e.shiftKey && !ed.selection.includes(next!);
    if (next === undefined) events.status("No node that way");
    else {
      ed.select(adding ? [...ed.selection, next] : [next]);
      ed.showNode(next);
      events.status(`${describeNode(model, next)}${adding ? ` (${ed.selection.length} selected)` : ""}`);
    }
  } else if ((e.key === "a" || e.key === "A") && !mod) {
    // Blender's A selects all, Alt+A none.
    ed.select(e.altKey ? [] : model.ids());
    events.status(e.altKey ? "Selected none" : `Selected all ${ed.selection.length} nodes`);
  } else if (isArrow(e.key) && e.shiftKey && !mod && !e.altKey) {
    // Shift+arrow moves the selection a grid step (one undo step a press), as a drag would.
    if (!ed.selection.length) return events.status("Shift+arrow moves nodes: select them first (arrow keys)");
    const [dx, dy] = arrowStep(e.key);
    model.move(ed.selection, dx * MOVE_STEP, dy * MOVE_STEP);
    ed.render();
    ed.showNode(ed.selection[ed.selection.length - 1]);
    events.changed();
  } else if (e.key === "Enter" && !mod && !e.altKey) {
    if (ed.selection.length !== 1) return events.status("Enter edits one node: select it first (arrow keys)");
    events.open?.(ed.selection[0]);
  } else if ((e.key === "c" || e.key === "C") && !mod && !e.altKey) {
    const editor = e.currentTarget as SVGElement | null;
    openConnect(ed, events, () => editor?.focus());
  } else if (e.shiftKey && e.code === "KeyL" && !mod && !e.altKey) {
    arrangeNodes(ed, events);
  } else if (e.key === "Home") {
    ed.frameAll();
  } else if (e.key === "F2") {
    if (ed.selection.length === 1) events.rename(ed.selection[0]);
    else events.status("F2 renames one node: select it first");
  } else if (e.key === "Tab" && !e.shiftKey && !mod && !e.altKey) {
    const group = ed.selection.find((id) => model.graph.nodes[id]?.type === "graph");
    // Nothing to open or go back from: Tab moves the focus on, as on any page (a keyboard-only user
    // was kept in the editor for good). Shift+Tab always does.
    if (!group && !events.canLeave?.()) return;
    events.tab(group);
  } else return;
  e.preventDefault();
}

/**
 * Arrange (Shift+L, the toolbar's Arrange): lays out the selected nodes (two or more), or else the
 * whole graph, in columns along their wires (`arrange.ts`), one undo step; the whole graph is framed.
 */
export function arrangeNodes(ed: NodeEditor, events: EditorEvents): void {
  const model = ed.model;
  if (!model) return;
  const ids = ed.selection.length > 1 ? ed.selection.slice() : [];
  const what = ids.length ? `the ${ids.length} selected nodes` : "the graph";
  const moved = model.arrange(ids);
  if (!moved) return events.status(`Arrange: ${what} already arranged`);
  if (ids.length) ed.render();
  else ed.frameAll();
  events.status(`Arranged ${what}: ${moved} node(s) moved (Ctrl+Z undoes)`);
  events.changed();
}

/// <reference lib="dom" />
/**
 * C in the node editor: the connect dialog, a wire made without dragging (a keyboard-only user, a
 * screen reader). A modal dialog with two labelled lists: an output (the selected node's first, the
 * first of them chosen) and an input of another node that takes its type, each input saying what it is
 * wired from now (connecting replaces that wire, as a drop does); Connect makes the wire (one undo
 * step), and the input's current wire can be removed from the same dialog. Escape or Cancel closes it,
 * and the focus goes back to the editor.
 *
 * @module
 */
import type { EditorEvents, NodeEditor } from "./editor.ts";
import { label, NEW_OUTPUT, OUTPUTS_ID } from "./shapes.ts";
import { shownName } from "./shown_name.ts";

/** A socket chosen in a list: node id and socket name, as the option's value (JSON). */
type End = [string, string];

/** Opens the connect dialog on the graph shown (see the module doc). */
export function openConnect(ed: NodeEditor, events: EditorEvents, focusBack: () => void): void {
  const model = ed.model;
  if (!model) return;
  const ids = model.ids();
  const first = ed.selection.find((id) => ids.includes(id));
  const ordered = first === undefined ? ids : [first, ...ids.filter((id) => id !== first)];
  const outputs = ordered.flatMap((id) =>
    model.shape(id).outputs.map((s) => ({ end: [id, s.name] as End, type: s.type }))
  );
  if (!outputs.length) {
    return events.status("Connect: no node has an output yet (add one with the search box)", true);
  }
  const dialog = document.createElement("dialog");
  dialog.id = "connect-dialog";
  dialog.setAttribute("aria-label", "Connect a wire");
  const from = list("connect-from", "From output");
  const to = list("connect-to", "To input");
  const note = document.createElement("p");
  note.id = "connect-note";
  note.setAttribute("role", "status");
  const connect = button("Connect"), unwire = button("Disconnect input"), cancel = button("Cancel");
  connect.type = "submit";
  for (const { end, type } of outputs) {
    // Names from the file: a bidi override in one cannot make its option read as another.
    from.select.append(new Option(shownName(`${label(end[0])}.${end[1]} (${type})`), JSON.stringify(end)));
  }
  const wires = model.wires();
  const fillInputs = () => {
    const [fromId, fromSocket] = JSON.parse(from.select.value) as End;
    const type = outputs.find(({ end }) => end[0] === fromId && end[1] === fromSocket)!.type;
    to.select.replaceChildren();
    for (const id of ordered) {
      if (id === fromId) continue;
      for (const s of model.shape(id).inputs) {
        if (s.type !== "any" && s.type !== type) continue;
        const wired = wires.find((w) => w.to === id && w.toSocket === s.name);
        const name = id === OUTPUTS_ID && s.name === NEW_OUTPUT
          ? "a new graph output"
          : `${s.name} (${s.type})`;
        const now = wired ? `, now from ${label(wired.from)}.${wired.fromSocket}` : ", free";
        to.select.append(new Option(shownName(`${label(id)}: ${name}${now}`), JSON.stringify([id, s.name])));
      }
    }
    const none = !to.select.options.length;
    connect.disabled = none;
    note.textContent = none ? `No other node has an input that takes ${type}` : "";
    fillUnwire();
  };
  const fillUnwire = () => {
    const value = to.select.value ? JSON.parse(to.select.value) as End : undefined;
    unwire.disabled = !value || !wires.some((w) => w.to === value[0] && w.toSocket === value[1]);
  };
  from.select.onchange = fillInputs;
  to.select.onchange = fillUnwire;
  const form = document.createElement("form");
  form.method = "dialog";
  const buttons = document.createElement("p");
  buttons.append(connect, unwire, cancel);
  form.append(from.row, to.row, note, buttons);
  dialog.append(form);
  const close = () => {
    dialog.close();
  };
  form.onsubmit = (e) => {
    e.preventDefault();
    const [fromId, fromSocket] = JSON.parse(from.select.value) as End;
    const [toId, toSocket] = JSON.parse(to.select.value) as End;
    const refused = model.connect(fromId, fromSocket, toId, toSocket);
    if (refused) return void (note.textContent = `Wire refused: ${refused}`);
    close();
    events.status(`Connected ${label(fromId)}.${fromSocket} → ${label(toId)}.${toSocket}`);
    ed.render();
    events.changed();
  };
  unwire.onclick = () => {
    const [toId, toSocket] = JSON.parse(to.select.value) as End;
    model.disconnect(toId, toSocket);
    close();
    events.status(`Disconnected ${label(toId)}.${toSocket}`);
    ed.render();
    events.changed();
  };
  cancel.onclick = close;
  dialog.addEventListener("close", () => {
    dialog.remove();
    focusBack();
  });
  document.body.append(dialog);
  fillInputs();
  dialog.showModal();
  from.select.focus();
}

/** A labelled list (a `<select>` with its `<label>`) of the dialog. */
function list(id: string, text: string): { row: HTMLElement; select: HTMLSelectElement } {
  const row = document.createElement("p");
  const caption = document.createElement("label");
  caption.htmlFor = id;
  caption.textContent = text;
  const select = document.createElement("select");
  select.id = id;
  row.append(caption, " ", select);
  return { row, select };
}

/** A button of the dialog that does not submit it. */
function button(text: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  return b;
}

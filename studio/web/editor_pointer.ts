/// <reference lib="dom" />
/**
 * The node editor's pointer gestures, Blender style: drag a header to move (the selection with it),
 * drag from an output to an input to connect (from a connected input: pick its wire up), left-drag
 * on the background to box-select (Shift adds), middle-drag or Alt+drag to pan, wheel to zoom about
 * the pointer.
 *
 * @module
 */
import { ZOOM } from "./framing.ts";
import type { NodeEditor } from "./editor.ts";
import { curve, el, WIDTH } from "./svg.ts";

/** A pointer pressed on the editor: starts the gesture for what is under it. */
export function pointerDown(ed: NodeEditor, svg: SVGSVGElement, e: PointerEvent): void {
  svg.focus();
  const target = e.target as Element;
  const socket = target.closest("[data-socket]");
  const node = target.closest("g.node");
  if (socket) return dragWire(ed, socket);
  if (node) return dragNode(ed, e, node.getAttribute("data-node")!);
  e.preventDefault();
  if (e.button === 1 || e.altKey) return pan(ed, e);
  boxSelect(ed, e);
}

/** Left-drag on the background selects the nodes the box touches (Shift adds), as in Blender. */
function boxSelect(ed: NodeEditor, e: PointerEvent): void {
  const [x0, y0] = ed.toCanvas(e.clientX, e.clientY);
  const box = el("rect", { class: "box-select", x: x0, y: y0, width: 0, height: 0 });
  ed.layer.append(box);
  let [x1, y1] = [x0, y0];
  track((ev) => {
    [x1, y1] = ed.toCanvas(ev.clientX, ev.clientY);
    box.setAttribute("x", String(Math.min(x0, x1)));
    box.setAttribute("y", String(Math.min(y0, y1)));
    box.setAttribute("width", String(Math.abs(x1 - x0)));
    box.setAttribute("height", String(Math.abs(y1 - y0)));
  }, () => {
    box.remove();
    const [left, right, top, bottom] = [
      Math.min(x0, x1),
      Math.max(x0, x1),
      Math.min(y0, y1),
      Math.max(y0, y1),
    ];
    const hit = ed.model!.ids().filter((id) => {
      const [x, y] = ed.model!.position(id);
      return x < right && x + WIDTH > left && y < bottom && y + ed.model!.height(id) > top;
    });
    const wide = right - left > 2 || bottom - top > 2;
    ed.reselect(e.shiftKey ? [...new Set([...ed.selection, ...hit])] : wide ? hit : []);
  });
}

function dragNode(ed: NodeEditor, e: PointerEvent, id: string): void {
  if (!ed.selection.includes(id)) ed.reselect(e.shiftKey ? [...ed.selection, id] : [id]);
  const start = ed.toCanvas(e.clientX, e.clientY);
  const moved = ed.selection.slice();
  const nodes = moved.map((m) => ed.layer.querySelector(`g.node[data-node="${CSS.escape(m)}"]`));
  const origin = moved.map((m) => ed.model!.position(m));
  let dx = 0, dy = 0;
  track((ev) => {
    const at = ed.toCanvas(ev.clientX, ev.clientY);
    [dx, dy] = [at[0] - start[0], at[1] - start[1]];
    nodes.forEach((n, i) =>
      n?.setAttribute("transform", `translate(${origin[i][0] + dx} ${origin[i][1] + dy})`)
    );
  }, () => {
    if (Math.abs(dx) + Math.abs(dy) < 1) {
      // No move: the nodes go back where the model has them (a redraw keeps drawings it would not change).
      return nodes.forEach((n, i) =>
        n?.setAttribute("transform", `translate(${origin[i][0]} ${origin[i][1]})`)
      );
    }
    ed.model!.move(moved, dx, dy);
    ed.render();
    ed.events.changed();
  });
}

function dragWire(ed: NodeEditor, socket: Element): void {
  const model = ed.model!;
  let id = socket.getAttribute("data-node")!;
  let name = socket.getAttribute("data-socket")!;
  if (socket.getAttribute("data-side") === "in") {
    // Dragging from a connected input picks its wire up (as in Blender); from a free one does nothing.
    const wire = model.wires().find((w) => w.to === id && w.toSocket === name);
    if (!wire) return;
    model.disconnect(id, name);
    [id, name] = [wire.from, wire.fromSocket];
    ed.render();
    ed.events.changed();
  }
  const from = ed.socketAt(id, name, "out");
  const temp = el("path", { class: "wire dragging", d: curve(from, from) });
  ed.layer.append(temp);
  track((ev) => temp.setAttribute("d", curve(from, ed.toCanvas(ev.clientX, ev.clientY))), (ev) => {
    temp.remove();
    const drop = document.elementFromPoint(ev.clientX, ev.clientY)?.closest("[data-side='in']");
    if (!drop) return;
    const refused = model.connect(
      id,
      name,
      drop.getAttribute("data-node")!,
      drop.getAttribute("data-socket")!,
    );
    if (refused) return ed.events.status(`Wire refused: ${refused}`, true);
    ed.events.status(
      `Connected ${id}.${name} → ${drop.getAttribute("data-node")}.${drop.getAttribute("data-socket")}`,
    );
    ed.render();
    ed.events.changed();
  });
}

function pan(ed: NodeEditor, e: PointerEvent): void {
  const start = [e.clientX, e.clientY, ed.view.x, ed.view.y];
  let redraw = 0;
  track((ev) => {
    ed.view.x = start[2] - (ev.clientX - start[0]) / ed.view.scale;
    ed.view.y = start[3] - (ev.clientY - start[1]) / ed.view.scale;
    ed.layer.setAttribute(
      "transform",
      `scale(${ed.view.scale}) translate(${-ed.view.x} ${-ed.view.y})`,
    );
    // A large graph draws only what is around the view: what comes into it is drawn once a frame.
    if (ed.culled && !redraw) redraw = requestAnimationFrame(() => (redraw = 0, ed.viewMoved()));
  }, () => {
    if (ed.culled) ed.viewMoved();
  });
}

function track(move: (e: PointerEvent) => void, end: (e: PointerEvent) => void): void {
  const up = (ev: PointerEvent) => {
    removeEventListener("pointermove", move);
    removeEventListener("pointerup", up);
    end(ev);
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", up);
}

export function wheel(ed: NodeEditor, e: WheelEvent): void {
  e.preventDefault();
  const before = ed.toCanvas(e.clientX, e.clientY);
  ed.view.scale = Math.min(
    ZOOM.max,
    Math.max(ZOOM.min, ed.view.scale * (e.deltaY < 0 ? 1.1 : 1 / 1.1)),
  );
  const after = ed.toCanvas(e.clientX, e.clientY);
  ed.view.x += before[0] - after[0];
  ed.view.y += before[1] - after[1];
  ed.viewMoved();
}

/**
 * The editor's model without a browser: wires are refused across types with the reason, deleting
 * cleans every link, duplicating remaps links between the copies, graph inputs can be added and
 * removed, and undo/redo walk the exact graph states.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { registryCatalogue } from "./registry_catalogue.ts";
import { GraphModel, INPUTS_ID, NEW_OUTPUT, OUTPUTS_ID } from "../../studio/web/model.ts";
import type { Catalogue, Graph } from "../../studio/web/types.ts";

const catalogue: Catalogue = registryCatalogue;

function model(): GraphModel {
  const graph: Graph = JSON.parse(Deno.readTextFileSync("graphs/aircraft.json"));
  return new GraphModel("graphs/aircraft.json", graph, catalogue, new Map());
}

Deno.test("editor model: connect, refuse, delete, duplicate, graph inputs, undo and redo", () => {
  const m = model();
  const original = JSON.stringify(m.graph);
  const id = m.addNode("io.write", [0, 0]);
  equal(id, "write");
  const refused = m.connect("fighter", "scene", "write", "bytes");
  equal(refused, "cannot connect fighter.scene (scene) to write.bytes: it expects bytes");
  equal(m.graph.nodes.write.inputs, undefined, "a refused wire changes nothing");
  equal(m.connect("report_json", "bytes", "write", "bytes"), undefined);
  deepEqual(m.graph.nodes.write.inputs, { bytes: "report_json.bytes" });
  equal(m.connect("export", "bytes", OUTPUTS_ID, NEW_OUTPUT), undefined);
  equal(m.graph.outputs!.bytes, "export.bytes", "a wire on + adds a graph output named after the socket");

  const copies = m.duplicate(["report_json", "write"]);
  deepEqual(copies, ["report_json_2", "write_2"]);
  deepEqual(
    m.graph.nodes.write_2.inputs,
    { bytes: "report_json_2.bytes" },
    "links between copies follow them",
  );

  m.deleteNodes(["export"]);
  assert(!("export" in m.graph.nodes));
  equal(m.graph.nodes.write_glb.inputs, undefined, "links from a deleted node go");
  assert(!Object.values(m.graph.outputs!).some((link) => link.startsWith("export.")), "so do its outputs");

  equal(m.addGraphInput("model", "string"), undefined);
  equal(m.addGraphInput("model", "string"), "graph input 'model' exists");
  equal(
    m.connect(INPUTS_ID, "model", "write", "bytes"),
    "cannot connect Group Input.model (string) to write.bytes: it expects bytes",
  );
  m.removeGraphInput("names");
  assert(!("names" in m.graph.nodes.rig.params!), "parameters bound to a removed input are unbound");

  while (m.step("undo"));
  equal(JSON.stringify(m.graph), original, "undo walks back to the graph as opened");
  while (m.step("redo"));
  assert(!("export" in m.graph.nodes) && "write_2" in m.graph.nodes, "redo replays every edit");
});

Deno.test("editor model: unsaved means differs from the graph as opened or saved, whatever the history", () => {
  const m = model();
  equal(m.dirty, false, "a graph laid out on opening is not unsaved");
  m.setParam("fighter", "detail", 3);
  equal(m.dirty, true);
  m.step("undo");
  equal(m.dirty, false, "undone back to the graph as opened");
  m.step("redo");
  equal(m.dirty, true);
  m.move(["fighter"], 10, 0);
  m.move(["fighter"], -10, 0);
  m.setParam("fighter", "detail", { $input: "detail" });
  equal(m.dirty, false, "edits that end where they started leave nothing unsaved");
  m.setParam("fighter", "detail", 4);
  m.markSaved();
  equal(m.dirty, false, "saved");
  m.step("undo");
  equal(m.dirty, true, "undoing past a save differs from the saved file");
  m.step("redo");
  equal(m.dirty, false);
  // Key order alone (a parameter removed and set again goes last) is no change.
  m.setParam("rig", "names", undefined);
  m.setParam("rig", "names", { $input: "names" });
  deepEqual(Object.keys(m.graph.nodes.rig.params!), ["zero_rest", "names"]);
  equal(m.dirty, false);
});

Deno.test("editor model: nodes added at one spot go right of each other, clear of every node", () => {
  const m = new GraphModel("graphs/new.json", { version: 1, nodes: {} }, catalogue, new Map());
  // Below the Group Output node, clear of it and of Group Input (both drawn in an empty graph).
  const [ox, oy] = m.position(OUTPUTS_ID);
  const spot: [number, number] = [ox, oy + m.height(OUTPUTS_ID) + 200];
  const ids = ["demo.fighter", "export.gltf", "io.write"].map((type) => m.addNode(type, spot));
  deepEqual(ids, ["fighter", "gltf", "write"]);
  deepEqual(ids.map((id) => m.position(id)), [spot, [ox + 240, spot[1]], [ox + 480, spot[1]]]);
  // One added over the Group Output node goes right of it, and of what lies there.
  const over = m.addNode("io.write", [ox, oy]);
  const [x, y] = m.position(over);
  equal(y, oy);
  assert(x >= ox + 240, `${x} is right of the Group Output node at ${ox}`);
  for (const id of m.ids().filter((id) => id !== over)) {
    const [nx, ny] = m.position(id);
    const clear = x >= nx + 200 || nx >= x + 200 || y >= ny + m.height(id) || ny >= y + m.height(over);
    assert(clear, `${over} at ${[x, y]} covers ${id} at ${[nx, ny]}`);
  }
  m.step("undo");
  equal(over in m.graph.nodes, false, "each add is one undo step");
});

/**
 * The run states the editor shows, without a browser: kept per top graph by flattened id, so a view
 * of the top graph or of a group entered from it (Tab) shows them however often it is left and
 * re-entered; a group rolls its inner nodes up; nodes without a state are queued only while the run
 * goes on.
 */
import { deepEqual } from "node:assert/strict";
import { RunStates } from "../../studio/web/states.ts";

const plain = (states: Map<string, { state: string; ms?: number }>) =>
  Object.fromEntries([...states].map(([id, s]) => [id, s.state]));

Deno.test("run states: per graph, per group view, rolled up, queued only while running", () => {
  const runs = new RunStates();
  runs.start("a.json");
  deepEqual(plain(runs.view("a.json", [], ["fighter", "rig"])), { fighter: "queued", rig: "queued" });
  runs.set("a.json", "fighter", { state: "done", ms: 5 });
  runs.set("a.json", "rig/parts", { state: "cached", ms: 1 });
  runs.set("a.json", "rig/fit/hinge", { state: "running" });
  deepEqual(plain(runs.view("a.json", [], ["fighter", "rig"])), { fighter: "done", rig: "running" });
  deepEqual(
    plain(runs.view("a.json", ["rig"], ["parts", "fit", "report"])),
    { parts: "cached", fit: "running", report: "queued" },
    "inside the group: its own nodes, a nested group rolled up, the rest still queued",
  );
  deepEqual(plain(runs.view("a.json", ["rig", "fit"], ["hinge"])), { hinge: "running" });
  runs.set("a.json", "rig/fit/hinge", { state: "done", ms: 2 });
  runs.end("a.json");
  deepEqual(plain(runs.view("a.json", ["rig"], ["parts", "fit", "report"])), {
    parts: "cached",
    fit: "done",
  });
  deepEqual(runs.view("a.json", [], ["rig"]).get("rig"), { state: "done", ms: 3 });
  deepEqual(plain(runs.view("b.json", [], ["fighter"])), {}, "another top graph has its own runs");
  runs.start("b.json");
  runs.end("b.json");
  deepEqual(plain(runs.view("a.json", [], ["fighter"])), { fighter: "done" }, "and leaves a.json's alone");
  runs.start("a.json");
  deepEqual(plain(runs.view("a.json", [], ["fighter"])), { fighter: "queued" }, "a new run starts afresh");
});

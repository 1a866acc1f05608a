/**
 * The run states the editor shows, without a browser: kept per top graph by flattened id, so a view
 * of the top graph or of a group entered from it (Tab) shows them however often it is left and
 * re-entered; a group's state is derived from every inner node the run evaluates (done only once all
 * are); nodes without a state are queued only while the run goes on; a broken stream leaves the nodes
 * still running or waiting interrupted.
 */
import { deepEqual, equal } from "node:assert/strict";
import { INTERRUPTED, rollUp, RunStates } from "../../studio/web/states.ts";

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

Deno.test("run states: a group is done only once every node of it the run evaluates is", () => {
  const runs = new RunStates();
  runs.start("a.json");
  runs.plan("a.json", ["slow", "grp/quick", "grp/late", "grp/inner/deep"]);
  deepEqual(plain(runs.view("a.json", [], ["slow", "grp", "unplanned"])), { slow: "queued", grp: "queued" });
  runs.set("a.json", "slow", { state: "running" });
  runs.set("a.json", "grp/quick", { state: "done", ms: 4 });
  deepEqual(
    plain(runs.view("a.json", [], ["slow", "grp"])),
    { slow: "running", grp: "running" },
    "quick is done, late and deep have not reported: the group still runs",
  );
  deepEqual(plain(runs.view("a.json", ["grp"], ["quick", "late", "inner"])), {
    quick: "done",
    late: "queued",
    inner: "queued",
  });
  runs.set("a.json", "slow", { state: "done", ms: 9 });
  runs.set("a.json", "grp/late", { state: "cached", ms: 1 });
  deepEqual(plain(runs.view("a.json", [], ["grp"])), { grp: "running" }, "grp/inner/deep is still to come");
  runs.set("a.json", "grp/inner/deep", { state: "done", ms: 2 });
  deepEqual(runs.view("a.json", [], ["grp"]).get("grp"), { state: "done", ms: 7 });
  runs.end("a.json");
  deepEqual(plain(runs.view("a.json", [], ["slow", "grp", "unplanned"])), { slow: "done", grp: "done" });
});

Deno.test("run states: without the plan, a group is not shown done before the run ends", () => {
  const runs = new RunStates();
  runs.start("a.json");
  runs.set("a.json", "grp/quick", { state: "done", ms: 4 });
  deepEqual(plain(runs.view("a.json", [], ["grp"])), { grp: "running" });
  runs.end("a.json");
  deepEqual(plain(runs.view("a.json", [], ["grp"])), { grp: "done" });
});

Deno.test("run states: a failure wins; a broken stream leaves running and waiting nodes interrupted", () => {
  deepEqual(
    rollUp([{ state: "done" }, { state: "failed" }, { state: "running" }]).state,
    "failed",
  );
  deepEqual(rollUp([{ state: "skipped" }, { state: "running" }]).state, "running");
  deepEqual(rollUp([{ state: "skipped" }, { state: "done" }]).state, "skipped");
  deepEqual(rollUp([{ state: "cached" }, { state: "cached" }]).state, "cached");
  const runs = new RunStates();
  runs.start("a.json");
  runs.plan("a.json", ["slow", "grp/quick", "grp/late", "after"]);
  runs.set("a.json", "slow", { state: "running" });
  runs.set("a.json", "grp/quick", { state: "done", ms: 4 });
  deepEqual(runs.end("a.json", true), ["slow", "grp/late", "after"]);
  equal(runs.running("a.json"), false);
  deepEqual(plain(runs.view("a.json", [], ["slow", "grp", "after"])), {
    slow: INTERRUPTED,
    grp: INTERRUPTED,
    after: INTERRUPTED,
  });
  deepEqual(plain(runs.view("a.json", ["grp"], ["quick", "late"])), { quick: "done", late: INTERRUPTED });
});

Deno.test("run states: a renamed node's states move with it, inside groups too, and back", () => {
  const runs = new RunStates();
  runs.start("a.json");
  runs.plan("a.json", ["fighter", "rig/parts", "rig/fit/hinge", "old"]);
  runs.set("a.json", "fighter", { state: "done", ms: 5 });
  runs.set("a.json", "rig/parts", { state: "cached", ms: 1 });
  runs.set("a.json", "rig/fit/hinge", { state: "failed", ms: 2 });
  // A node deleted since the run left a state under the name the group node now takes.
  runs.set("a.json", "old", { state: "done", ms: 9 });
  runs.end("a.json");
  runs.rename("a.json", [], "rig", "old");
  deepEqual(plain(runs.view("a.json", [], ["fighter", "old", "rig"])), { fighter: "done", old: "failed" });
  deepEqual(plain(runs.view("a.json", ["old"], ["parts", "fit"])), { parts: "cached", fit: "failed" });
  runs.rename("a.json", ["old"], "fit", "fitting");
  deepEqual(plain(runs.view("a.json", ["old", "fitting"], ["hinge"])), { hinge: "failed" });
  runs.rename("a.json", ["old"], "fitting", "fit");
  runs.rename("a.json", [], "old", "rig");
  deepEqual(plain(runs.view("a.json", ["rig", "fit"], ["hinge"])), { hinge: "failed" }, "undone: back");
  deepEqual(runs.view("a.json", [], ["rig"]).get("rig"), { state: "failed", ms: 3 });
  runs.rename("b.json", [], "rig", "x");
  deepEqual(plain(runs.view("b.json", [], ["x"])), {}, "a graph that never ran has nothing to move");
});

Deno.test("run states: what a run reports after a rename goes to the node's new id", () => {
  const runs = new RunStates();
  runs.start("a.json");
  runs.set("a.json", "old", { state: "done", ms: 9 });
  runs.rename("a.json", [], "old", "gone");
  runs.set("a.json", "old", { state: "done", ms: 4 });
  runs.plan("a.json", ["fighter", "rig/parts", "rig/fit", "gone"]);
  runs.set("a.json", "rig/parts", { state: "running" });
  runs.rename("a.json", [], "rig", "parts");
  runs.rename("a.json", ["parts"], "fit", "fitting");
  // Reported by the ids the nodes had when the run started.
  runs.set("a.json", "rig/parts", { state: "done", ms: 2 });
  runs.set("a.json", "rig/fit", { state: "failed", ms: 3 });
  equal(runs.current("a.json", "rig/fit"), "parts/fitting");
  equal(runs.current("a.json", "fighter"), "fighter");
  // The run's own "gone" (since deleted) lost its name to the renamed "old": its reports go nowhere.
  equal(runs.current("a.json", "gone"), undefined);
  runs.set("a.json", "gone", { state: "failed", ms: 1 });
  runs.end("a.json");
  deepEqual(plain(runs.view("a.json", [], ["fighter", "parts", "gone"])), { parts: "failed", gone: "done" });
  deepEqual(plain(runs.view("a.json", ["parts"], ["parts", "fitting"])), {
    parts: "done",
    fitting: "failed",
  });
  deepEqual(runs.view("a.json", [], ["gone"]).get("gone"), { state: "done", ms: 4 });
});

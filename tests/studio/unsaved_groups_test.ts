/**
 * A check or run posted with the page's open versions of node group files (`groups`) uses them in
 * place of the files: the run computes the edited group, the file on disk is never written, the
 * cache keeps the two apart (a changed inner graph never hits the saved one's entry; the same inner
 * graph hits its own, saved or not), and an open version is validated, and confined to the sandbox,
 * exactly as the saved file is; the check's answer gives the sockets of the groups as open.
 */
import { deepEqual, equal, notDeepEqual, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { GraphFile } from "../../mod.ts";
import { withStudioOn } from "./server_helpers.ts";
import { TOP } from "./group_fixtures.ts";
import { tempDir } from "../support/temp.ts";

/** The group: the demo fighter at a given mesh density. */
const inner = (detail: number): GraphFile => ({
  version: 1,
  nodes: { fighter: { type: "demo.fighter", params: { detail } } },
  outputs: { scene: "fighter.scene" },
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

type Event = { event: string; data: Record<string, unknown> & { id?: string; state?: string } };

/** A studio on a temp folder holding `graphs/top.json` and `graphs/inner.json` (detail 1). */
async function withGraphs(fn: (url: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir({ prefix: "studio-unsaved-" });
  await Deno.mkdir(join(dir, "graphs"));
  await Deno.writeTextFile(join(dir, "graphs", "top.json"), JSON.stringify(TOP));
  await Deno.writeTextFile(join(dir, "graphs", "inner.json"), JSON.stringify(inner(1)));
  await withStudioOn(dir, (url) => fn(url, dir));
}

Deno.test("studio server: a run uses the open version of a group file, never writes it, caches it apart", async () => {
  await withGraphs(async (url, dir) => {
    const innerFile = join(dir, "graphs", "inner.json");
    const saved = await Deno.readTextFile(innerFile);
    /** Runs top.json with `groups`; the GLB, the group's node state, and the plan's `groups`. */
    const run = async (groups?: unknown) => {
      const response = await post(`${url}api/run`, {
        path: join(dir, "graphs", "top.json"),
        graph: TOP,
        groups,
      });
      const events: Event[] = (await response.text()).trim().split("\n\n").map((block) => ({
        event: /^event: (.*)$/m.exec(block)![1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)![1]),
      }));
      const end = events.at(-1)!;
      assert(end.data.ok, JSON.stringify(end.data));
      const glb = new Uint8Array(await (await fetch(`${url}api/output?name=glb`)).arrayBuffer());
      const state = events.find((e) =>
        e.event === "node" && e.data.id === "group/fighter" &&
        e.data.state !== "queued" && e.data.state !== "running"
      )!.data.state;
      return { glb, state, read: events[0].data.groups, files: events[0].data.files };
    };
    const open = (detail: number) => [{ path: innerFile, graph: inner(detail) }];

    const asSaved = await run();
    deepEqual([asSaved.state, asSaved.read], ["done", []]);
    deepEqual(asSaved.files, [innerFile], "the plan names every group file it read, from disk too");
    const edited = await run(open(3));
    equal(edited.state, "done", "a different inner graph is computed, not the saved one's cache entry");
    deepEqual(edited.read, [innerFile], "the plan names the file it read from the page");
    deepEqual(edited.files, [innerFile]);
    notDeepEqual(edited.glb, asSaved.glb, "detail 3, not the saved detail 1");
    assert(edited.glb.length > asSaved.glb.length, `${edited.glb.length} > ${asSaved.glb.length} bytes`);
    equal(await Deno.readTextFile(innerFile), saved, "the open version is never written to the file");

    const again = await run(open(3));
    deepEqual([again.state, again.glb], ["cached", edited.glb], "the same inner graph: its own cache entry");
    const savedAgain = await run();
    deepEqual([savedAgain.state, savedAgain.glb], ["cached", asSaved.glb], "and the saved one keeps its own");
    // Saved, the edited group is the same inputs: the same entry, the same bytes.
    await Deno.writeTextFile(innerFile, JSON.stringify(inner(3)));
    const nowSaved = await run();
    deepEqual([nowSaved.state, nowSaved.glb], ["cached", edited.glb]);
  });
});

Deno.test("studio server: a group's open version is checked like its file, and confined to the sandbox", async () => {
  await withGraphs(async (url, dir) => {
    const innerFile = join(dir, "graphs", "inner.json");
    const check = async (groups: unknown) => {
      const response = await post(`${url}api/check`, {
        path: join(dir, "graphs", "top.json"),
        graph: TOP,
        groups,
      });
      return { status: response.status, body: await response.json() };
    };
    const asSaved = await check(undefined);
    deepEqual([asSaved.status, asSaved.body.issues], [200, []]);
    // The sockets the page draws come from the same versions: the group's as saved, then as open.
    deepEqual(asSaved.body.groups, {
      "inner.json": { inputs: {}, outputs: { scene: "scene" }, paramInputs: [] },
    });
    deepEqual(asSaved.body.signature, { inputs: {}, outputs: { glb: "bytes" }, paramInputs: [] });
    const twoOut = { ...inner(1), outputs: { scene: "fighter.scene", report: "fighter.scene" } };
    const opened = await check([{ path: innerFile, graph: twoOut }]);
    deepEqual(opened.body.groups["inner.json"].outputs, { scene: "scene", report: "scene" });
    const broken = { ...inner(1), nodes: { fighter: { type: "demo.fightr" } } };
    const { body } = await check([{ path: innerFile, graph: broken }]);
    deepEqual(
      body.issues.map((i: { kind: string; path: string; file?: string }) => [i.kind, i.path, i.file]),
      [
        ["invalid_subgraph", "/nodes/group/graph", join(dir, "graphs", "top.json")],
        ["unknown_node_type", "/nodes/fighter/type", innerFile],
      ],
    );
    deepEqual(body.groups, { "inner.json": null }, "a group with issues has no sockets");
    // A run of it fails with the same issues, before anything runs.
    const run = await post(`${url}api/run`, {
      path: join(dir, "graphs", "top.json"),
      graph: TOP,
      groups: [{ path: innerFile, graph: broken }],
    });
    const end = JSON.parse(/^data: (.*)$/m.exec((await run.text()).trim().split("\n\n").at(-1)!)![1]);
    equal(end.ok, false);
    equal(end.error.issues[1].kind, "unknown_node_type");

    // Modules of an open version must lie inside the sandbox, as the saved file's must.
    const outside = await check([{ path: innerFile, graph: { ...inner(1), modules: ["/etc/nodes.ts"] } }]);
    equal(outside.body.issues.length, 1);
    equal(outside.body.groups, undefined, "no group is read: no sockets");
    deepEqual([outside.body.issues[0].path, outside.body.issues[0].file], ["/modules/0", innerFile]);
    assert(
      outside.body.issues[0].message.includes("outside the allowed folders"),
      outside.body.issues[0].message,
    );

    // Malformed `groups`, or a path outside the sandbox, are refused with the reason.
    for (
      const [groups, status, message] of [
        [{}, 400, "groups: expected an array of {path, graph}"],
        [
          [{ path: "inner.txt", graph: {} }],
          400,
          "groups[0].path: expected a graph file path ending in .json",
        ],
        [[{ path: innerFile, graph: [] }], 400, "groups[0].graph: expected a graph object"],
        [
          [{ path: "/etc/x.json", graph: {} }],
          403,
          "path '/etc/x.json' refused: outside the allowed folders",
        ],
      ] as const
    ) {
      const answer = await check(groups);
      equal(answer.status, status, JSON.stringify(groups));
      assert(answer.body.error.startsWith(message), answer.body.error);
    }
  });
});

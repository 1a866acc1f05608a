/**
 * What the page asks the server in the course of ordinary editing gets an answer, not an HTTP error
 * (which the browser would log as a failed resource): whether a file exists before Ctrl+G creates
 * it, and the sockets of a graph's node groups — a missing or broken group file included — with the
 * graph itself. Creating a file that exists meanwhile is still refused (HTTP 409), never overwritten.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { withStudioOn } from "./server_helpers.ts";
import { tempDir } from "../support/temp.ts";

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

Deno.test("studio server: exists, group sockets with the graph, and create never overwrites", async () => {
  const dir = await tempDir({ prefix: "studio-answers-" });
  await withStudioOn(dir, async (url) => {
    const group = {
      version: 1,
      inputs: { scene: { type: "scene" }, names: { type: "boolean", default: true } },
      nodes: { panels: { type: "rig.detect_panels", inputs: { scene: { $input: "scene" } } } },
      outputs: { scene: "panels.scene" },
    };
    await Deno.writeTextFile(join(dir, "group.json"), JSON.stringify(group));
    await Deno.writeTextFile(
      join(dir, "broken.json"),
      JSON.stringify({ version: 1, nodes: { a: { type: "no.such" } } }),
    );
    const top = {
      version: 1,
      nodes: {
        fighter: { type: "demo.fighter" },
        a: { type: "graph", graph: "group.json", inputs: { scene: "fighter.scene" } },
        b: { type: "graph", graph: "group.json", inputs: { scene: "a.scene" } },
        lost: { type: "graph", graph: "missing.json" },
        bad: { type: "graph", graph: "broken.json" },
      },
    };
    await Deno.writeTextFile(join(dir, "top.json"), JSON.stringify(top));

    const opened = await fetch(`${url}api/graph?path=${encodeURIComponent(join(dir, "top.json"))}`);
    equal(opened.status, 200);
    deepEqual((await opened.json()).groups, {
      "group.json": { inputs: group.inputs, outputs: { scene: "scene" }, paramInputs: [] },
      "missing.json": null,
      "broken.json": null,
    });

    const exists = async (path: string) => {
      const response = await fetch(`${url}api/exists?path=${encodeURIComponent(path)}`);
      return [response.status, (await response.json()).exists];
    };
    deepEqual(await exists(join(dir, "group.json")), [200, true]);
    deepEqual(await exists(join(dir, "new.json")), [200, false]);
    deepEqual(await exists("/etc/passwd"), [403, undefined], "outside the sandbox: refused, not answered");

    // The page asked and the name was free, but the file was made before the save: 409, file kept.
    const raced = await post(`${url}api/save`, { path: join(dir, "group.json"), graph: top, create: true });
    equal(raced.status, 409);
    deepEqual(await raced.json(), { error: `${join(dir, "group.json")} exists`, exists: true });
    deepEqual(JSON.parse(await Deno.readTextFile(join(dir, "group.json"))), group);
  }, false);
});

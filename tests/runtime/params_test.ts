import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import {
  checkParam,
  readPathsRelative,
  relativeToWorkingFolder,
  withDefaults,
} from "../../runtime/params.ts";
import type { ParamSpec } from "../../runtime/node.ts";
import { tempDir } from "../support/temp.ts";

Deno.test("a path inside the working folder is named relative to it, any other as given", () => {
  assertEquals(relativeToWorkingFolder("/w/tree/DATA/a.cmp", "/w/tree"), "DATA/a.cmp");
  assertEquals(relativeToWorkingFolder("DATA/./b/../a.cmp", "/w/tree"), "DATA/a.cmp");
  assertEquals(relativeToWorkingFolder("/w/other/a.cmp", "/w/tree"), "/w/other/a.cmp");
  assertEquals(relativeToWorkingFolder("../other/a.cmp", "/w/tree"), "../other/a.cmp");
  assertEquals(relativeToWorkingFolder("/w/tree/..a.cmp", "/w/tree"), "..a.cmp"); // a name, not a step out
  assertEquals(relativeToWorkingFolder("/w/tree", "/w/tree"), "."); // a glob's base, say
});

Deno.test("a path through a symlink to the working folder (a shell's $PWD) is named relative to it", async () => {
  const dir = await tempDir({ prefix: "partgraph-params-" });
  try {
    const real = join(dir, "real"), link = join(dir, "link");
    await Deno.mkdir(join(real, "DATA", "SHIPS"), { recursive: true });
    await Deno.symlink(real, link);
    await Deno.symlink(join(dir, "elsewhere.cmp"), join(real, "DATA", "SHIPS", "linked.cmp"));
    assertEquals(
      relativeToWorkingFolder(join(link, "DATA", "SHIPS", "a.cmp"), real),
      join("DATA", "SHIPS", "a.cmp"),
    );
    assertEquals(relativeToWorkingFolder(link, real), ".");
    // The file itself is left as named: a link to a file elsewhere is still named inside the tree.
    assertEquals(
      relativeToWorkingFolder(join(link, "DATA", "SHIPS", "linked.cmp"), real),
      join("DATA", "SHIPS", "linked.cmp"),
    );
    // A folder that does not exist cannot be followed: the path stays as given.
    assertEquals(relativeToWorkingFolder(join(link, "NONE", "a.cmp"), real), join(link, "NONE", "a.cmp"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a plan's params: defaults applied, read paths in working-folder form, other values untouched", () => {
  const specs: Record<string, ParamSpec> = {
    model: { type: "path", access: "read", doc: "" },
    root: { type: "path", access: "read", default: "", doc: "" },
    out: { type: "path", access: "write", default: "a//b.glb", doc: "" },
    name: { type: "string", default: "", doc: "" },
  };
  const inside = join(Deno.cwd(), "DATA", "SHIPS", "a.cmp");
  const planned = (given: Record<string, string>) => readPathsRelative(specs, withDefaults(specs, given));
  assertEquals(planned({ model: inside, name: inside }), {
    model: join("DATA", "SHIPS", "a.cmp"),
    root: "", // an optional path left empty stays empty, not "."
    out: "a//b.glb", // write paths are the output folder's business
    name: inside, // a string is not known to be a path
  });
  assertEquals(planned({ model: "./DATA//SHIPS/a.cmp" }).model, join("DATA", "SHIPS", "a.cmp"));
  assertEquals(planned({ model: "/elsewhere/a.cmp" }).model, "/elsewhere/a.cmp");
});

Deno.test("an empty path is a value only where it is the default", () => {
  const required: ParamSpec = { type: "path", access: "read", doc: "" };
  const optional: ParamSpec = { type: "path", access: "read", default: "", doc: "" };
  const defaulted: ParamSpec = { type: "path", access: "read", default: "a.cmp", doc: "" };
  assertEquals(checkParam(required, ""), 'expected a file path, found ""');
  assertEquals(checkParam(optional, ""), undefined);
  assertEquals(checkParam(defaulted, ""), 'expected a file path, found ""');
  assertEquals(checkParam(optional, 3), "expected a file path, found 3");
});

/**
 * `deno task heldout` — the long held-out sweeps in full: runs every test module that imports
 * `tests/support/heldout.ts` with `-- --heldout`, so each sweeps all its cases rather than the sample
 * `deno task test` keeps (see that module). Names given select modules by path
 * (`deno task heldout copies_names fuzz`); with none, all of them run.
 *
 * @module
 */

const wanted = Deno.args;
const modules: string[] = [];
async function walk(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) await walk(path);
    else if (
      entry.name.endsWith("_test.ts") && (await Deno.readTextFile(path)).includes("support/heldout.ts")
    ) {
      if (!wanted.length || wanted.some((w) => path.includes(w))) modules.push(path);
    }
  }
}
await walk("tests");
// Sorted, so runs list the same modules in the same order.
modules.sort();
if (!modules.length) {
  console.error(`no held-out test module matches ${wanted.join(", ")}`);
  Deno.exit(1);
}
console.log(`held-out sweeps in full: ${modules.join(", ")}`);
const { code } = await new Deno.Command(Deno.execPath(), {
  args: [
    "test",
    "--frozen",
    "--parallel",
    "--allow-read",
    "--allow-write",
    "--allow-net=127.0.0.1,localhost",
    "--allow-run",
    ...modules,
    "--",
    "--heldout",
  ],
  stdout: "inherit",
  stderr: "inherit",
}).spawn().status;
Deno.exit(code);

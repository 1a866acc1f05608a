/**
 * A project folder as real users have one when they start the studio in it: a git checkout
 * (`.git/config` with a remote holding a token), a `.env`, `deno.json`, `node_modules`, a private
 * key, and graphs as people and scripts write them — named in any script, a generated graph of
 * thousands of nodes, a cycle made by hand, a node type spelt as an older release named it, a
 * parameter pasted in at megabyte length — and a model too large to preview. Seeded, so a held-out
 * seed gives another project of the same kinds.
 *
 * @module
 */
import { join } from "node:path";
import { prng } from "../support/prng.ts";

/** What {@link hostileProject} wrote, for the checks to ask about. */
export interface HostileProject {
  /** Files no page should read (secrets, tool configuration), relative to the project. */
  readonly secrets: readonly string[];
  /** A graph named in a non-Latin script, with Unicode node ids and a long parameter. */
  readonly unicodeGraph: string;
  /** Its longest parameter's length, in characters. */
  readonly longParam: number;
  /** A graph reading a path pasted at that length (hundreds of thousands of folders deep). */
  readonly longPathGraph: string;
  /** A generated graph and its node count. */
  readonly bigGraph: string;
  readonly bigNodes: number;
  /** A graph whose nodes feed each other in a loop, and the ids on it. */
  readonly cycleGraph: string;
  /** A graph using a node type by a name no release has (a renamed or misspelt one). */
  readonly renamedGraph: string;
  readonly renamedType: string;
  /** A GLB (sparse on disk) larger than the preview opens, and its size in bytes. */
  readonly bigModel: string;
  readonly bigModelBytes: number;
}

const SCRIPTS = ["飛行機 ✈", "модель-крыла", "Ünïcödé wing", "طائرة", "비행기 🛩️", "e\u0301le\u0300ve"];
const RENAMED = ["rig.fit_hinges", "decode.freelancer", "Rig.Fit_Hinge", "export.glb", "io.Read"];

/** Writes a hostile project into `dir` (an empty folder) from `seed`. */
export async function hostileProject(dir: string, seed: number): Promise<HostileProject> {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const write = async (rel: string, text: string | Uint8Array) => {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    if (typeof text === "string") await Deno.writeTextFile(join(dir, rel), text);
    else await Deno.writeFile(join(dir, rel), text);
  };
  const token = Array.from({ length: 20 }, () => "abcdef0123456789"[Math.floor(random() * 16)]).join("");
  await write(".git/config", `[remote "origin"]\n\turl = https://user:${token}@example.com/x.git\n`);
  await write(".env", `API_KEY=${token}\n`);
  await write("deno.json", '{"tasks":{},"imports":{}}\n');
  await write("node_modules/left-pad/package.json", '{"name":"left-pad"}\n');
  await write(pick(["id_ed25519", "keys/deploy.pem", "secrets.txt"]), `-----BEGIN KEY-----\n${token}\n`);
  const secrets = [".git/config", ".env", "deno.json", "node_modules/left-pad/package.json"];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && !secrets.includes(entry.name) && entry.name !== ".env") secrets.push(entry.name);
  }
  if (await Deno.stat(join(dir, "keys")).then(() => true, () => false)) secrets.push("keys/deploy.pem");

  const name = pick(SCRIPTS);
  const longParam = Math.floor(10_000 + random() * 900_000);
  const unicodeGraph = `graphs/${name}/${name}.json`;
  await write(
    unicodeGraph,
    JSON.stringify({
      version: 1,
      name,
      description: "ü".repeat(longParam),
      nodes: { [`${name} read`]: { type: "io.read", params: { path: `models/${name}.glb` } } },
      outputs: {},
    }),
  );

  const longPathGraph = "graphs/pasted.json";
  const deep = `${name}/`.repeat(Math.ceil(longParam / (name.length + 1)));
  await write(
    longPathGraph,
    JSON.stringify({
      version: 1,
      nodes: { read: { type: "io.read", params: { path: `${deep}x.glb` } } },
      outputs: {},
    }),
  );

  // A script's graph: many reads, each decoded, as generated in a loop.
  const reads = Math.floor(2_500 + random() * 3_500);
  const nodes: Record<string, unknown> = {};
  for (let i = 0; i < reads; i++) {
    nodes[`read_${i}`] = { type: "io.read", params: { path: `models/part_${i}.glb` } };
    nodes[`decode_${i}`] = { type: "decode.auto", inputs: { bytes: `read_${i}.bytes` } };
  }
  const bigGraph = "graphs/generated.json";
  await write(bigGraph, JSON.stringify({ version: 1, nodes, outputs: {} }));

  const length = 2 + Math.floor(random() * 4);
  const loop: Record<string, unknown> = {};
  for (let i = 0; i < length; i++) {
    loop[`step${i}`] = { type: "constraints.resolve", inputs: { scene: `step${(i + 1) % length}.scene` } };
  }
  const cycleGraph = "graphs/loop.json";
  await write(cycleGraph, JSON.stringify({ version: 1, nodes: loop, outputs: { out: "step0.scene" } }));

  const renamedType = pick(RENAMED);
  const renamedGraph = "graphs/old.json";
  await write(
    renamedGraph,
    JSON.stringify({ version: 1, nodes: { a: { type: renamedType, params: {} } }, outputs: {} }),
  );

  // A GLB header declaring the whole length, the rest sparse: the preview must refuse it by size.
  const bigModelBytes = Math.floor((150 + random() * 100) * 1024 * 1024);
  const bigModel = "models/huge.glb";
  const header = new DataView(new ArrayBuffer(12));
  header.setUint32(0, 0x46546c67, true);
  header.setUint32(4, 2, true);
  header.setUint32(8, bigModelBytes, true);
  await write(bigModel, new Uint8Array(header.buffer));
  await Deno.truncate(join(dir, bigModel), bigModelBytes);
  return {
    secrets,
    unicodeGraph,
    longParam,
    longPathGraph,
    bigGraph,
    bigNodes: reads * 2,
    cycleGraph,
    renamedGraph,
    renamedType,
    bigModel,
    bigModelBytes,
  };
}

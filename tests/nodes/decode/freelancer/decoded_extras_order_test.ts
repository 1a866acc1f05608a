/**
 * `decode.cmp` and the Freelancer resolver build their extras with keys in the written file's sorted
 * order — a part's `partgraph.freelancer`, a hardpoint's LancerEdit keys, the scene's `constraints`,
 * `source`, `libraries` and animation scripts, the `construct` and `constraint` a resolved part gains,
 * the scene's `resolved` — so the GLB writer writes the scene's own objects and copies none of them
 * (it copied 1,452 objects per pass of the 16 bench compounds: every part, hardpoint with limits and
 * constraint record, and everything above them). Compounds made by code: retail-shaped ones
 * (`realistic_cmp.ts`, every joint kind, revolute hardpoints), and mod-tool and capital-ship files
 * beside their libraries (`libraries: "auto"`: the search's report; animation scripts), exported
 * before and after `constraints.resolve` (with pivots and without).
 */
import type { Document, Property } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { resolveFreelancerScene } from "../../../../nodes/decode/freelancer/resolver_run.ts";
import { writeGlb, writtenJson } from "../../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { realisticCmp } from "../../../support/realistic_cmp.ts";
import { tempDir } from "../../../support/temp.ts";
import { type ModToolFile, modToolFile, type Quirk } from "./mod_tools.ts";
import { capitalShipFile } from "./capital_ships.ts";

type Json = unknown;
type Written = Record<string, { extras?: Json }[] | undefined>;

/** Objects and arrays of `written` that are not the very objects of `own` at the same place. */
function copiesIn(written: Json, own: Json): number {
  if (typeof written !== "object" || written === null || written === own) return 0;
  const children = Array.isArray(written) ? written.map((v, i) => [i, v] as const) : Object.entries(written);
  const source = own as Record<string | number, Json>;
  return 1 + children.reduce((sum, [key, item]) => sum + copiesIn(item, source?.[key]), 0);
}

/**
 * Copies the writer made of the extras of the scene's nodes, scenes and meshes (the ones the decoder
 * and the resolver build), with where they were, and how many objects those extras hold.
 */
async function writtenCopies(doc: Document): Promise<{ copies: number; objects: number; where: string[] }> {
  const json = writtenJson(await writeGlb(doc, { generator: "t" })) as Written;
  const root = doc.getRoot();
  const lists: [string, Property[]][] = [
    ["nodes", root.listNodes()],
    ["scenes", root.listScenes()],
    ["meshes", root.listMeshes()],
  ];
  let copies = 0, objects = 0;
  const where: string[] = [];
  for (const [kind, list] of lists) {
    list.forEach((prop, i) => {
      const own = prop.getExtras();
      const n = copiesIn(json[kind]?.[i]?.extras, own);
      objects += copiesIn(own, undefined);
      if (n) where.push(`${kind}[${i}] '${prop.getName()}' (${n})`);
      copies += n;
    });
  }
  return { copies, objects, where };
}

/**
 * Sums the writer's copies of each file's decoded scene, and of other decodes of it resolved with and
 * without pivots (LancerEdit's round trip: a Cyl part written as a Rev or Pris construct). A scene once
 * written is not changed: the writer remembers the last one it wrote.
 */
async function tally(
  decode: () => Promise<Document>[],
): Promise<{ copies: number; objects: number; where: string[] }> {
  const sum = { copies: 0, objects: 0, where: [] as string[] };
  for (const mode of ["decoded", "resolved", "resolved without pivots"]) {
    for (const decoded of decode()) {
      const doc = await decoded;
      if (mode !== "decoded") resolveFreelancerScene(doc, {}, () => {}, mode === "resolved");
      const { copies, objects, where } = await writtenCopies(doc);
      sum.copies += copies;
      sum.objects += objects;
      sum.where.push(...where.slice(0, 3).map((w) => `${mode} ${w}`));
    }
  }
  return sum;
}

Deno.test("retail-shaped compounds: the export copies none of the extras decode.cmp and the resolver built (seeds 31-38)", async () => {
  const ctx = testContext("order");
  const files = Array.from({ length: 8 }, (_, i) => realisticCmp(31 + i, { parts: 8 + (i * 7) % 24 }));
  const { copies, objects, where } = await tally(() =>
    files.map(async (bytes, i) =>
      (await runNode(decodeCmp, { bytes: { bytes, name: `r${i}.cmp` } }, { libraries: "none" }, ctx))
        .scene as Document
    )
  );
  if (objects < 3000) throw new Error(`only ${objects} extras objects`);
  if (copies !== 0) throw new Error(`${copies} of ${objects} extras objects copied: ${where.join(", ")}`);
});

Deno.test("files beside their libraries, with hardpoints and scripts: the export copies none of their extras (seeds 31-33)", async () => {
  const ctx = testContext("order");
  const base = await tempDir({ prefix: "partgraph-fl-order-" });
  const habits: Quirk[][] = [["several_libraries"], ["separate_libraries", "split_hardpoints"], [
    "mirrored_limits",
    "switch2",
  ]];
  // Each file in its own folder of a DATA tree, its libraries beside it (found by the search).
  const written: { path: string; file: ModToolFile }[] = [];
  for (let seed = 31; seed <= 33; seed++) {
    const files = [...habits.map((h) => modToolFile(h, seed)), capitalShipFile(seed, { joints: true })];
    for (const [k, file] of files.entries()) {
      const dir = `${base}/DATA/SHIPS/s${seed}_${k}`;
      await Deno.mkdir(dir, { recursive: true });
      for (const sibling of file.siblings ?? []) {
        await Deno.writeFile(`${dir}/${sibling.name}`, sibling.bytes);
      }
      await Deno.writeFile(`${dir}/${file.name}`, file.bytes);
      written.push({ path: `${dir}/${file.name}`, file });
    }
  }
  const partgraphs: Record<string, Json>[] = [];
  const { copies, objects, where } = await tally(() =>
    written.map(async ({ path, file }) => {
      const input = { bytes: { bytes: file.bytes, name: file.name } };
      const doc = (await runNode(decodeCmp, input, { model_path: path }, ctx)).scene as Document;
      partgraphs.push(doc.getRoot().getDefaultScene()!.getExtras().partgraph as Record<string, Json>);
      return doc;
    })
  );
  const reports = partgraphs.filter((p) => p.libraries !== undefined).length;
  const scripts = partgraphs.filter((p) => p.animations !== undefined).length;
  if (reports < partgraphs.length || scripts < 2) {
    throw new Error(`${reports} reports, ${scripts} with scripts`);
  }
  if (copies !== 0) throw new Error(`${copies} of ${objects} extras objects copied: ${where.join(", ")}`);
});

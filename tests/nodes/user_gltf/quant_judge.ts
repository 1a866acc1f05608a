/**
 * Judges a {@link QuantFile} through `decode.gltf` against its clean twin: each mesh node's vertices in
 * world space, normal directions and texture coordinates (through the material's texture transform)
 * compared. `right` when they match, `warned` when every mesh that differs is named in a warning (by
 * `'name'`), `silent` when one is not, `refused` on an error; `falseWarnings` are the twin's warnings.
 * Run directly, it counts each habit over a range of seeds:
 * `deno run -A tests/nodes/user_gltf/quant_judge.ts 101 300 [-v]`.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { decodeWithWarnings } from "./transform_judge.ts";
import { QUANT_HABITS, type QuantFile, quantFile } from "./quant_files.ts";
import { type HabitJudgement, tallyHabits } from "./habit_tally.ts";

/** Per mesh node's name: world positions, unit normals, UVs as drawn. */
function shown(doc: Document): Map<string, { p: number[]; n: number[]; uv: number[] }> {
  const out = new Map<string, { p: number[]; n: number[]; uv: number[] }>();
  for (const node of doc.getRoot().listNodes()) {
    const prim = node.getMesh()?.listPrimitives()[0];
    if (!prim) continue;
    const m = node.getWorldMatrix();
    const p: number[] = [], n: number[] = [], uv: number[] = [];
    const pos = prim.getAttribute("POSITION")!,
      nor = prim.getAttribute("NORMAL"),
      tex = prim.getAttribute("TEXCOORD_0");
    const info = prim.getMaterial()?.getBaseColorTextureInfo();
    const transform = info?.getExtension<Transform>("KHR_texture_transform");
    const scale = transform?.getScale() ?? [1, 1], offset = transform?.getOffset() ?? [0, 0];
    for (let i = 0; i < pos.getCount(); i++) {
      const [x, y, z] = pos.getElement(i, [] as number[]);
      for (let r = 0; r < 3; r++) p.push(m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
      if (nor) {
        const v = nor.getElement(i, [] as number[]);
        const l = Math.hypot(v[0], v[1], v[2]) || 1;
        n.push(v[0] / l, v[1] / l, v[2] / l);
      }
      if (tex) {
        const t = tex.getElement(i, [] as number[]);
        uv.push(t[0] * scale[0] + offset[0], t[1] * scale[1] + offset[1]);
      }
    }
    out.set(node.getName(), { p, n, uv });
  }
  return out;
}

const far = (a: number[], b: number[], tolerance: number) =>
  a.length !== b.length || a.some((v, i) => !(Math.abs(v - b[i]) <= tolerance));

/** Decodes `c` and its clean twin and judges the case. */
export async function judgeQuant(c: QuantFile): Promise<HabitJudgement> {
  const twin = await decodeWithWarnings(c.name, c.clean);
  if (!twin.doc) throw new Error(`${c.name}: the clean twin was refused: ${twin.error}`);
  const read = await decodeWithWarnings(c.name, c.bytes);
  const known = new Set(twin.warnings);
  const said = read.warnings.filter((w) => !known.has(w));
  if (!read.doc) {
    return { outcome: "refused", said, differ: [], falseWarnings: twin.warnings, why: String(read.error) };
  }
  const meant = shown(twin.doc), got = shown(read.doc);
  const differ: string[] = [], why: string[] = [];
  for (const [name, m] of meant) {
    const g = got.get(name);
    const what = !g
      ? "missing"
      : far(g.p, m.p, 2e-3)
      ? "vertices"
      : far(g.n, m.n, 2e-2)
      ? "normals"
      : far(g.uv, m.uv, 1e-3)
      ? "texture coordinates"
      : "";
    if (what) differ.push(name), why.push(`${name}: ${what}`);
  }
  const silent = differ.filter((name) => !said.some((w) => w.includes(`'${name}'`)));
  const outcome = !differ.length ? "right" : silent.length ? "silent" : "warned";
  return { outcome, said, differ, falseWarnings: twin.warnings, why: why.join("; ") };
}

if (import.meta.main) await tallyHabits(QUANT_HABITS, quantFile, judgeQuant);

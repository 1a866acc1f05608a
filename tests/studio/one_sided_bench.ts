/// <reference lib="dom" />
/**
 * One-sided surfaces as users' files have them — decals, billboards, panels without thickness, an
 * exporter's flipped winding, a Daz geograft — previewed in chromium, counting the models whose
 * preview shows no face at all (culled: every face seen from behind as framed). Seeded; held-out
 * seeds are 1001 and up.
 *
 *     deno run --frozen --unstable-bundle -A tests/studio/one_sided_bench.ts 1001 1200
 *
 * @module
 */
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { tempDir } from "../support/temp.ts";
import { openStudio } from "./page_helpers.ts";
import { preview, viewPixels } from "./preview_helpers.ts";

/** A xorshift stream of [0, 1), warmed so that nearby seeds do not start alike. */
function stream(seed: number): () => number {
  let s = (seed * 7919 + 13) >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
  for (let i = 0; i < 20; i++) next();
  return next;
}

/**
 * A model of one to four one-sided fans (2–6 triangles each, half with their winding flipped), turned
 * and placed at random at a scale from 1 cm to 100 m; most with a material, some of those
 * `doubleSided` as a few exporters write it.
 */
export function oneSidedDoc(seed: number): Document {
  const r = stream(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  const surfaces = r() < 0.5 ? 1 : 2 + Math.floor(r() * 3);
  const scale = 10 ** (r() * 4 - 2);
  for (let k = 0; k < surfaces; k++) {
    const n = 2 + Math.floor(r() * 5);
    const position = [0, 0, 0];
    for (let i = 0; i <= n; i++) {
      const angle = (i / n) * Math.PI * (0.5 + r());
      const radius = (0.5 + r()) * scale;
      position.push(Math.cos(angle) * radius, Math.sin(angle) * radius, (r() - 0.5) * 0.05 * scale);
    }
    const flip = r() < 0.5;
    const index: number[] = [];
    for (let i = 1; i <= n; i++) index.push(...(flip ? [0, i + 1, i] : [0, i, i + 1]));
    const primitive = doc.createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor().setType("VEC3").setArray(new Float32Array(position)).setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType("SCALAR").setArray(new Uint16Array(index)).setBuffer(buffer));
    if (r() < 0.7) {
      primitive.setMaterial(
        doc.createMaterial(`m${k}`).setBaseColorFactor([r(), r(), r(), 1]).setDoubleSided(r() < 0.15),
      );
    }
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const length = Math.hypot(...q);
    scene.addChild(
      doc.createNode(`panel ${k}`)
        .setMesh(doc.createMesh(`panel ${k}`).addPrimitive(primitive))
        .setRotation(q.map((v) => v / length) as [number, number, number, number])
        .setTranslation([(r() - 0.5) * scale, (r() - 0.5) * scale, (r() - 0.5) * scale]),
    );
  }
  return doc;
}

/**
 * Pixels the view draws off its background (0x2b2b2b) with no face of the model drawn: the
 * orientation gizmo and such measured 880 on a model whose every face was culled.
 */
const NOTHING_DRAWN = 1000;

if (import.meta.main) {
  const [from, to] = [Number(Deno.args[0] ?? 1001), Number(Deno.args[1] ?? 1200)];
  const dir = await tempDir({ prefix: "studio-one-sided-" });
  for (let seed = from; seed <= to; seed++) {
    await Deno.writeFile(
      join(dir, `s${seed}.glb`),
      await writeGlb(oneSidedDoc(seed), { generator: "partgraph bench" }),
    );
  }
  const { page, studio, close } = await openStudio(dir, false);
  const blank: number[] = [];
  try {
    await page.goto(studio.url);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#tab-preview");
    for (let seed = from; seed <= to; seed++) {
      if (await preview(page, join(dir, `s${seed}.glb`)) !== "ready") throw new Error(`seed ${seed} failed`);
      await page.evaluate(() =>
        new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      );
      const shot = await viewPixels(page);
      let drawn = 0;
      for (let i = 0; i < shot.data.length; i += shot.channels) {
        const off = Math.abs(shot.data[i] - 0x2b) + Math.abs(shot.data[i + 1] - 0x2b) +
          Math.abs(shot.data[i + 2] - 0x2b);
        if (off > 12) drawn++;
      }
      if (drawn < NOTHING_DRAWN) blank.push(seed);
    }
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
  console.log(
    `seeds ${from}-${to}: ${blank.length} of ${to - from + 1} previews show no face, none saying why` +
      (blank.length ? ` (${blank.slice(0, 20).join(", ")}${blank.length > 20 ? ", …" : ""})` : ""),
  );
  Deno.exit(0);
}

/**
 * Game rips whose UVs were lost (`uvless_rips.ts`): every client draws each UV-less mesh of
 * `export.gltf`'s output in the colour viewers drew the source in (its textures sampled at UV (0,0)):
 * the written file, three.js's loader and Blender 3.4's round trip, with a warning naming each mesh
 * and its material. Held-out seeds. Blender's part is skipped with a message when it is absent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { uvlessMisses } from "./uvless_clients.ts";

Deno.test("a textured mesh without UVs: the written file, three.js and Blender all draw the source's corner colour, each mesh named", async () => {
  const counts = await uvlessMisses([401, 402, 403, 404, 405]);
  if (!counts.blender) console.warn("skipped Blender: not installed");
  assert(counts["three.js"].meshes >= 15, JSON.stringify(counts));
  for (const [client, count] of Object.entries(counts)) {
    assertEquals([count.misses, count.silent], [0, 0], client);
  }
});

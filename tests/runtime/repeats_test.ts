/**
 * Warnings of one template given more than five times: three in full, the rest counted in one line in
 * place that names the first eight of them.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { summariseRepeats } from "../../runtime/repeats.ts";

Deno.test("repeated warnings: three of a template in full, then one line for the rest; others untouched", () => {
  const normals = (i: number) => `${i + 1} normal(s) of accessor 'mesh${i}' made unit length`;
  const messages = [
    normals(0),
    "camera 'wide': aspect ratio 0 left out",
    ...Array.from({ length: 6 }, (_, i) => normals(i + 1)),
    "light 'nav': intensity -1 made 0",
  ];
  assertEquals(summariseRepeats(messages), [
    normals(0),
    "camera 'wide': aspect ratio 0 left out",
    normals(1),
    normals(2),
    "… and 4 more like the last: 'mesh3', 'mesh4', 'mesh5', 'mesh6'",
    "light 'nav': intensity -1 made 0",
  ]);
});

Deno.test("repeated warnings: up to five of a template are all given", () => {
  const messages = Array.from(
    { length: 5 },
    (_, i) => `/nodes/${i}/rotation: rotation of length 1.0${i + 1}`,
  );
  assertEquals(summariseRepeats(messages), messages);
  assertEquals(summariseRepeats([...messages, "/nodes/9/rotation: rotation of length 0.98"]).length, 4);
});

Deno.test("repeated warnings: the count names eight of the rest by name or JSON path, then an ellipsis", () => {
  const rotations = Array.from(
    { length: 20 },
    (_, i) => `a.glb at /nodes/${i}/rotation: rotation of length 1.01`,
  );
  const summary = summariseRepeats(rotations);
  assertEquals(summary.length, 4);
  assertEquals(
    summary[3],
    `… and 17 more like the last: ${
      Array.from({ length: 8 }, (_, i) => `/nodes/${i + 3}/rotation`).join(", ")
    }, …`,
  );
  // Nothing to name (no quoted name, no path): the count alone.
  assertEquals(
    summariseRepeats(Array.from({ length: 6 }, (_, i) => `${i} vertices welded`))[3],
    "… and 3 more like the last",
  );
});

/** Warnings of one template given more than five times: three in full, the rest counted in one line in place. */
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
    "… and 4 more like the last",
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

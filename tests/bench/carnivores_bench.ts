/**
 * Carnivores decode benchmarks: a code-built 1,000-vertex character (25 × 40 grid, 1,872 faces) with
 * a 256×256 texture and a 100-frame animation, parsed, decoded and exported to GLB; and the same
 * grid as a skinned `.3df` (10 bones) through decode → resolve → export; and a 200-object `.rsc` area
 * parsed whole against the same area cut 1,000 bytes short, which the parser refuses after trying the
 * texture-size habits it knows.
 */
import { parseCar } from "../../nodes/decode/carnivores/codec/parse_car.ts";
import { parseRsc } from "../../nodes/decode/carnivores/codec/parse_rsc.ts";
import { decodeCar } from "../../nodes/decode/carnivores/decode_car.ts";
import { decode3df } from "../../nodes/decode/carnivores/decode_3df.ts";
import { encode3df, encodeCar } from "../support/carnivores/encode.ts";
import { encodeRsc } from "../support/carnivores/rsc.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { boxModel, gridCar, gridModel, rscArea } from "../nodes/decode/carnivores/fixtures.ts";

const CAR = { bytes: encodeCar(gridCar(25, 40, 100)), name: "grid.car" };
const MODEL_3DF = { bytes: encode3df(gridModel(25, 40)), name: "grid.3df" };
const AREA = encodeRsc({
  ...rscArea("c2"),
  objects: Array.from({ length: 200 }, (_, i) => ({ model: boxModel(3 + (i % 5), 0x1234) })),
});

Deno.bench("parse .car (1,000 vertices, 100 frames)", { group: "car" }, () => {
  parseCar(CAR.bytes, CAR.name, () => {});
});

Deno.bench("decode.car (1,000 vertices, 256×256 texture, 100 frames)", { group: "car" }, async () => {
  await runNode(decodeCar, { bytes: CAR }, {}, testContext());
});

Deno.bench("decode.car + export.gltf → GLB", { group: "car", baseline: true }, async () => {
  const ctx = testContext();
  const { scene } = await runNode(decodeCar, { bytes: CAR }, {}, ctx);
  await runNode(exportGltf, { scene }, {}, ctx);
});

Deno.bench("decode.3df + constraints.resolve + export.gltf (1,000 vertices, 10 bones)", async () => {
  const ctx = testContext();
  const { scene } = await runNode(decode3df, { bytes: MODEL_3DF }, {}, ctx);
  const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
  await runNode(exportGltf, { scene: resolved.scene }, {}, ctx);
});

Deno.bench("parse .rsc (200 objects)", { group: "rsc", baseline: true }, () => {
  parseRsc(AREA, "area.rsc", "auto", () => {});
});

Deno.bench("refuse .rsc cut short (200 objects, 1,000 bytes missing)", { group: "rsc" }, () => {
  try {
    parseRsc(AREA.subarray(0, AREA.length - 1000), "area.rsc", "auto", () => {});
  } catch {
    return; // the DecodeError is what is measured
  }
  throw new Error("a cut area was read");
});

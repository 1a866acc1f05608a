/**
 * The first wave of the community-tool generator (`community_tools.ts`): faces left pointing at a
 * deleted vertex (the uint16 sentinel 65535 or -1 written into the int32 index, or an index past a
 * shortened point table), clips of 0 frames, a clip's frame count raised past the data or off by one,
 * bones whose parent is themselves or that form a cycle, `.vtl` files of another version of the model
 * or cut short, the same faults inside a `.rsc`, and Carnivores 2 / Ice Age name fields as controls.
 *
 * @module
 */
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { animation, pointTable, rscArea } from "./fixtures.ts";
import {
  clips,
  expectEqual,
  keyframes,
  nodeTriangles,
  pick,
  TEXTURE,
  triangles,
} from "./community_checks.ts";
import type { CaseKit, Wave2File } from "./community_tools_wave2.ts";

/** Habits of the first wave. */
export const WAVE1_HABITS = [
  "face_sentinel_65535",
  "face_minus_one",
  "face_past_points",
  "zero_frame_clip",
  "frames_past_file",
  "frames_off_by_one",
  "self_parent",
  "parent_cycle",
  "vtl_other_vertex_count",
  "vtl_cut",
  "rsc_face_sentinel",
  "rsc_animation_other_count",
  "ice_age_name",
  "c2_name",
] as const;

/** One habit of the first wave. */
export type Wave1Habit = typeof WAVE1_HABITS[number];

/** The first wave's file for `habit`, drawn from `kit` (the same draws, in the same order, as ever). */
export function wave1Case(habit: Wave1Habit, kit: CaseKit): Wave2File {
  const { random, faces, points, bones, asCar, model3df, car, clip } = kit;
  const encode = (format: "3df" | "car") =>
    format === "3df" ? encode3df(model3df()) : encodeCar(car([clip("walk", 0), clip("run", 1)]));
  switch (habit) {
    case "face_sentinel_65535":
    case "face_minus_one":
    case "face_past_points": {
      // An editor deleted vertices and left the faces that used them pointing at the sentinel it uses
      // for "none" (uint16 65535, or int32 -1), or at their old indices past the shortened table.
      const bad = pick(random, faces.length, 1 + Math.floor(random() * 3));
      const value = habit === "face_sentinel_65535" ? 65535 : habit === "face_minus_one" ? -1 : undefined;
      for (const f of bad) {
        const corner = Math.floor(random() * 3);
        faces[f].v[corner] = value ?? points.length + Math.floor(random() * 40);
      }
      const format = asCar ? "car" : "3df";
      const kept = faces.length - bad.length;
      return {
        format,
        bytes: encode(format),
        expect: {
          scene: true,
          warning: /vertex ind(ex|ices)/,
          check: (doc) => expectEqual("triangles", triangles(doc), kept),
        },
      };
    }
    case "zero_frame_clip": {
      // CarnivoresIO writes an action with no keyframes as a clip of 0 frames.
      const at = Math.floor(random() * 3);
      const list = [clip("walk", 0), clip("run", 1), clip("idle", 2)];
      list.splice(at, 0, { name: "empty", kps: 10, frameCount: 0, positions: new Int16Array(0) });
      return {
        format: "car",
        bytes: encodeCar(car(list)),
        expect: {
          scene: true,
          warning: /no frames|0 frames/,
          check: (doc) => expectEqual("clips", clips(doc), ["walk", "run", "idle"]),
        },
      };
    }
    case "frames_past_file": {
      // The last clip's frame count edited by hand (or a tool's int16 frame count sign-extended) past
      // the data: the file ends inside it.
      const walk = clip("walk", 0);
      const run = clip("run", 1);
      const bytes = encodeCar(car([walk, run]));
      const lastClipHeader = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2 + 40 +
        walk.positions.length * 2;
      const raised = 1000 + Math.floor(random() * 100000);
      new DataView(bytes.buffer).setInt32(lastClipHeader + 36, raised, true);
      return {
        format: "car",
        bytes: bytes.subarray(0, bytes.length - 256),
        expect: {
          // The last clip's frames end exactly at the end of the file: their size decides its count.
          scene: true,
          warning: /animation 1 stores \d+ frame/,
          check: (doc) =>
            expectEqual("clips", clips(doc), ["walk", "run"]) ??
              expectEqual("run keyframes", keyframes(doc, 1), run.frameCount),
        },
      };
    }
    case "frames_off_by_one": {
      // A converter that stores the frame count as a .rsc does (one less), or one more, on the first
      // of two or three clips: the game reads the next clip's header from frame data.
      const list = [clip("walk", 0), clip("run", 1), clip("idle", 2)].slice(0, 2 + Math.floor(random() * 2));
      const bytes = encodeCar(car(list));
      const at = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2 + 36;
      new DataView(bytes.buffer).setInt32(at, list[0].frameCount + (random() < 0.5 ? -1 : 1), true);
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: /animation 0 stores \d+ frame/,
          // Every clip read whole: the first with the frames its data hold, no header from frame data.
          check: (doc) =>
            expectEqual("clips", clips(doc), list.map((c) => c.name)) ??
              expectEqual("walk keyframes", keyframes(doc, 0), list[0].frameCount),
        },
      };
    }
    case "self_parent":
    case "parent_cycle": {
      const b = 1 + Math.floor(random() * (bones.length - 1));
      if (habit === "self_parent") bones[b] = { ...bones[b], parent: b };
      else {
        // b's parent chain leads back to b: a → … → b → a.
        const a = Math.floor(random() * b);
        bones[a] = { ...bones[a], parent: b };
        bones[b] = { ...bones[b], parent: a };
      }
      return {
        format: "3df",
        bytes: encode3df(model3df()),
        expect: {
          scene: true,
          warning: habit === "self_parent" ? /itself|own parent/ : /cycle|loop/,
          check: (doc) =>
            expectEqual("joints", doc.getRoot().listSkins()[0]?.listJoints().length, bones.length),
        },
      };
    }
    case "vtl_other_vertex_count": {
      // One .vtl exported from another version of the mesh (a box added or removed since).
      const other = points.length + (random() < 0.5 ? -8 : 8);
      const otherTable = pointTable(
        Array.from({ length: other }, (_, i) => points[i % points.length]),
      );
      const layout = random() < 0.5 ? "animator" : "engine";
      return {
        format: "3df",
        bytes: encode3df(model3df()),
        vtls: {
          "a_walk.vtl": encodeVtl(clip("a_walk", 0), { layout }),
          "b_old.vtl": encodeVtl(animation("b_old", 10, 3, otherTable, 1), { layout }),
          "c_run.vtl": encodeVtl(clip("c_run", 2), { layout }),
        },
        expect: {
          scene: true,
          warning: new RegExp(`b_old\\.vtl.*${other}`),
          check: (doc) => expectEqual("clips", clips(doc), ["a_walk", "c_run"]),
        },
      };
    }
    case "vtl_cut": {
      // One .vtl cut short by an interrupted copy: its header is whole, its frames end early.
      const layout = random() < 0.5 ? "animator" : "engine";
      const whole = encodeVtl(clip("b_cut", 1), { layout });
      const header = layout === "animator" ? 12 : 16;
      const cutAt = header + 1 + Math.floor(random() * (whole.length - header - 2));
      return {
        format: "3df",
        bytes: encode3df(model3df()),
        vtls: {
          "a_walk.vtl": encodeVtl(clip("a_walk", 0), { layout }),
          "b_cut.vtl": whole.subarray(0, cutAt),
          "c_run.vtl": encodeVtl(clip("c_run", 2), { layout }),
        },
        expect: {
          scene: true,
          warning: /b_cut\.vtl: the file ends .* cut short; the clip is skipped/,
          check: (doc) => expectEqual("clips", clips(doc), ["a_walk", "c_run"]),
        },
      };
    }
    case "rsc_face_sentinel": {
      // An area whose first object went through a 3DF editor that deleted vertices (see above).
      const model = model3df();
      const bad = pick(random, faces.length, 1 + Math.floor(random() * 3));
      for (const f of bad) {
        model.faces.indices[f * 3 + Math.floor(random() * 3)] = random() < 0.5 ? 65535 : -1;
      }
      const area = rscArea(random() < 0.5 ? "c1" : "c2");
      return {
        format: "rsc",
        bytes: encodeRsc({ ...area, objects: [{ model }, ...area.objects.slice(1)] }),
        expect: {
          scene: true,
          warning: /^object 0: .* vertex index/,
          check: (doc) =>
            expectEqual("obj_00 triangles", nodeTriangles(doc, "obj_00"), faces.length - bad.length),
        },
      };
    }
    case "rsc_animation_other_count": {
      // An animated object re-exported with another vertex count, its old animation block kept.
      const area = rscArea(random() < 0.5 ? "c1" : "c2");
      const objects = area.objects.map((o) =>
        o.animation
          ? {
            ...o,
            animationVertexCount: 3,
            animation: animation("", 10, 2, pointTable([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), 0),
          }
          : o
      );
      return {
        format: "rsc",
        bytes: encodeRsc({ ...area, objects }),
        expect: {
          scene: true,
          warning: /animation's vertex count 3 .* is not the object's/,
          check: (doc) =>
            expectEqual("animations", doc.getRoot().listAnimations().length, 0) ??
              expectEqual(
                "objects",
                doc.getRoot().listNodes().filter((n) => /^obj_\d+$/.test(n.getName())).length,
                3,
              ),
        },
      };
    }
    case "ice_age_name":
    case "c2_name": {
      const name = habit === "ice_age_name"
        ? "Woolly Mammoth Bulls".slice(0, 14 + Math.floor(random() * 7))
        : "Velociraptor";
      const bytes = encodeCar(car([clip("walk", 0)], name, "msc: 4"));
      if (habit === "ice_age_name") {
        // Ice Age keeps 'msc: N' at byte 20.
        bytes.fill(0, 20, 32);
        bytes.set(new TextEncoder().encode(name.padEnd(20, "\0").slice(0, 20)), 0);
        bytes.set(new TextEncoder().encode("msc: 4\0: 5"), 20);
      }
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          check: (doc) => expectEqual("node", doc.getRoot().listNodes()[0]?.getName(), name.trimEnd()),
        },
      };
    }
  }
}

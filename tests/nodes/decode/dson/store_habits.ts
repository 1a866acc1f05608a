/**
 * Scenes as Daz Studio 4.5–4.22 saves them over store products' content, made by code. Each seed
 * draws a mix of the habits real libraries have, and works out here what a correct decode gives:
 *
 * - the figure referenced per-segment `%20`-encoded (Daz), with a `#` in a vendor's folder written
 *   `%23`, without the leading slash (`data/…`, hand-edited and some exporters), or in another case
 *   than the disk's (Windows-authored content on Linux);
 * - two content roots (a user's library and Daz Connect's), the figure in either, at the same path;
 * - the referenced `.dsf` missing from the library while a same-named file of another product sits
 *   in another folder (a moved or half-installed product): that file must not stand in for it;
 * - the UV set in a `.dsf` of its own, now and then one made for another figure (its `vertex_count`
 *   differs): Daz refuses it, and so must we, with a warning;
 * - face groups (`polygon_groups`) beside mixed triangles and quads in `polylist`;
 * - a controller driving a morph through a `stage: "mult"` formula, the morph's own value 0
 *   (a product whose morph is only scaled by the controller) or not: `(own + Σ sums) · Π mults`;
 * - a scene dial on an alias of a bone channel (`F_bone1:?xrotate/value`), read by a corrective,
 *   now and then through an older alias of the alias;
 * - a controller's formula driving an alias of the morph (its older name), not the morph;
 * - a folder's `#` left raw by a third-party writer; the UV set and morph files in any root.
 *
 * @module
 */
import { channels, generateFigure, type Json, splineCorrective } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One generated case: content files by root, the scene, and what a correct decode gives. */
export interface HabitCase {
  readonly seed: number;
  /** The habits drawn, for the report. */
  readonly habits: readonly string[];
  /** Per content root, `[content path, json]`. */
  readonly roots: readonly (readonly (readonly [string, Json])[])[];
  readonly scene: Json;
  readonly expected: {
    /** Whether the figure's mesh is drawn (false: its file is missing; a warning must say so). */
    readonly figure: boolean;
    /** Triangles drawn, when it is. */
    readonly triangles: number;
    /** Whether it has UVs (false: the UV set is refused, warned). */
    readonly uvs: boolean;
    /** Morph weights by name. */
    readonly weights: Readonly<Record<string, number>>;
    /** A DecodeError a correct decode fails with (the rest is then not checked). */
    readonly error?: RegExp;
    /** Warnings a correct decode must give, as patterns (each must match one). */
    readonly warnings: readonly RegExp[];
  };
}

const VENDORS = [
  "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf",
  "/data/Fancy #1 Studio/Outfits/Summer Top.dsf",
  "/data/Rendo Artist/Sóleil Hair/Hair.dsf",
];
const UVS = "/UV Sets/Vendor/Base.dsf";

const encodeDaz = (path: string) => path.split("/").map(encodeURIComponent).join("/");
const dial = (r: () => number) => Math.round((0.2 + r() * 0.7) * 100) / 100;

/**
 * The case of `seed`; figure `F` (4 × 4 grid, bones F_bone0, F_bone1), morph `M`, controller
 * `CTRL`, corrective `JCM` reading F_bone1's x rotation (0° → 0, 90° → 1), alias `SHOULDER`.
 */
export function habitCase(seed: number): HabitCase {
  const r = prng(seed);
  const habits: string[] = [];
  const path = VENDORS[Math.floor(r() * VENDORS.length)];
  const figure = generateFigure({ side: 4, bones: 2, figureId: "F", assetId: encodeDaz(path) });
  delete figure.scene;
  const geometry = (figure.geometry_library as Json[])[0];
  const polys = (geometry.polylist as Json).values as number[][];

  // How the scene writes the figure's path.
  const writing = Math.floor(r() * 4);
  let ref = encodeDaz(path);
  if (writing === 1) (ref = ref.slice(1)), habits.push("no leading slash");
  if (writing === 2) (ref = encodeDaz(path.toUpperCase())), habits.push("another case");
  if (writing === 3) (ref = ref.replaceAll("%20", " ")), habits.push("literal spaces");
  // A third-party writer that leaves a folder's '#' unencoded (Daz writes %23).
  if (path.includes("#") && r() < 0.3) (ref = ref.replaceAll("%23", "#")), habits.push("raw '#' in the path");

  // Face groups: each polygon in one of three, as a store product's named regions.
  if (r() < 0.5) {
    habits.push("face groups");
    geometry.polygon_groups = { count: 3, values: ["Front", "Back", "Trim"] };
    polys.forEach((p, k) => (p[0] = k % 3));
  }
  // A pentagon from a third-party exporter: DSON polygons are triangles or quads (the spec), but
  // the readers that take more corners draw them, so it is cut into triangles, warned (decode.dson
  // v41; before, the file was refused with a DecodeError at the polygon).
  const ngon = r() < 0.15;
  if (ngon) {
    habits.push("a pentagon");
    polys[0].push(polys[0][2] + 2);
  }
  const triangles = polys.reduce((n, p) => n + p.length - 4, 0);

  // The UV set in its own file; now and then one made for another figure.
  const uvSet = (figure.uv_set_library as Json[])[0];
  delete figure.uv_set_library;
  const uvDir = path.slice(0, path.lastIndexOf("/"));
  const uvPath = `${uvDir}${UVS}`;
  const foreignUvs = r() < 0.3;
  if (foreignUvs) {
    habits.push("UV set of another figure");
    uvSet.vertex_count = 25;
    const uvs = uvSet.uvs as { count: number; values: number[][] };
    uvs.values = Array.from({ length: 25 }, (_, k) => [(k % 5) / 4, Math.floor(k / 5) / 4]);
    uvs.count = 25;
  }
  const uvFile = {
    file_version: "0.6.0.0",
    asset_info: { id: encodeDaz(uvPath), type: "uv_set" },
    uv_set_library: [uvSet],
  };
  geometry.default_uv_set = `${encodeDaz(uvPath)}#gen_uvs`;

  // Morph M scaled by CTRL through a mult stage; its own value 0 or not.
  const own = r() < 0.5 ? 0 : 0.5;
  const ctrl = dial(r), k = 1 + Math.floor(r() * 3);
  habits.push(own === 0 ? "mult formula on a zero base" : "mult formula on a dialled base");
  const library = figure.modifier_library as Json[];
  // The morph in a file of its own under Morphs/ (as store products ship them), its parent and the
  // controller's formula naming it by full path, or in the figure's file.
  const morphPath = `${uvDir}/Morphs/Vendor/Product/M.dsf`;
  const ownFile = r() < 0.5;
  const morph = {
    id: "M",
    name: "M",
    parent: ownFile ? `${encodeDaz(path)}#F_geo` : "#F_geo",
    channel: { id: "value", type: "float", value: 0, current_value: own },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
  };
  const morphFile = {
    file_version: "0.6.0.0",
    asset_info: { id: encodeDaz(morphPath), type: "modifier" },
    modifier_library: [morph],
  };
  if (ownFile) habits.push("morph in its own file");
  else library.push(morph);
  const morphUrl = ownFile ? `F:${encodeDaz(morphPath)}#M?value` : "F:#M?value";
  library.push(
    {
      id: "CTRL",
      name: "CTRL",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0, current_value: ctrl },
      formulas: [{
        output: morphUrl,
        stage: "mult",
        operations: [{ op: "push", url: "F:#CTRL?value" }, { op: "push", val: k }, { op: "mult" }],
      }],
    },
    splineCorrective({
      id: "JCM",
      parent: "#F_geo",
      output: "F:#JCM?value",
      input: "F_bone1:#F_bone1?rotation/x/value",
      keys: [[0, 0], [90, 1]],
      vertex: 6,
      delta: [0, 1, 0],
    }),
  );
  // A scene dial on an alias of the bone's rotation, in Daz's channel name or the spec's path.
  const bend = r() < 0.5 ? Math.round(r() * 60) : 0;
  if (bend) {
    habits.push("alias of a bone channel");
    const target = r() < 0.5 ? "F_bone1:?xrotate/value" : "F_bone1:#F_bone1?rotation/x/value";
    library.push({
      id: "SHOULDER",
      name: "SHOULDER",
      parent: "#F_geo",
      channel: {
        id: "value",
        type: "alias",
        name: "SHOULDER",
        label: "Shoulder Bend",
        target_channel: target,
      },
    });
  }
  (figure.node_library as Json[])[2].rotation = channels("float", [0, 0, 0]);

  // Where the figure sits: one root or two; missing, with a same-named file of another product.
  const twoRoots = r() < 0.5;
  const missing = r() < 0.25;
  const roots: [string, Json][][] = twoRoots ? [[], []] : [[]];
  const home = roots[twoRoots && r() < 0.5 ? 1 : 0];
  if (twoRoots) habits.push(home === roots[1] ? "figure in the second root" : "two roots");
  if (missing) {
    habits.push("missing file, same name elsewhere");
    const decoy = generateFigure({ side: 5, bones: 2, figureId: "F" });
    delete decoy.scene;
    const name = path.slice(path.lastIndexOf("/"));
    const decoyPath = `/data/Other Vendor/Old Product${name}`;
    decoy.asset_info = { id: encodeDaz(decoyPath), type: "figure" };
    roots[roots.length - 1].push([decoyPath, decoy]);
  } else home.push([path, figure]);
  // The UV set and morph files of other products may sit in any root (installed separately).
  const anyRoot = () => roots[Math.floor(r() * roots.length)];
  anyRoot().push([uvPath, uvFile]);
  if (ownFile) anyRoot().push([morphPath, morphFile]);

  // An older product's name for the dial: an alias of the alias, which the scene dials instead.
  const chain = bend > 0 && r() < 0.4;
  if (chain) {
    habits.push("alias of an alias of a bone channel");
    library.push({
      id: "OLD_SHOULDER",
      name: "OLD_SHOULDER",
      parent: "#F_geo",
      channel: { id: "value", type: "alias", name: "OLD_SHOULDER", target_channel: "F:#SHOULDER?value" },
    });
  }
  const dialled = chain ? "OLD_SHOULDER" : "SHOULDER";
  // The controller's formula written against the morph's older name, an alias of it.
  if (r() < 0.3) {
    habits.push("formula driving an alias of the morph");
    library.push({
      id: "OLD_M",
      name: "OLD_M",
      parent: "#F_geo",
      channel: { id: "value", type: "alias", name: "OLD_M", target_channel: morphUrl },
    });
    const ctrlRecord = library.find((m) => m.id === "CTRL")!;
    (ctrlRecord.formulas as Json[])[0].output = "F:#OLD_M?value";
  }
  const url = (id: string) => `${ref}#${id}`;
  const modifier = (id: string, extra: Json = {}) => ({
    id: `${id}-1`,
    url: id === "M" && ownFile ? encodeDaz(morphPath) + "#M" : url(id),
    parent: "#F_geo-1",
    ...extra,
  });
  const scene: Json = {
    file_version: "0.6.1.0",
    asset_info: {
      id: "/C%3A/Users/Me/Documents/DAZ%203D/Studio/My%20Library/Scenes/habits.duf",
      type: "scene",
    },
    scene: {
      nodes: [{ id: "F-1", url: url("F"), geometries: [{ id: "F_geo-1", url: url("F_geo") }] }],
      modifiers: [
        modifier("SkinBinding"),
        modifier("M"),
        modifier("CTRL"),
        modifier("JCM"),
        ...(bend
          ? [modifier(dialled, { channel: { id: "value", type: "alias", current_value: bend } })]
          : []),
      ],
    },
  };
  const warnings: RegExp[] = [];
  if (missing) {
    warnings.push(/unresolved reference '.*(Genesis8Female|Summer(%20| )Top|Hair)\.dsf#F': not found/i);
  } else {
    if (foreignUvs) warnings.push(/25 vertices|vertex_count/);
    if (ngon) {
      warnings.push(
        /polylist\/values\/0: 1 polygon\(s\) of geometry 'F_geo' have more than the four corners/,
      );
    }
  }
  return {
    seed,
    habits,
    roots,
    scene,
    expected: {
      figure: !missing,
      triangles,
      uvs: !foreignUvs,
      weights: { M: own * ctrl * k, JCM: bend / 90 },
      warnings,
    },
  };
}

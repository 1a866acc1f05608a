/**
 * `export.gltf` — a scene to GLB or glTF bytes, deterministic: the generator is pinned to the
 * partgraph version and extras keys are sorted, so the same scene gives the same bytes anywhere.
 * Images of identical bytes are written once (`merge_images.ts`), each distinct (image, sampler) pair
 * as one glTF texture; materials and meshes keep their names and count. What a damaged or messy
 * source left in the scene (non-finite values, out-of-range indices, non-unit normals or rotations,
 * weights that do not sum to 1, negative or repeated key times, misspelt attribute names, a MIME
 * type its image contradicts, cameras and lights out of range: `repair*.ts`) is repaired with a
 * warning, and the result is checked: an output the Khronos validator would reject is refused,
 * never written. By default (`validate: "auto"`) a fast check of our own decides for the files it
 * fully covers (`check/mod.ts`), and the Khronos validator for the rest; `validate: "khronos"` always
 * runs the Khronos validator.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../runtime/lazy_run.ts";
import { defineNode } from "../../runtime/node.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { summariseRepeats } from "../../runtime/repeats.ts";
import type { TypedArray } from "@gltf-transform/core";

/** `export.gltf` node definition. */
export const exportGltf = defineNode({
  type: "export.gltf",
  // v10: images of identical bytes, MIME type and extras are written once (before: once per texture
  // of the scene, so a Blender export's packed `.001` copies or a Freelancer texture under two names
  // were stored twice); outputs of scenes without such repeats are byte for byte as in v9. v11: a PNG
  // whose first chunk is not its header is left out as unreadable (the Khronos validator crashed on one).
  // v12: so is a PNG whose header no decoder accepts (of the wrong length, a size of 0, a bit depth its colour type lacks, an
  // unknown method, a wrong checksum; the validator let them through, found by the structure sweep).
  // v13: so is a JPEG whose frame header declares no width, height or components (likewise).
  // v14: repeated names of meshes, materials, images, animations, skins and cameras are written unique
  // too (Blender renamed them `.001` on import), and every property renamed so keeps its original
  // as extras.name (before: nodes and scenes only, the original not kept); meshes without UVs sharing a
  // textured material share one untextured copy of it, and the original goes when nothing else draws it
  // (before: a copy each beside the unused original, all of one name).
  // v15: so is a PNG whose data is surely not its header's size (a small image's whole data, a large one's
  // first rows' filter bytes, the header against deflate's largest ratio; before, passed through: drawn sheared).
  // v16: the PNG data check reads 512 KB of rows (256² RGBA whole; before, 64 KB), and a texture only
  // a material the UV repair replaced drew is left out with it (before, written unused).
  // v17: no written name is longer than Blender's 63 bytes of UTF-8 (cut at a character boundary, kept
  // unique within them, the original as extras.name; before, Blender cut them and renamed twins `.001`),
  // and KHR_lights_punctual lights of one name are written unique too (Blender renamed them `Sun.001`).
  // v18: an accessor without a buffer beside buffered ones is stored in the buffer (before, left out of a
  // GLB silently: a mesh lost its indices); a texture-only .gltf has no buffer (before, refused).
  // v19: morph target names (extras.targetNames) are written within 63 bytes and unique per mesh
  // (Blender 3.4 cut them and renamed a repeat `Blink.001`; three.js reached only the last of a repeat).
  // v20: a skin whose root bone is at the scene root is named apart from the nodes (Blender names the
  // armature object it makes after the skin, and renamed the node of that name, a DSON figure's mesh, `.001`).
  // v21: a mesh Blender 3.4 puts on an object of its own (a skinned mesh on a node a clip keys, even its
  // morph weights alone; a mesh on a joint or armature node) is named apart from the nodes (a Carnivores
  // `limb` came in as an empty `limb` and a mesh `limb.001`), and morph target names cut or made unique
  // keep their originals in the mesh's extras.partgraph.target_names (before, lost).
  // v22: a camera or light Blender 3.4 moves off its node (beside a mesh, on a joint) is named apart from
  // the nodes too (a cockpit camera `canopy` on the canopy's mesh node came in as `canopy.001`); a NUL in a
  // name is written `_` (Blender ends a name at it: `Gear\0Door`, `Gear\0Hatch` came in as `Gear`,
  // `Gear.001`); and what Blender 3.4 drops of a valid file is warned of, naming it (a required extension
  // it refuses, a WebP/KTX2/AVIF-only image, `_` custom attributes, UV or colour sets past the eighth).
  // v23: so is a mesh Blender 3.4 copies per node (drawn at different morph weights, keyed per node, other skins).
  // v24: a mesh Blender 3.4 copies per node (drawn at different morph weights, keyed per node, other skins)
  // is written as those copies, its primitives shared, named `Face_1`… with extras.name `Face` (before:
  // warned of only; Blender named them `Face.001`…, and a round trip wrote those names back).
  // v25: a WebP, KTX2 or AVIF image without a PNG or JPEG fallback gets a PNG one of the same pixels (param
  // png_fallback, on by default), the extension then only used (before: warned of; Blender showed no image,
  // and refused a file that required the extension).
  // v26: a node, mesh, material, image, clip, skin, camera or light without a name (empty or whitespace
  // only, as converters and game rips leave most) is written with one derived from what it is (a node its
  // mesh's name, a mesh `<node>_mesh`, a material `<mesh>_material`, an image its file's name, else
  // `node_<i>`…; derived_names.ts), yielding to the file's own names (before: unnamed, and Blender named
  // them `Mesh_3`, `Node_11`, `Material_4`, three.js left nodes ''); an image name with a dot is written
  // with `_` for it, its `.png`/`.jpg` dropped (Blender's exporter cut `cube.001` back to `cube`).
  // v27: a mesh without UVs drawn with a textured material (a game rip's, its UVs lost) is written with a
  // TEXCOORD_0 of zeros and keeps the material, so every client draws each texture's corner colour, as
  // viewers drew the source, with one warning per material naming each mesh (before: an untextured copy of
  // the material, drawn with its factors alone — another colour than the source's — and the warnings of a
  // rip's many meshes summarised, naming few).
  // v28: meshes no node draws (where nodes draw others) are warned of by name (Blender 3.4 brings none of
  // them in, so a file saved from Blender lost a Freelancer part's LOD and wireframe meshes unsaid).
  // v29: but not the alternates a node lists as its own (`kept_meshes`): every Freelancer ship warned.
  // v30: an integer past 32 bits inside extras (an id, a CRC, a timestamp) is written `3000000000.0`, the
  // same JSON number, which Blender 3.4 keeps (before, it kept the whole extras key as Python text); a
  // lone scene not named the default is written as it (Blender reads scene extras only from `scene`); and
  // extras Blender keeps only as text or drops (a null, a list mixing numbers with text, a key over 63
  // bytes) are warned of by key and property (`blender_extras.ts`).
  // v31: repair warnings name an unnamed mesh or node by its written name (`Strut_mesh`), not `''`
  // (the UV warning listed two unnamed meshes as one `''`).
  // v32: a skin whose armature is a node is written under that node's name (Blender's exporter names a
  // skin after its armature object: 22 of 29 skins of held-out rigged scenes came back renamed), the
  // original in extras.name; materials no primitive uses are warned of (Blender brings them in nowhere).
  // v33: NaN or ±Infinity in a property's extras (written null, as JSON has no such numbers) is warned
  // of, naming the property and the places (before, silently null).
  // v34: property repair warnings (misspelt attributes, morph weights, cameras, lights, skins) name an
  // unnamed property by its written name too.
  // v35: and so do the vertex data and animation repairs (weights, tangents, colours, rotation keys,
  // key times, channels), the skin-root and material-variant ones.
  // v36: extras on a property Blender 3.4 drops the extras of (the file's, the asset's, primitives, images,
  // textures, texture infos, samplers, skins, clips and their channels and samplers, accessors, buffers:
  // measured) are warned of, once per kind, naming the properties and keys (before, lost silently on a
  // Blender round trip: 179 of 653 fields of held-out seeds).
  // v37: NaN or ±Infinity in extras is found in the scene as given (a primitive's, the file's, any
  // property's), not in the written JSON: the repair copy had turned it into null first, unwarned.
  // v38: a texture reference whose KHR_texture_transform samples a UV set the primitives have while its
  // own texCoord (the fallback for viewers without the extension) names one they lack is given the
  // transform's set, as decode.gltf v47 does for files (before, a scene a script built was refused:
  // MESH_PRIMITIVE_TOO_FEW_TEXCOORDS, held-out 79 of 100); named.
  // v39: that warning says which of those extras three.js keeps (the file's, the asset's, primitives',
  // images', clips') and which it reads no more than Blender; and names the primitives three.js loads with
  // an earlier one's extras (one geometry for primitives drawing the same accessors).
  // v40: and NaN or ±Infinity a node before the export copied into null (copy.ts remembers where) is
  // named too, where the place still holds null.
  // v41: a WebP/KTX2/AVIF image whose URI is a data: URI gets its PNG fallback without one (the writer
  // read `data:image/webp…png` as WebP and the output check refused the file).
  // v42: a renamed mesh keeps its original as extras.mesh_name too: three.js merges a one-primitive mesh's
  // extras into its node's object and sets userData.name to the node's name (held-out kit-bash/CAD seeds
  // 101-130: 98 of 135 renamed meshes' originals unreachable in three.js -> 0; materials already 0 of 36).
  // v43: so does a renamed camera or light (extras.camera_name, extras.light_name): three.js makes one alone
  // on its node the node's object, likewise (held-out seeds 101-130: 47 of 47 originals unreachable -> 0).
  // v44: a decoder's own records on primitives and images (Carnivores' face flags, Freelancer's baked
  // images' sources, `extras.partgraph.<decoder>` alone) are not warned of as extras Blender drops: every
  // Carnivores export warned (held-out community-tool seeds 301-302: 54 of 54 files -> 0); users' keys
  // there still are.
  // v45: NaN and Infinity warnings come in the file's order of properties (a scene read back from the disk
  // cache listed them in another), and a clip sampler no one gave an interpolation is written LINEAR, as
  // glTF-Transform reads it back (a warm run wrote the key, the cold run not: other bytes).
  // v46: an image merged into another of the same bytes under another name keeps that name in the extras of
  // each material that sampled it (extras.image_names.<slot>), which three.js keeps as the material's userData
  // and decode.gltf v52 restores (held-out seeds 101-130: 29 of 193 image uses' originals unreachable -> 0).
  // v47: a renamed property whose extras hold a `name` of their own (a material library's, a user's) keeps
  // it, and its original goes to extras.original_name (before, kept nowhere: held-out image seeds 101-130,
  // 3 of 200 uses' originals lost, and decode.gltf read the other name back where it shared the cut's bytes).
  // v48: so does a slot of a material extension (clear coat, sheen, transmission, volume, specular,
  // iridescence, anisotropy), under glTF's name of it (extras.image_names.clearcoatRoughnessTexture): before,
  // only core slots were recorded (held-out seeds 201-240 of extension_images.ts: 179 of 339 uses lost -> 0).
  // v49: a picture's WebP, KTX2 or AVIF image and its PNG (or JPEG) fallback share one written name, the
  // picture's (fallback_names.ts): the fallback was made unique apart (`paint_1`, `paint_2` beside a file's
  // own `paint_1`), so Blender, which reads the fallback, named the picture otherwise than three.js (held-out
  // seeds 201-260 of fallback_names.ts: 233 of 316 textures -> 0; 146 renamed with nothing to clash -> 0).
  // v50: a mesh node whose world bounds (a skinned one's through its joints) reach past 50 km from the origin
  // is warned of by name (far_extent.ts):
  // fuzz survivors with a damaged coordinate reached Blender and three.js as specks, with no word.
  // v51: a model placed at map coordinates (far out, compact: its meshes within 50 km of the scene's median)
  // is not called damaged; one note says where it lies, as one damaged transform above every mesh looks
  // the same. A skin is read through the joints some vertex weighs only (far_skin.ts). Held-out seeds
  // 101-160 of far_scenes.ts: placed scenes called damaged 240/240 -> 0; damaged meshes in placed scenes
  // unnamed among the repeats 51/180 -> 0; a root thrown out whole within map range 16/60 hedged (warned before).
  // v53: a skinned node whose mesh has JOINTS_0 and WEIGHTS_0 on some primitives only (a scene from another
  // decoder or built through the API) is written as decode.gltf v62 reads such files: the others on a child
  // node at the node's place, drawn unskinned, warned naming node, skin and mesh (before: written skinned, as
  // glTF forbids, and passed by the check).
  // v55: a .gltf output keeps a KHR_materials_variants variant no primitive maps where the scene has a mesh
  // with morph targets and extras (the scene was copied for glTF-Transform's writer, and the copy lost it).
  version: 55,
  doc: "Writes a scene as GLB (or .gltf JSON with embedded resources), byte-for-byte reproducible; " +
    "a node, mesh, material, image, clip, skin, camera or light without a name is given one from what it is " +
    "(a node its mesh's name, a mesh `<node>_mesh`, a material `<mesh>_material`, an image its file's name, else `node_<i>`, `mesh_<i>`…), " +
    "as rig.report names it; an image name's dots are written `_` (Blender's exporter cuts a name at its last dot); " +
    "clashing node (then scene) names get unique `<name>_<n>` spellings, as rig.report names them, and so do " +
    "repeated mesh, material, image, animation, skin, camera and light names (each kind on its own), the original kept as extras.name (as extras.original_name where the extras have a name of their own; a mesh's, camera's or light's also as extras.mesh_name, camera_name or light_name, which three.js keeps in the userData of the object it makes: it gives userData.name the node's); " +
    "no name is written longer than Blender's 63 bytes of UTF-8 (cut at a character boundary, unique within them, the original kept likewise), " +
    "each mesh's morph target names are written within 63 bytes and unique, and a skin whose bones hang from the scene root " +
    "is named apart from the nodes (Blender names an armature object after it), as is a mesh Blender puts on an object of its own " +
    "(skinned on a node a clip keys, or on a joint) and a camera or light beside a mesh, the original name kept as extras.name " +
    "(a NUL in a name, where Blender ends it, written `_`); morph target names changed so keep " +
    "their originals in the mesh's extras.partgraph.target_names; " +
    "images of identical bytes, MIME type and extras are written once (the first's name kept; another name a material sampled it by kept in that material's extras.image_names, by slot (core or a material extension's, as glTF names it: clearcoatRoughnessTexture), which three.js keeps in its userData and decode.gltf restores), materials all kept; " +
    "a mesh without UVs drawn with a textured material is written with UVs of (0,0), so every client draws each texture's " +
    "corner colour as viewers drew the source, with a warning naming the meshes and material; " +
    "what damaged or messy sources leave (non-finite values, out-of-range indices, non-unit normals, tangents and " +
    "rotation keys, vertex colours outside 0..1, weights not summing to 1, negative or repeated key times, misspelt attribute names, attribute sets numbered with gaps or joints without weights, indices holding the strip-restart value, a material variant mapped twice, a skin on a mesh with joint data on some primitives only (the others moved to a child node, drawn unskinned), " +
    "a texture's fallback texCoord naming a UV set the primitives lack beside a KHR_texture_transform set they have, a MIME type " +
    "its image contradicts, cameras and lights out of range) is repaired with a warning, and an output the Khronos " +
    "glTF validator would reject is refused: a fast check of our own decides for files of glTF 2.0 core, " +
    "the Khronos validator for files with extensions or whatever the fast check is unsure of. What Blender 3.4's importer " +
    "drops of a valid file is warned of by name: a required extension it refuses (the whole file), meshes no node draws (but those a node keeps as its own LODs), " +
    "a WebP, KTX2 or AVIF-only " +
    "image (written with a PNG fallback of the same pixels unless png_fallback is off), custom `_` attributes, UV or colour sets past the eighth, extras keys Blender keeps only as text or drops (a null, " +
    "a list mixing numbers with text, a key over 63 bytes), and extras on properties Blender drops the extras of (the file's or asset's, primitives, images, " +
    "textures and texture infos, skins, clips and their channels, accessors), once per kind (but a decoder's own record of how it read a primitive or image, such as Carnivores' face flags). An integer past 32 bits in extras is written `3000000000.0` (the same " +
    "JSON number, kept by Blender), and a lone scene is written as the file's default; a skin whose armature is a node " +
    "is written under that node's name (Blender's exporter names it so); materials no mesh uses, and NaN or Infinity in extras " +
    "(written null), are warned of. A mesh Blender would copy " +
    "per node (drawn at different morph weights or skins, or its weights keyed per node) is written as those copies, sharing " +
    "their vertex data, named `Face_1`… (extras.name `Face`), so Blender renames nothing and three.js draws the same.",
  // The PNG fallbacks are textures.to_png's pixels: its version is part of this node's cache key.
  invokes: () => ["textures.to_png"],
  inputs: { scene: { type: "scene", doc: "The scene to write." } },
  outputs: { bytes: { type: "bytes", doc: "The encoded file." } },
  params: {
    format: { type: "enum", values: ["glb", "gltf"], default: "glb", doc: "Container format." },
    name: { type: "string", default: "scene", doc: "Base file name of the output (extension added)." },
    png_fallback: {
      type: "boolean",
      default: true,
      doc:
        "Write a PNG of the same pixels beside each WebP, KTX2 or AVIF image that has no PNG or JPEG fallback, " +
        "as the texture's core `source` (the extension then used, not required), so Blender 3.4, which reads " +
        "none of the three, shows the picture; false writes such images alone (smaller, Blender shows none).",
    },
    validate: {
      type: "enum",
      values: ["auto", "khronos"],
      default: "auto",
      doc: "How the output is checked: `auto` — the fast check where it covers the file, the Khronos " +
        "validator elsewhere; `khronos` — always the Khronos validator (slower, same verdicts).",
    },
  },
  run: preloadWith(async ({ inputs, params, ctx }) => {
    // Loaded on the first run, not at the top: declaring the node loads no glTF-Transform.
    const [
      { GENERATOR },
      { gltfIO, writeGlb, writeGltfJson, writtenArrays, writtenJson },
      { repairForExport },
      { withImagesMerged },
      { withMeshPerNode },
    ] = await Promise.all([
      importOnUse<typeof import("../../runtime/version.ts")>("../../runtime/version.ts", import.meta.url),
      importOnUse<typeof import("../../runtime/scene/gltf_io.ts")>(
        "../../runtime/scene/gltf_io.ts",
        import.meta.url,
      ),
      importOnUse<typeof import("./repair.ts")>("./repair.ts", import.meta.url),
      importOnUse<typeof import("./merge_images.ts")>("./merge_images.ts", import.meta.url),
      importOnUse<typeof import("./mesh_per_node.ts")>("./mesh_per_node.ts", import.meta.url),
    ]);
    // Unique names: viewers would otherwise rename clashes, each its own way (Blender `.001`).
    const options = { generator: GENERATOR, uniqueNames: true };
    // The writer's I/O registers every extension's image format, which the MIME repair recognises.
    await gltfIO();
    // Read from the scene as given: the repair copy and the take-over below turn NaN into null.
    const { nonFiniteExtras } = await importOnUse<typeof import("./extras_numbers.ts")>(
      "./extras_numbers.ts",
      import.meta.url,
    );
    const nonFinite = nonFiniteExtras(inputs.scene);
    const repaired = repairForExport(inputs.scene, (message) => ctx.warn(message));
    // After the repair, which may correct a MIME type and so make two images alike. Ownership is asked
    // only when images repeat: asking forgets the GLB the writer remembers of the scene (the disk tier's).
    // Before the merge, which then sees each PNG fallback as an image like any other.
    const { withPngFallbacks } = await importOnUse<typeof import("./png_fallback.ts")>(
      "./png_fallback.ts",
      import.meta.url,
    );
    const fallen = params.png_fallback
      ? await withPngFallbacks(
        repaired,
        () => repaired !== inputs.scene || ctx.owns("scene"),
        (message) => ctx.warn(message),
        async (scene) => (await ctx.invoke("textures.to_png", { scene })).scene as typeof scene,
      )
      : repaired;
    const merged = withImagesMerged(fallen, () => fallen !== inputs.scene || ctx.owns("scene"));
    // A mesh Blender would copy per node (and rename `.001`) is written as those copies, named by us.
    const scene = withMeshPerNode(merged, () => merged !== inputs.scene || ctx.owns("scene"));
    const bytes = params.format === "glb"
      ? await writeGlb(scene, options)
      : await writeGltfJson(scene, options);
    await refuseInvalid(bytes, params.format, params.validate, writtenJson(bytes), writtenArrays(bytes));
    // A valid file may still lose parts in Blender 3.4, the client users most often open it in: named here.
    const { blenderDrops } = await importOnUse<typeof import("./blender_drops.ts")>(
      "./blender_drops.ts",
      import.meta.url,
    );
    const written = writtenJson(bytes) as Record<string, unknown> | undefined;
    // Valid, yet shown as a speck by both clients: a mesh reaching absurdly far (a damaged coordinate).
    const { farMeshes } = await importOnUse<typeof import("./far_extent.ts")>(
      "./far_extent.ts",
      import.meta.url,
    );
    const drops = [
      ...nonFinite,
      ...written ? [...blenderDrops(written), ...farMeshes(written, glbBinary(bytes, params.format))] : [],
    ];
    for (const message of summariseRepeats(drops)) ctx.warn(message);
    return { bytes: { bytes, name: `${params.name}.${params.format}` } };
  }, exportModules),
});

/**
 * The modules the run imports for every scene (and the writer's I/O, which loads the extensions),
 * loaded by a batch worker ahead of its first input (`preloadWith`). The Khronos validator, needed
 * only for files the fast check does not cover, stays loaded on use: parsing it costs each worker
 * more than most inputs do.
 */
function exportModules(): Promise<unknown> {
  return Promise.all([
    importOnUse<typeof import("../../runtime/version.ts")>("../../runtime/version.ts", import.meta.url),
    importOnUse<typeof import("../../runtime/scene/gltf_io.ts")>(
      "../../runtime/scene/gltf_io.ts",
      import.meta.url,
    )
      .then(({ gltfIO }) => gltfIO()),
    importOnUse<typeof import("./repair.ts")>("./repair.ts", import.meta.url),
    importOnUse<typeof import("./merge_images.ts")>("./merge_images.ts", import.meta.url),
    importOnUse<typeof import("./mesh_per_node.ts")>("./mesh_per_node.ts", import.meta.url),
    importOnUse<typeof import("./extras_numbers.ts")>("./extras_numbers.ts", import.meta.url),
    importOnUse<typeof import("./png_fallback.ts")>("./png_fallback.ts", import.meta.url),
    importOnUse<typeof import("./blender_drops.ts")>("./blender_drops.ts", import.meta.url),
    importOnUse<typeof import("./far_extent.ts")>("./far_extent.ts", import.meta.url),
    importOnUse<typeof import("./check/mod.ts")>("./check/mod.ts", import.meta.url),
  ]);
}

/** The binary chunk of a written GLB (a glTF JSON output embeds its buffer: none). */
function glbBinary(bytes: Uint8Array, format: string): Uint8Array | undefined {
  if (format !== "glb") return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const binAt = 20 + view.getUint32(12, true);
  if (binAt + 8 > bytes.byteLength) return undefined;
  return bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true));
}

/**
 * Throws a DecodeError naming the first error (Khronos code and JSON pointer) of the output, if any:
 * found by the fast check when it covers the file and `validate` is `auto`, else by the validator.
 * `written` is the JSON value the writer serialised, which the fast check reads rather than parse
 * the text again where it can; `sources` the arrays the GLB's accessors were written from, whose
 * passes (made for the repair and the writer's bounds) it reads rather than the binary chunk.
 */
async function refuseInvalid(
  bytes: Uint8Array,
  format: "glb" | "gltf",
  validate: string,
  written: unknown,
  sources: readonly (TypedArray | null)[] | undefined,
): Promise<void> {
  if (validate === "auto") {
    const { checkOutput } = await importOnUse<typeof import("./check/mod.ts")>(
      "./check/mod.ts",
      import.meta.url,
    );
    const verdict = checkOutput(bytes, format, written, sources);
    if (verdict.kind === "valid") return;
    if (verdict.kind === "invalid") {
      throw refusal(format, verdict.pointer, `${verdict.code}: ${verdict.message}`);
    }
  }
  // Loaded on first use: parsing the validator is half of the CLI's start-up, and most commands never export.
  const { khronosValidate } = await importOnUse<typeof import("./khronos.ts")>(
    "./khronos.ts",
    import.meta.url,
  );
  const report = await khronosValidate(bytes).catch((error: Error) => {
    throw refusal(format, "/", `the validator refused to read it: ${error.message}`);
  });
  const first = report.issues.find((issue) => issue.severity === 0);
  if (first) throw refusal(format, first.pointer ?? "/", `${first.code}: ${first.message}`);
  // The validator failing on its own cannot vouch for the file: refused, not written unchecked.
  if (report.faults.length > 0) {
    throw refusal(
      format,
      "/",
      `the validator failed on it (${report.faults[0]}), so it cannot be vouched for`,
    );
  }
}

function refusal(format: string, pointer: string, found: string): DecodeError {
  return new DecodeError({
    format: `${format} output`,
    at: { jsonPath: pointer },
    expected: "an output the Khronos glTF validator accepts",
    found,
  });
}

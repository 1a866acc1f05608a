/**
 * `decode.gltf` — glTF 2.0 (GLB or JSON with embedded resources) into a scene, with every extension
 * glTF-Transform supports registered, so materials, textures, animations, extensions and extras are
 * kept. The file is checked structurally first (container lengths, nesting depth, indices, counts
 * against buffer sizes, strides, types), and index values against vertex counts once decoded
 * (compressed and sparse ones too), so a damaged file is a {@link DecodeError} naming the byte offset
 * or JSON path, in time and memory linear in its size.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";

/**
 * The modules the run imports for every file, which a batch worker loads ahead of its first input
 * (`preloadWith`); those only some files need (compressed meshes, glTF 1.0 textures) stay loaded on use.
 */
const runModules = () =>
  Promise.all([
    importOnUse<typeof import("./codec/decode_run.ts")>("./codec/decode_run.ts", import.meta.url),
    importOnUse<typeof import("./codec/run_modules.ts")>("./codec/run_modules.ts", import.meta.url),
    importOnUse<typeof import("./codec/image_types.ts")>("./codec/image_types.ts", import.meta.url),
    importOnUse<typeof import("./codec/png_sizes.ts")>("./codec/png_sizes.ts", import.meta.url),
    importOnUse<typeof import("./codec/tangent_space.ts")>("./codec/tangent_space.ts", import.meta.url),
  ]);

/** `decode.gltf` node definition. */
export const decodeGltf = defineNode({
  type: "decode.gltf",
  // 21: a glTF 1.0 file's faults and repairs are named at its own paths and ids (before, the upgrade's
  // 2.0 indices). 22: a 1.0 blended material whose texture is uploaded as RGB draws without the image's
  // alpha, and a 1.0 skin no node uses is kept. 23: ASOBO_material_clear_coat becomes
  // KHR_materials_clearcoat (before, warned as unread). 24: a DDS holding more than any mip chain its
  // header describes is named as probably damaged, and an animation channel naming no path is left out
  // with a warning (before, the check crashed on it). 25: a 1.0 texture uploaded as LUMINANCE,
  // LUMINANCE_ALPHA or ALPHA draws as 1.0 draws it (grey of its red channel; black with its alpha),
  // and a texture format 1.0 does not define is named in a warning. 26: an MSFS packed skinned mesh
  // (BLEND4/BLEND1 vertices: half-float or one-float weights, byte colours) is read (before, refused).
  // 27: a Draco attribute id past 32 bits is refused (before, Draco wrapped it round to another id).
  // 28: MSFS emission by time of day becomes KHR_materials_variants 'day'/'night', and an OPAQUE
  // dithered material (ASOBO_material_alphamode_dither) is blended (before, both warned as unread).
  // 29: ASOBO_material_clear_coat_v2 becomes KHR_materials_clearcoat (before, warned as unread).
  // 30: ASOBO_material_detail_map's dropped layer is named per material (before, the file's extension).
  // 31: a 1.0 technique culling front faces is drawn double-sided (before, its front faces were drawn
  // and the back ones 1.0 drew culled); culling every face or blending additively is named.
  // 32: a sparse part without a byteOffset reads from its view's start (before, from the accessor's
  // byteOffset, as glTF-Transform spreads the accessor into it: wrong values, or a RangeError).
  // 33: a skin without its joints is refused at /skins/<i>/joints (before, glTF-Transform's TypeError).
  // 34: compressed data that does not decode is refused at its meshopt view or Draco primitive (before,
  // at /), and a primitive whose count does not fit its mode (TRIANGLES not a multiple of 3, LINES odd)
  // loses the leftover indices or vertices viewers do not draw, with a warning (before, kept silently).
  // 35: the file's asset.generator is kept as asset.extras.partgraph.sourceGenerator (before, glTF-Transform's
  // replaced it); names a tool respelt and kept the original of in extras.name (three.js's loader: `Flap.L` →
  // `FlapL`; partgraph's unique `Paint_1`) are restored; textures nothing samples (a Flight Simulator detail
  // layer's) are left out with a warning; a PNG a repair redraws whose data is not its header's size is named
  // (before, drawn sheared).
  // 36: vertices no primitive draws, lying outside the drawn ones (a stray point at the origin, NaN, 1e30),
  // are moved onto a drawn vertex with a warning (before, kept: they set the bounds, and the rig read them,
  // a far one guessing the frame wrong and every hinge with it, one at the origin bending a hinge line).
  // 37: a PNG texture whose header declares another size than its data holds (rows more or fewer, another
  // width, interlaced by mistake, data cut short) is named in a warning, its data inflated up to a 1024²
  // RGBA texture's (before, only when a repair redrew it).
  // 38: a material sampling TEXCOORD_n a primitive drawing it lacks is named (before, kept silently; kept
  // still); GODOT_single_root's warning says it carries no data and what dropping the mark costs in Godot;
  // a specular-glossiness material whose fallback draws metal where the extension draws a non-metal is given
  // the fallback made from the extension, as one without a fallback is (before, kept: three.js drew dark metal).
  // 39: names export.gltf (v17 on) cut to Blender's 63 bytes or wrote a NUL of as `_` are restored from
  // extras.name, and morph target names it cut or made unique from extras.partgraph.target_names (before,
  // both came back as written: `…SmileOpenWi`, `Blink_1`).
  // 40: a texture's PNG or JPEG fallback beside its EXT_texture_webp (or _avif, KHR_texture_basisu) image is kept, linked
  // to that image (runtime/scene/webp_fallback.ts), and export.gltf writes both (before, glTF-Transform read the WebP only:
  // the fallback was left out as a texture nothing draws, and the file came out WebP-only).
  // 41: KHR_techniques_webgl (COLLADA2GLTF's and gltf-pipeline's draft GLSL techniques) is read as three.js
  // reads it, required or not: the techniques left out, a material the technique alone drew given metal-rough
  // values from its diffuse and shininess (before, a file requiring it was refused, and one using it kept such
  // materials as glTF's default white metal); a textured material on a primitive with no UV set at all (a
  // game rip's) is named (before, only a missing TEXCOORD_1 or later); GODOT_single_root's note says where
  // the file itself breaks the mark's terms (a root with a transform, several roots or scenes).
  // 42: KHR_materials_common in a 2.0 file (FBX2glTF's --khr-materials-common, COLLADA2GLTF's --materialsCommon)
  // is read as the 1.0 upgrade reads it, required or not: a material without metal-rough values given them from its diffuse and shininess, a
  // constant one unlit (before, a file requiring it was refused, one using it drew such materials white metal).
  // 43: a data: URI's base64 in the URL-safe alphabet or percent-encoded, or marked `;Base64` in another
  // case, is read with a warning (before, refused; `;Base64` read as text: other bytes); a mesh with no
  // primitives is named; a texture whose declared type (its data: URI's, its mimeType) contradicts its
  // bytes takes the bytes' type, with a warning (before, kept: repairs reading textures by type passed it by).
  // 44: the note on a textured primitive without UVs says what export.gltf now does (UVs of (0, 0)).
  // 48: a skin export.gltf wrote under its armature's name (v32) gets its own name back from extras.name,
  // so decode → export is the identity on partgraph's output again.
  // 49: morph counts out of step are brought into step as viewers show them (codec/morph_counts.ts): weights
  // past a mesh's or node's targets left out, missing ones 0, primitives with fewer targets given ones moving
  // nothing, extras.targetNames fitted by index, a sparse part of count 0 read as no change (before: kept as
  // written, silently, and the export invalid; the sparse part refused); a weights animation keyed for
  // more or fewer targets than its mesh has is re-keyed as three.js reads it (before, kept: invalid export); a
  // texture's data: URI is not kept as its URI (before, export.gltf's PNG fallback beside a KTX2, WebP or AVIF
  // image read from a .gltf was declared of the image's type, and the export refused its own output); a primitive
  // drawing a clear coat normal map or anisotropy texture without a normal map or tangents is given tangents (before, the validator
  // refused the export: Blender writes such files).
  // 50: a renamed mesh's extras.mesh_name (export.gltf v42's copy of its original, for three.js) is removed
  // with the extras.name its name is restored from (before, it stayed: a round trip gained an extra).
  // 51: and a camera's extras.camera_name and a light's extras.light_name (export.gltf v43) likewise.
  // 52: an image export.gltf wrote as Blender's exporter keeps it (`wood.png` as `wood`, `cube.001` as
  // `cube_001`) gets its extras.name back, and a material's extras.image_names (export.gltf v46: an image
  // merged into one of the same bytes) gives that slot an image of its name again (before, both kept the
  // written names: held-out seeds 101-130, 95 of 193 image uses came back renamed -> 0).
  // 53: a name is restored from extras.original_name (export.gltf v47, where the extras hold a name of their
  // own, which stays) before extras.name (before, that other name was taken where it shared a cut name's bytes).
  // 54: extras.image_names restores material extensions' slots too (export.gltf v48: clearcoatTexture…),
  // each through its extension's own setter, its texture info (KHR_texture_transform) kept.
  // 56: a skin listing a node among its joints more than once gives each repeat a child of that node with no
  // transform of its own (its slot keeps its own inverse bind matrix, as three.js binds it), with a warning
  // at /skins/<i>/joints (before, glTF-Transform kept the node once, in its last slot: every slot between
  // shifted onto another bone, silently).
  // 57: a file with nodes but no scene (no `scenes`, or an empty list) is read with one scene of its root
  // nodes, with a warning at /scenes (before, the output had no scene either: three.js gave no `scene`).
  // 58: a node with a mesh that no scene reaches (a damaged parent's children, a part an exporter
  // unlinked) is named in a warning at /nodes: three.js does not draw it (before: silent).
  // 59: a key an object gives twice with other values, a scene root listed twice, sparse indices out of order,
  // POSITION bounds that do not match the vertices, an empty default scene beside one with nodes and a yfov of
  // π or more (degrees) are named (before, read silently); a JSON syntax fault is refused at its own byte
  // offset, line and column (before, often at the JSON's first byte).
  // 60: a node matrix written row by row (translation in the bottom row, none in the last column) is read transposed
  // (before, its bottom row was dropped: the part at the origin, turned back).
  // 61: an extension object extensionsUsed does not list is listed when partgraph reads it, else named (a misspelling?).
  // 62: a skinned node whose mesh has no JOINTS_0 and WEIGHTS_0 pair (a skin typed onto a static part or an
  // empty node, weights an optimizer stripped) loses its skin, and a mesh only some of whose primitives have
  // the pair gives the others to a child node, as three.js draws them, each named at /nodes/<i>/skin (before,
  // read silently, and a partly skinned mesh written still skinned: glTF refuses it, the validator misses it).
  // 63: node rotations that look written [w, x, y, z] (two or more read as nearly a half turn about X, and none
  // as nearly no turn, or two exactly [1, 0, 0, 0]) are named with the likely fix, read as written (before: silent).
  // 64: and a left or right part whose turn mirrors its twin's (`gear_L`, `gear_R`, placed mirror-wise) only when read w-first.
  // 65: codec/attribute_habits.ts (before, silent): normals against the winding of a closed mesh turned, or its triangles
  // reversed; an open mesh's named; NaN normals mended; tangent w of 0 from the UVs, of another size its sign; a UV set
  // written as −v under a clamping or mirroring sampler moved up by 1; a UV set mirrored against the first named
  // (not in an MSFS packed model: its own rules read it).
  // 66: w-first rotation keys, unit slips, zero scales, matrix rows (codec/transform_habits.ts, matrix_rows.ts).
  // 67: a UV set mirrored against the first is judged over the mesh's primitives together (a split mesh's few islands);
  // a NaN normal takes its sound copies' direction at its place, else its place's triangles' on its side, smoothed.
  // 68: a matrix at its parent's origin the file's other matrices do not settle (the file's only one, beside a single
  // row-by-row one, or with a small bottom-row term) is read the way that keeps it with its copies about their parent's
  // spin axis (codec/origin_matrices.ts), else named (before: read as written, silently — a lone blade turned back);
  // a small part in centimetres (3-30× the others' median: size alone does not show it) lying off the model where 1/100
  // puts it among them is read so scaled, one in place reaching far past them named; a subtree more than 30× off is
  // read scaled back once outside the others' box and a quarter of its size (before: a whole size: 41-55× gear doors
  // 10 m off were only named). KHR_mesh_quantization as quantizers and later tools leave it (codec/quantized_habits.ts,
  // quantized_notes.ts): its integer formats with the extension unlisted read with it listed, normals in shorts or bytes
  // without `normalized` read normalized, a byte-aligned stride (9) of bytes and shorts read as written (before, all
  // three refused); UVs in
  // a short's whole range without `normalized` read normalized; UVs whose texture transform, and positions whose node
  // scale, was lost named, those meshes left out of the unit judgment (before, silent, or misread as unit slips).
  // A mesh's only UV set whose islands nearly all face the other way from the file's other meshes' (three or more,
  // twice as many), with no mirror twin among them, is named as likely V-flipped, kept (codec/lone_uv_flips.ts;
  // before, silent).
  version: 68,
  doc: "Decodes glTF/GLB into a scene, keeping every material, texture, animation, extra and extension " +
    "glTF-Transform implements (one it does not is refused when required, a warning when only used; MSFT_lod's warning names each node and material linked to lower levels of detail, which the output keeps unlinked, outside every scene, not drawn); " +
    "messy content viewers accept or real writers made (JSON saved as UTF-16, a GLB JSON chunk padded with NUL bytes, null for an unset field, a rotation off unit length, node rotations that look written [w, x, y, z] (named with their paths, read as written), a node matrix that is not translation, rotation and scale (one written row by row is read transposed), a factor out of its range (a material extension's too; an emissive factor past 1 goes into the emissive strength), an unknown sampler enum, " +
    "malformed accessor bounds, a texture without an image, an extension used but not listed (any partgraph reads; one it does not is named, with the name it likely misspells), " +
    "a skin on a node whose mesh has no JOINTS_0 and WEIGHTS_0 pair (the skin left off the node) or has it on some of its primitives only (the others moved to a child node, drawn unskinned, as three.js draws them), " +
    "signed indices, sparse indices given twice or out of order, a key an object gives twice with other values (the last read, as three.js and Blender read it), a scene root listed twice (read once), an empty default scene beside one with nodes (named), a camera's yfov of π or more (named: degrees?), POSITION bounds that do not match the vertices (three.js culls by them; the output's are the vertices'), `normalized` on floats, joint slots past the skin weighted 0, skin joints and weights of other formats or fewer than four influences, a node a skin lists twice among its joints (the repeat's slot given a child of that node with no transform of its own, as three.js binds it), UVW texture coordinates, an index view's stride, a vertex view of bytes or shorts whose stride is not a multiple of 4 (a quantizer's byte-aligned interleaving), KHR_mesh_quantization's integer formats with the extension unlisted (listed), normals in integers without normalized (read normalized), texture coordinates in a short's or byte's whole range without normalized and no texture transform (read normalized; below it, named), integer positions no node scales back (named), an enum in another case or one glTF does not define, an index count not a multiple of 3 in TRIANGLES (2 in LINES): the leftover viewers do not draw is left out, vertices no primitive draws lying outside the drawn ones (a stray point at the origin, NaN, 1e30): moved onto a drawn vertex) " +
    "is repaired with a warning naming its JSON path, as are morph counts out of step (weights longer or shorter than a mesh's or node's targets, or without targets; primitives of one mesh with different target counts, given targets moving nothing; extras.targetNames longer or shorter, fitted by index as Blender reads them; a sparse part of count 0, read as no change; a weights animation keyed for more or fewer targets, each key cut or filled with 0 as three.js reads it; a primitive drawing a clear coat normal map or anisotropy texture, with no normal map and no tangents, given tangents from its normals and UVs), and so is a data: URI's base64 in the URL-safe alphabet, percent-encoded, marked ;Base64 in another case or with spaces where a URL form decoder turned '+' into them, a texture whose declared type contradicts its bytes (read as the bytes' type), and a mesh with no primitives (named); " +
    "Targa, BMP, DDS and block-compressed (not Basis) KTX2 textures (which glTF does not carry; DDS and KTX2 by MSFT_texture_dds too) are stored as PNG; a specular-glossiness material without a metal-rough fallback, or with one drawing metal where the extension draws a non-metal, is given one made from the extension, for viewers that no longer read the extension; a material sampling a UV set a primitive drawing it lacks (Blender's texCoord 1 on a mesh with one UV map, a game rip's textured draw call without UVs) is named, as viewers disagree on it; a texture reference whose KHR_texture_transform samples a UV set its primitives have while its own texCoord (the fallback for viewers without the extension) names one they lack is given the extension's set, named; " +
    "KHR_techniques_webgl (COLLADA2GLTF's and gltf-pipeline's draft GLSL techniques) is read as three.js reads it, required or not: the techniques left out, a material the technique alone drew given metal-rough values from its diffuse and shininess; KHR_materials_common in a 2.0 file (FBX2glTF's and COLLADA2GLTF's draft) is read as the 1.0 upgrade reads it (a material without metal-rough values given them, a constant one unlit). " +
    "Microsoft Flight Simulator models are read as the sim reads them (half-float UVs and colours and byte normals, each primitive's range of a shared index list, triangles turned to face along their normals, invisible materials left out, UV tiling as KHR_texture_transform, decals, glass and dithered materials blended, clear coat (v1 and v2) as KHR_materials_clearcoat, emission by time of day as KHR_materials_variants 'day' and 'night', skinned meshes' half-float or single weights and byte colours, DirectX normal maps' green inverted). Draco- and meshopt-compressed (EXT_ or KHR_) meshes are decoded. The file is checked structurally first, " +
    "and index values against vertex counts once decoded (sparse and compressed ones too). " +
    "The file's asset.generator is kept as asset.extras.partgraph.sourceGenerator (partgraph's own outputs keep the record they carry); " +
    "a name a tool respelt and kept the original of in extras.name (three.js's `FlapL` for `Flap.L`, a repeat's `_<n>`, a name cut to Blender's 63 bytes, an image name written as Blender's exporter keeps it) is restored, and so is an image export.gltf merged into one of the same bytes (a material's extras.image_names), as are morph target names export.gltf cut or made unique (from extras.partgraph.target_names); " +
    "a WebP, AVIF or KTX2 texture's PNG or JPEG fallback (the extension's image beside a core source) is kept, so a written file keeps both; " +
    "textures nothing samples (a Flight Simulator detail layer's, an orphan) are left out with a warning; " +
    "a file with nodes but no scene (no `scenes`, an empty list) is read with one scene of its root nodes, and a node " +
    "with a mesh that no scene reaches is named in a warning (three.js does not draw it); " +
    "a PNG texture whose header declares another size than its data holds, or whose data is cut short, is " +
    "named in a warning (a header of up to a 1024² RGBA texture checked whole; a larger one when its data is small). " +
    "Normals facing against their triangles' winding on a closed mesh are turned out (or its triangles reversed, where the normals point out), on an open mesh named; NaN or zero normals take their triangles' direction; a tangent sign (w) of 0 or NaN takes the handedness of its UVs, one of another size its sign; a UV set written as −v (V in [−1, 0]) under a sampler clamping or mirroring V is moved up by 1, and a UV set mirrored against the first is named, as is a mesh's only set whose islands face the other way from the file's other meshes' (no mirror twin among them).  Rotation keys written [w, x, y, z] are read reordered where a key is the node's own rotation only when so read (named as likely where the keys only come nearer it so); a subtree in millimetres or centimetres lying off a model in metres is read scaled back by 1000 or 100, a small part (3-30× the others, so not shown by size) too where 1/100 puts it among them (one in place, or in metres inside a model in millimetres, is named); a node scaled to 0 on an axis is named (nothing can be turned in its frame); a matrix at its parent's origin is read as the file's other matrices are (written row by row, or with a perspective term left out), or, where they do not settle it, as keeps it with its copies about their parent's spin axis (else named). " +
    "glTF 1.0 (JSON, or binary: GLB version 1) is upgraded to 2.0 first, as gltf-pipeline upgrades it (GLSL techniques and KHR_materials_common as metal-rough materials, several meshes on a node as child nodes, a skin's bind shape matrix folded into its inverse bind matrices, a skin no node uses kept), so every check and repair applies to it, and what they find is named at the 1.0 file's own paths and ids; a texture 1.0 uploads as RGB, LUMINANCE, LUMINANCE_ALPHA or ALPHA, and a technique culling front faces, are drawn as 1.0 draws them.",
  inputs: {
    bytes: { type: "bytes", doc: "A .glb, or .gltf with its resources embedded (io.read embeds them)." },
  },
  outputs: { scene: { type: "scene", doc: "The decoded scene." } },
  params: {},
  run: preloadWith(async ({ inputs, ctx }) => {
    // Loaded on the first run, not at the top: declaring the node loads neither glTF-Transform nor the checks.
    const { decodeGltfScene } = await importOnUse<typeof import("./codec/decode_run.ts")>(
      "./codec/decode_run.ts",
      import.meta.url,
    );
    return { scene: await decodeGltfScene(inputs.bytes, ctx) };
  }, runModules),
});

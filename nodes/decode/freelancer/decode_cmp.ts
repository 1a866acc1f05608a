/**
 * `decode.cmp` — a Freelancer compound model (`.cmp`), rigid part (`.3db`), mesh library (`.vms`)
 * or planet/sun (`.sph`, a generated sphere with its side materials and atmosphere shell) to a scene: every part a root-level node with its LOD 0 mesh (other LODs and the wireframe kept
 * off-node, or as `$lodN` / `.vmeshwire` children with `lods: "all"`), hardpoints, LancerEdit-style
 * names and extras, materials as glTF PBR with PNG textures, and the raw `Cons` records kept in
 * `extras.partgraph.constraints` for `constraints.resolve`. Meshes, materials and textures the file
 * lacks are found in the game's libraries (see `library/search.ts`) and the scene says which library
 * supplied each (`extras.partgraph.libraries`).
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode, type JsonValue } from "../../../runtime/node.ts";

/** Checks the `libraries` parameter: `"auto"`, `"none"` or a list of paths. */
function checkLibraries(value: JsonValue): string | undefined {
  if (value === "auto" || value === "none") return undefined;
  return Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")
    ? undefined
    : 'expected "auto", "none" or a list of library paths';
}

/** `decode.cmp` node definition. */
export const decodeCmp = defineNode({
  type: "decode.cmp",
  // 14: `.sph` planets and suns decode (before, refused as "not a model"). 15: textures whose every
  // alpha is 255 are RGB PNGs (before, RGBA). 16: a material MaterialAnim animates keeps the animation in
  // its extras, with a warning (before, silent). 17: a .sph atmosphere whose shell would be past a
  // 32-bit float is left out with a warning (before, invalid positions). 18: a VMeshData with bytes after
  // its vertex buffer (a wrong FVF or count), a mesh type other than 1, and a VMeshRef whose ranges
  // disagree with its groups are warnings (before, silent). 19: a MultiLevel level or a VMeshPart
  // without its VMeshRef is a warning saying what the part keeps (before, silent). 20: a DDS holding
  // more than any mip chain its header describes (a damaged size or format) is a warning. 21: a hardpoint
  // Orientation that is scaled, mirrored, sheared or degenerate (a hand edit) is a warning, keeps its
  // scale and takes its nearest rotation (before, the quaternion of a non-rotation, silently). 22: MultiLevel
  // levels are found by the number after 'level' as Librelancer reads them (a tool's Level00/Level01 were
  // a part with no mesh), a non-standard level name or a second level of one number is a warning. 23: a
  // material sampling a UV set its mesh lacks (flag 0x10 on a one-set mesh) is named (before, silent here).
  // 24: Cmpnd entries named Root… or Part… other than Root and Part_<name> (mod tools' Root_0, PartGun)
  // are parts, with a warning, as treewyrm/freelancer reads them (before, dropped).
  // 25: a revolute hardpoint's Axis not of unit length or of none, and Min > Max, are named with the
  // hardpoint and byte (before, kept silently; reversed limits are now read as the range between them).
  // 26: a mesh whose vertex diffuse colours are all black or all of alpha 0 (a converter's "no colour")
  // is named: the game multiplies the material colour by them as glTF viewers do (before, silent).
  // 27: mod-tool habits read instead of refused (measured with tests/nodes/decode/freelancer/mod_tools.ts):
  // a group vertex end one past the mesh (an exclusive end) or below its start (never filled in) is
  // taken from the group's indices, and an index count not divisible by 3 draws its whole triangles,
  // each with a warning (before, the mesh did not decode); a MultiLevel without Level0 draws its lowest
  // level (the MilkShape/3ds Max CMP exporter's lone Level1; before, no mesh); a File name matching a
  // fragment only with the other path separator finds it (before, the part was dropped); a damaged
  // Switch2 (a directory, a NaN, a cut float) costs switch_distances, not the model (before, a
  // DecodeError); a turret's reversed Min/Max that negate another turret's limits (a mirrored copy)
  // are read swapped without a warning.
  // 28: a fragment with several Hardpoints directories (a hardpoint editor's own beside the exporter's)
  // has the hardpoints of all, as Librelancer reads them, with a warning (before, the second's were
  // lost without a word).
  // 29: damage to one VMeshRef, the wireframe or the camera costs that item with a warning (a LOD and
  // the later ones, the wireframe, the camera), as damage to a mesh costs its geometry (before, a
  // 56-byte VMeshRef on LOD 1 or a wireframe with a stray index refused the whole model).
  // 30: triangles through a vertex position that is not finite (a converter's NaN) are left out, as the
  // game draws none there, and UVs that are not finite become 0, with a warning naming the mesh (before,
  // passed on: export.gltf put them at 0, drawing a spike to the origin).
  // 31: the wireframe's lines through a vertex position that is not finite are left out the same way.
  // 32: a texture name matching a library entry only with the other path separator or a leading '.\'
  // (the game keys textures by the name folded to lower case only, so it draws the material untextured,
  // as before) names that entry in its warning, here and in the library search; an entry name near one
  // the game reads (`VMeshPart ` with a trailing space, `VMeshLib`, one letter off) is named with the
  // entry it probably meant, and still not read (before, both silent).
  // 33: a File name matching no fragment but one spelt alike (a leading '.\', spaces around it) names that
  // fragment in its "part dropped" warning.
  // 34: a fragment with several mesh references (two VMeshRef leaves, a VMeshPart beside a MultiLevel,
  // two MultiLevels) names the part and both (before, the first was drawn silently; Librelancer refuses
  // such a part). The library search reads the rest of the folder that supplied the last missing id, so
  // two libraries side by side defining one id are named (before, the second was never read); a texture
  // spelt alike in a library searched is named once, in the decode's warning (before, twice).
  // 35: two libraries defining one material name it by its name (before, by its id alone).
  // 36: a Cyl record is named only when its stored turn cannot be angles (beyond a full turn), with its
  // part, and is then read slide first if that turn can be (before, every file with a Cyl had one
  // unnamed "disputed" warning); bytes after meshes' vertex buffers that no stride explains are one
  // warning per file counting meshes and bytes (before, one per mesh).
  // 37: turn limits beyond a full turn (a turret hardpoint's Min/Max, a Rev or Sphere record's limits:
  // degrees typed where the format stores radians) are named with the hardpoint or part, kept as the
  // game reads them (before, silent).
  // 38: mesh_id and material_id in extras are `0x` + eight hex digits (text), as LancerEdit names ids:
  // half of all FLCRC32 ids are above 2³¹−1 and Blender, storing custom properties as int32, turned the
  // whole partgraph property of such a mesh or material into one string (before, numbers).
  // 39: the limit order of a file's Cyl records is decided over all of them and kept as `limit_order`:
  // a pair of whole degrees is the turn (a modelling tool's), a record told by a pair past a full turn
  // orders the others, and a record nothing tells is named with both readings (before, a slide-first
  // record within a full turn was read turn first without a word; tests/.../mod_tools_wave5.ts).
  // 40: a MultiLevel's Switch2 is read as the game draws it (the first level whose [s[i], s[i+1]) holds the
  // camera distance): a part whose list gives LOD 0 no distance (0, 0, …) is drawn with the level the game
  // draws nearest (LOD 0 kept as $lod0), and levels no distance draws (an unsorted or short list) are
  // named; a Level holding more than its VMeshPart (Librelancer skips it) is named (before, all silent).
  // 41: a duplicate Object name says what its entry costs: its fragment (mesh, hardpoints) not drawn, or
  // nothing when it names the first's fragment (before, "the first one is used" either way).
  // 42: a part whose Switch2 gives LOD 0 no distance draws LOD 0 on its node after all, with `near_lod` in
  // its extras and the warning saying the game draws that level: LancerEdit shows and exports LOD 0 as the
  // part whatever Switch2 says, and its importer read v40's `<part>$lod0` child as a second part of the
  // same name and lost the LOD on the node (lods_test: 5 of 35 files broken on re-import -> 0).
  // 43: parts whose Switch2 lists make the game draw the same (a capital ship with a denormal in every
  // list: LOD 1 never drawn) are one warning naming them, not one per part (46-65 on such a ship).
  // 44: a mesh in no loaded library is one warning naming the part LODs that draw from it (before, one per
  // reference naming none: 50-53 on a capital ship without its lowest LOD's .vms); a mesh's extra UV sets
  // are named once a mesh (before, once a reference: 141-156 on such a ship).
  // 45: turret hardpoints whose limits are beyond a full turn (typed in degrees) are one warning naming
  // them when several (before, one each: 12-32 on a capital ship whose hardpoint editor took degrees).
  // 46: a UTF entry name with no NUL before the dictionary's end (a damaged name offset or dictionary) is
  // refused at the entry's name field (before, read cut at the end, silently another name: 'HpMount01' as
  // 'Z'); a name whose NUL lies in the dictionary's padding past its used size is read as Freelancer reads it.
  // 47: a mesh id in several VMeshLibrary copies (a tool that merged .3db files leaves the library in every
  // fragment) is warned only when a copy's bytes differ, naming the copy used and the one passed over (held-out
  // seeds 9001-9060 of mod_tools_wave6.ts fragment_libraries, shared and unshared payloads: 120/120 files warned
  // for identical copies, 442 warnings -> 0; a changed copy still warned, 58/58).
  // 49: a warning about a shared thing names what uses it: a material in no library names the parts and
  // LODs drawing it (first four, "and N more parts", its group count), the libraries looked in and the
  // placeholder (plain white, grey where lit); a damaged material and every material caveat name their
  // parts; a texture that is missing, undecodable or not an image names the materials naming it (in any
  // case) with their parts; a mesh's extra UV sets name its parts; a mesh in no library names the
  // libraries looked in; the search's "defined by A and B" names the parts drawing those ids ("and N
  // more" for the ids past five, as elsewhere); a hardpoint's warnings name the part holding it (before, the material id, texture
  // or hardpoint name alone: the studio could not tell which part of the ship would be grey). Held-out
  // seeds 601-640 of tests/.../shared_users.ts: warnings naming the parts 0/80 materials, 0/80 textures,
  // 0/40 hardpoints -> all; output bytes unchanged.
  // 50: a library mesh's warnings given while it is read (a duplicate whose bytes differ, a mesh type
  // other than 1, bytes after its vertex buffer) name the parts and LODs drawing it ("drawn on …"; held
  // until the parts are read, in their order); a texture in no library names the libraries looked in; a
  // material sampling a UV set its mesh lacks names the mesh and its parts and LODs (before, 'Root.0').
  // 51: the warnings that still named no part, or only the first mesh, name what a modder should look
  // at: a file's padding warning (bytes after meshes' vertex buffers no stride explains, one per file, a
  // library .vms's too) ends with the parts and LODs drawing those meshes; a damaged copy passed over for a
  // readable one names the parts drawing that mesh; a material sampling a UV set its meshes lack names
  // every such mesh (first four, "and N more meshes"), each with its parts, after the parts are built
  // (before, the first mesh alone). Held-out seeds 1001-1040 of tests/.../partless_warnings.ts: padding
  // 0/38 and passed-over copies 0/40 naming a part, UV warnings naming every mesh 1/40 -> all; output
  // bytes unchanged. A compound fragment's warnings begin with the part ("part 'engine': ship_lod1….3db/
  // MultiLevel has no Level1: …"; retail's exporter names fragments by digits, and "the part" named none),
  // and a mesh's misspelt VMeshData names the parts drawing it (held-out seeds 1101-1140 of
  // tests/.../fragment_parts.ts: 12/172 fragment warnings and 0/40 misspelt meshes naming the part -> all).
  // UV sets that a normal-mapped material would read as tangents but are not name the mesh, its parts and
  // the material (before, a primitive label: 'Root.2'). A library the search cannot read (a .mat cut
  // short) is told after the search with what no library read defines and the parts drawing it ("it may
  // have held them"), or that everything was found (held-out seeds 1201-1220 of shared_users.ts beside a
  // .mat cut short, with and without an intact copy: 0/40 naming a part -> 40/40).
  // 52: bytes after a mesh's vertex buffer are said to fit longer vertices only when a real FVF has that
  // stride (a multiple of 4); a tool's padding to 16 bytes (1-3 bytes a vertex: "34-byte vertices would
  // fill it exactly") is padding, told in the file's one padding warning (held-out seeds 1501-1540 of
  // partless_warnings.ts: 214 notes naming a stride no FVF has -> 0, padded-mesh counts right 3/40 -> 40/40).
  // A Cmpnd entry named otherwise than Root/Part_<name> begins with its part's Object name; a warning
  // about a library folder inside a fragment (VMeshLibary) begins with the parts whose fragment it is; a
  // damaged MaterialAnim entry names the parts and LODs drawing its material (held-out seeds 1601-1640
  // of fragment_parts.ts: 0/40 each naming the part -> 40/40; the anim's in 38, "no part" in the 2 whose
  // only exhaust mesh is unread).
  version: 52,
  doc:
    "Decodes a Freelancer .cmp, .3db, .vms or .sph (UTF container) into a scene: one root-level node per " +
    "part (LODs, wireframe, hardpoints, camera; a planet's generated sphere with its atmosphere shell), " +
    "PBR materials with PNG textures, and the raw Cons " +
    "constraint records and animation scripts for constraints.resolve. Meshes, materials and textures are looked up in the " +
    "file, then in the optional library inputs, then (libraries: auto) in the libraries the game's " +
    "archetype inis name for the model, the .mat/.txm/.vms files in its folder and its ancestors " +
    "up to the DATA folder (nearest first), and the rest of that tree; the scene records which " +
    "library supplied each. Material types go through the game's [MaterialMap] (material_map: " +
    "EXE/dacom.ini beside the DATA folder when there, else retail's), as the game draws them.",
  inputs: {
    bytes: { type: "bytes", doc: "The .cmp, .3db, .vms or .sph file." },
    library: {
      type: "bytes",
      optional: true,
      doc: "An extra UTF library (.vms, .mat or .txm) whose meshes, materials and textures are merged in.",
    },
    materials: {
      type: "bytes",
      optional: true,
      doc: "A second extra library, usually the ship family's .mat (any UTF library is accepted).",
    },
  },
  outputs: { scene: { type: "scene", doc: "The parts as root-level nodes, with raw constraint records." } },
  params: {
    libraries: {
      type: "json",
      default: "auto",
      doc: '"auto": find what the file and inputs lack (the libraries the archetype inis name for the ' +
        "model, the .mat/.txm/.vms in its folder and ancestors up to data_root or the nearest DATA, then " +
        'the rest of that tree); "none": only the file and inputs; or a list of library paths ' +
        "(relative to data_root when set) tried in order.",
      schema: { oneOf: [{ enum: ["auto", "none"] }, { type: "array", items: { type: "string" } }] },
      check: checkLibraries,
    },
    model_path: {
      type: "path",
      access: "read",
      default: "",
      doc: "Path of the model file, where library search starts (the bytes input has only a file name).",
    },
    data_root: {
      type: "path",
      access: "read",
      default: "",
      doc: "The game's DATA folder: the top of the library search (nothing outside it is read but " +
        "../EXE/dacom.ini, the game's [MaterialMap]) and the root of the paths archetype inis name; " +
        "empty: the nearest ancestor folder named DATA.",
    },
    material_map: {
      type: "enum",
      values: ["auto", "retail", "none"],
      default: "auto",
      doc: "The [MaterialMap] that rewrites material types by name and type, as the game does " +
        "(name = ^tlr_material$ = NebulaTwo draws the trade lanes additive). auto: the install's " +
        "EXE/dacom.ini beside the data folder when the search has one (libraries not none), else " +
        "retail's built-in table; retail: the built-in table, for a mod whose dacom.ini should not " +
        "count; none: every material drawn by its stored Type.",
    },
    lods: {
      type: "enum",
      values: ["first", "all"],
      default: "first",
      doc: "first: parts draw LOD 0; other LODs and wireframes stay in the file on no node (viewers " +
        "draw one LOD, no outline). all: LancerEdit's $lodN / .vmeshwire child nodes (all drawn).",
    },
  },
  // No fingerprint: every file the library search lists or reads (or fails to read) is recorded
  // with the result, so a library that is edited, added or removed re-runs the decode and what
  // depends on it.
  run: lazyRun(new URL("./decode_cmp_run.ts", import.meta.url)),
});

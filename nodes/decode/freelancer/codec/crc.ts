/**
 * FLCRC32, the hash Freelancer models use for mesh, material, part and hardpoint ids.
 *
 * It is a reflected CRC-32 (poly 0xEDB88320, init and final NOT) whose table was generated with an
 * arithmetic right shift, so the table's top byte differs from the standard CRC-32 table; names are
 * ASCII-lower-cased before hashing.
 *
 * @module
 */

/** The signed-shift CRC table Freelancer's dacom.dll uses. */
const TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    // `>>` (not `>>>`) on purpose: the original generator shifted a signed int and spread the sign bit.
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320 : c >> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/**
 * FLCRC32 of a name: bytes as Latin-1/ASCII, `A`–`Z` folded to lower case, no terminator hashed.
 *
 * @example
 * ```ts
 * flCrc32("default"); // 0x1077C687
 * ```
 */
export function flCrc32(name: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < name.length; i++) {
    let b = name.charCodeAt(i) & 0xff;
    if (b >= 0x41 && b <= 0x5a) b += 0x20;
    crc = (crc >>> 8) ^ TABLE[(crc ^ b) & 0xff];
  }
  return ~crc >>> 0;
}

/**
 * Formats an id the way LancerEdit names placeholders: `0x` and eight upper-case hex digits. This is
 * also how ids are written in extras (`mesh_id`, `material_id`): half of all FLCRC32 values are above
 * 2³¹−1, and a client that stores custom properties as int32 (Blender) turns the whole `partgraph`
 * object holding such a number into one text property.
 */
export function formatId(id: number): string {
  return "0x" + (id >>> 0).toString(16).toUpperCase().padStart(8, "0");
}

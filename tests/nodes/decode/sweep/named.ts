/**
 * What a warning must say for a once-silent sweep case to count as told: the field or entry at fault,
 * not just any warning. The Freelancer seed always warns (its parts have no constraints), and a glTF 1.0
 * seed always says it was upgraded, so "some warning" passes with the fix that made the case warn undone.
 *
 * @module
 */
import type { Case } from "./cases.ts";

/** A whole number `v` in `line`, not part of a longer one (`0` is not found in `1024 × 1024`). */
const hasNumber = (line: string, v: string) => new RegExp(`(^|[^0-9])${v}([^0-9]|$)`).test(line);

/** A line naming an image or texture: `image 'paint'`, `image #0`, `texture 'Airplane'`. */
const namesImage = (line: string) => /\b(image|texture) ('[^']*'|#\d+)/.test(line);

/**
 * A texture nothing draws is left out whole, naming it (`dds.glb`'s PNG, replaced by its DDS): its
 * header is read by no one, so no word about it is owed beyond that.
 */
const leftOutUndrawn = (line: string) => / texture(s)? nothing draws \(/.test(line);

/**
 * The test a warning line must pass for case `c` (a once-silent field or emptied entry), and what it
 * is expected to name (for the failure message); undefined for any other case.
 */
export function faultNaming(c: Case): { expected: string; names: (line: string) => boolean } | undefined {
  const v = c.value;
  const field = /(FVF|mesh type|index start|index count|vertex count|first child)$/.exec(c.field)?.[1];
  const entry = /^entry '(Level\d+|VMeshPart)' @\d+ first child$/.exec(c.field)?.[1];
  if (entry && v === "0") {
    // The directory emptied and what the part has no more.
    return { expected: `${entry} ... has no`, names: (l) => l.includes(entry) && l.includes(" has no ") };
  }
  if (/^'VMeshData' @\d+ mesh type$/.test(c.field)) {
    return { expected: `mesh type ${v} at byte`, names: (l) => l.includes(`mesh type ${v} at byte`) };
  }
  if (/^'VMeshData' @\d+ FVF$/.test(c.field)) {
    // Bytes after the vertex buffer naming this FVF, or the mesh refused (its leaf named).
    const hex = `FVF 0x${Number(v).toString(16)}`;
    return {
      expected: `/VMeshData ... ${hex} or does not decode`,
      names: (l) => l.includes("/VMeshData") && (l.includes(hex) || l.includes(" does not decode (at byte ")),
    };
  }
  if (/^'VMeshRef' @\d+ (index start|index count|vertex count)$/.test(c.field)) {
    return {
      expected: `VMeshRef at byte ... ${field} ${v} (`,
      names: (l) => l.includes("VMeshRef at byte") && l.includes(`${field} ${v} (`),
    };
  }
  const image = /(PNG|JPEG) (IHDR length|IHDR CRC|width|height|colour type|interlace|components)$/.exec(
    c.field,
  );
  if (!image) return undefined;
  const [, format, what] = image;
  // The phrase that says which part of the header is at fault.
  const said: Record<string, (l: string) => boolean> = {
    "IHDR length": (l) => l.includes("IHDR"),
    "IHDR CRC": (l) => l.includes("checksum"),
    "colour type": (l) => l.includes(`colour type ${v}`),
    interlace: (l) => l.includes("interlaced"),
    components: (l) => l.includes(`${v} components`),
    width: (l) => hasNumber(l, v),
    height: (l) => hasNumber(l, v),
  };
  return {
    expected: `image or texture named, ${format} ${what} (${v})`,
    names: (l) => leftOutUndrawn(l) || (namesImage(l) && l.includes(format) && said[what](l)),
  };
}

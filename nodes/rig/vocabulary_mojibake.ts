/**
 * Names whose UTF-8 bytes an exporter read as Latin-1 or Windows-1252, read again as written, before the
 * vocabulary splits them into words (`vocabulary.ts`).
 *
 * @module
 */
/** Windows-1252's letters for the bytes 0x80–0x9F (others of that range read as the byte itself). */
const CP1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";
/** A UTF-8 lead byte read as Latin-1 or Windows-1252 (`Ã`, `Å`), followed by a continuation byte. */
const MOJIBAKE =
  /[\u00c2-\u00df][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u2122]/u;

/**
 * A name whose UTF-8 bytes an exporter read as Latin-1 or Windows-1252 (`alerÃ³n`, `kÅ™idÃ©lko`), read
 * again as UTF-8 (`alerón`, `křidélko`); any other name as it is. Only a name whose every letter is a
 * byte and whose bytes are valid UTF-8 is read again, so `Ã` in a real Portuguese name stays.
 */
export function unmangled(name: string): string {
  if (!MOJIBAKE.test(name)) return name;
  const bytes: number[] = [];
  for (const ch of name) {
    const code = ch.codePointAt(0)!;
    const high = CP1252.indexOf(ch);
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else if (high >= 0) bytes.push(0x80 + high);
    else return name;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return name;
  }
}

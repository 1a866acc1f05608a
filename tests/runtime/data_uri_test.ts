/**
 * `data:` URIs as web tools and hand edits write them, read by the one reader the runtime (the cache's
 * `.gltf` reading) and `decode.gltf` share: before, the runtime's read `;Base64` as percent-encoded
 * text (other bytes, silently) and threw a bare `SyntaxError` on URL-safe or percent-encoded base64.
 */
import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { dataUri, decodeDataUri } from "../../runtime/scene/data_uri.ts";

/** Bytes whose base64 holds `+` and `/` (so the URL-safe alphabet differs), and their standard URI. */
const bytes = Uint8Array.from({ length: 96 }, (_, i) => (i * 67 + 251) % 256);
const standard = bytes.toBase64();

Deno.test("data: URIs: the runtime's writer and reader agree, and a plain URI has no notes", () => {
  assertEquals(decodeDataUri(dataUri("application/octet-stream", bytes)), { bytes, notes: [] });
  assertEquals(decodeDataUri("data:text/plain,a%20b").bytes, new TextEncoder().encode("a b"));
});

Deno.test("data: URIs: ;Base64 in any case, line breaks, URL-safe and percent-encoded payloads read as meant", () => {
  assertEquals(
    standard.includes("+") && standard.includes("/"),
    true,
    "the fixture exercises both alphabets",
  );
  const read = (uri: string) => decodeDataUri(uri);
  assertEquals(read(`data:application/octet-stream;Base64,${standard}`), { bytes, notes: [] });
  assertEquals(read(`data:;BASE64,${standard.replace(/(.{64})/g, "$1\r\n")}`).bytes, bytes);
  const urlSafe = read(
    `data:;base64,${standard.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`,
  );
  assertEquals([urlSafe.bytes, urlSafe.notes.length], [bytes, 1]);
  const percent = read(`data:;base64,${encodeURIComponent(standard)}`);
  assertEquals([percent.bytes, percent.notes.length], [bytes, 1]);
});

Deno.test("data: URIs: an unreadable payload is a TypeError saying what was found", () => {
  assertThrows(() => decodeDataUri("data:;base64,ab+-cd__"), /mixing the standard/);
  assertThrows(() => decodeDataUri("data:;base64,@@@@"), /undecodable base64/);
  assertThrows(() => decodeDataUri("data:application/octet-stream;base64"), /no comma/);
});

Deno.test("data: URIs: spaces a URL form decoder left for '+' are read as '+', named; a wrap of spaces is not", () => {
  const formDecoded = standard.replaceAll("+", " ");
  const read = decodeDataUri(`data:application/octet-stream;base64,${formDecoded}`);
  assertEquals([read.bytes, read.notes.length], [bytes, 1]);
  // A '+' first and last: the spaces at the payload's ends are the form decoder's too.
  const edges = Uint8Array.fromBase64("+//+AQID+vv8Pj+=".replace("+=", "8="));
  const edgeText = edges.toBase64();
  assertEquals(edgeText.startsWith("+"), true);
  assertEquals(decodeDataUri(`data:;base64,${edgeText.replaceAll("+", " ")}`).bytes, edges);
  // Spaces as a wrap (runs of one width), in a payload without '+': whitespace, read silently.
  const plain = Uint8Array.from({ length: 90 }, (_, i) => i % 60);
  const text = plain.toBase64();
  assertEquals(text.includes("+"), false, "the fixture has no '+'");
  const wrapped = decodeDataUri(`data:;base64, ${text.match(/.{1,40}/g)!.join(" ")}`);
  assertEquals(wrapped, { bytes: plain, notes: [] });
});

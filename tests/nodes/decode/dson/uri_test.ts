import assert from "node:assert/strict";
import { fileKey, parseDsonUri } from "../../../../nodes/decode/dson/codec/uri.ts";

Deno.test("dson uri: every part of the grammar, percent-decoded separately", () => {
  assert.deepEqual(parseDsonUri("Genesis9:/data/Daz%203D/Genesis%209/G9.dsf#hip%2D1?rotation/x/value"), {
    scheme: "id",
    nodePath: "Genesis9",
    filePath: "/data/Daz 3D/Genesis 9/G9.dsf",
    id: "hip-1",
    propertyPath: "rotation/x/value",
  });
  assert.deepEqual(parseDsonUri("#default"), {
    scheme: "id",
    nodePath: "",
    filePath: "",
    id: "default",
    propertyPath: "",
  });
  assert.deepEqual(parseDsonUri("name://@selection/l_hand_anchor:?translation/x/value"), {
    scheme: "name",
    nodePath: "@selection/l_hand_anchor",
    filePath: "",
    id: "",
    propertyPath: "translation/x/value",
  });
  assert.deepEqual(parseDsonUri("/data/a.dsf"), {
    scheme: "id",
    nodePath: "",
    filePath: "/data/a.dsf",
    id: "",
    propertyPath: "",
  });
});

Deno.test("dson uri: an encoded '#' or '?' stays inside its part; a Windows drive colon is not a node path", () => {
  const uri = parseDsonUri("/data/a%23b%3Fc.dsf#x%3Fy");
  assert.equal(uri.filePath, "/data/a#b?c.dsf");
  assert.equal(uri.id, "x?y");
  const windows = parseDsonUri("/C%3A/GitHub/x.duf#scene");
  assert.equal(windows.nodePath, "");
  assert.equal(windows.filePath, "/C:/GitHub/x.duf");
});

Deno.test("dson uri: malformed escapes are kept as written", () => {
  assert.equal(parseDsonUri("/data/100%.dsf#a%zz").filePath, "/data/100%.dsf");
  assert.equal(parseDsonUri("/data/100%.dsf#a%zz").id, "a%zz");
});

Deno.test("dson uri: file keys compare case-insensitively and ignore the leading slash and backslashes", () => {
  assert.equal(fileKey("/data/DAZ 3D/Genesis9.DSF"), fileKey("data\\daz 3d\\genesis9.dsf"));
  assert.notEqual(fileKey("/data/a.dsf"), fileKey("/data/b.dsf"));
});

Deno.test("dson uri: a folder's raw '#' (a third-party writer's; Daz writes %23) stays in the path", () => {
  const uri = parseDsonUri("F:/data/Fancy #1 Studio/Top #2/Top.dsf#Top_geo?value");
  assert.equal(uri.filePath, "/data/Fancy #1 Studio/Top #2/Top.dsf");
  assert.equal(uri.id, "Top_geo");
  assert.equal(uri.nodePath, "F");
  // Without a '/' between them, the first '#' starts the id, which keeps the rest.
  assert.equal(parseDsonUri("/data/a.dsf#Top#2").id, "Top#2");
  assert.equal(parseDsonUri("#a#b").filePath, "");
});

/** Depth bounds: JSON nesting and node hierarchies, measured without recursion or quadratic walks. */
import assert from "node:assert/strict";
import { chainText, maxJsonDepth, scanHierarchy, tooDeepPath } from "../../runtime/depth.ts";

Deno.test("scanHierarchy measures a forest: its depth and the first node that deep", () => {
  // 0 ← 1 ← 3, 0 ← 2, 4 alone; 5's parent is out of range (a root), 6 under 5.
  const scan = scanHierarchy([-1, 0, 0, 1, -1, 99, 5]);
  assert.deepEqual(scan, { cycle: [], cycleFrom: -1, depth: 3, deepest: 3 });
  assert.deepEqual(scanHierarchy([]), { cycle: [], cycleFrom: -1, depth: 0, deepest: -1 });
  // Nodes 3 and 4 are equally deep: the first is named.
  assert.equal(scanHierarchy([-1, 0, 0, 2, 1]).deepest, 3);
  // Parents after their children: 0 → 3 → 2 → 1.
  assert.deepEqual(scanHierarchy([3, -1, 1, 2]), { cycle: [], cycleFrom: -1, depth: 4, deepest: 0 });
});

Deno.test("scanHierarchy finds the first node whose chain runs into a cycle, and the cycle in parent order", () => {
  // 0 is a root; 1 → 2 → 3 → 4 → 2 loops; 5 hangs from 3.
  const scan = scanHierarchy([-1, 2, 3, 4, 2, 3]);
  assert.equal(scan.cycleFrom, 1);
  assert.deepEqual(scan.cycle, [2, 3, 4]);
  assert.deepEqual(scanHierarchy([0]).cycle, [0]);
});

Deno.test("scanHierarchy is linear: a million-node chain, and a million nodes under one root", () => {
  const n = 1_000_000;
  const chain = Int32Array.from({ length: n }, (_, i) => i - 1);
  assert.deepEqual(scanHierarchy(chain), { cycle: [], cycleFrom: -1, depth: n, deepest: n - 1 });
  // Walked from the deep end first: every node's level is filled in on the way back.
  const reversed = Int32Array.from({ length: n }, (_, i) => (i === n - 1 ? -1 : i + 1));
  assert.equal(scanHierarchy(reversed).deepest, 0);
  const star = Int32Array.from({ length: n }, (_, i) => (i === 0 ? -1 : 0));
  assert.equal(scanHierarchy(star).depth, 2);
  const loop = Int32Array.from({ length: n }, (_, i) => (i + 1) % n);
  assert.equal(scanHierarchy(loop).cycle.length, n);
});

Deno.test("chainText keeps short chains whole and shortens long ones to both ends", () => {
  assert.equal(chainText(["a", "b", "a"]), "a → b → a");
  const names = Array.from({ length: 20 }, (_, i) => `n${i}`);
  assert.equal(chainText(names, 2), "n0 → n1 → … 16 more … → n18 → n19");
  assert.equal(chainText(names.slice(0, 4), 2), "n0 → n1 → n2 → n3");
});

Deno.test("maxJsonDepth skips strings (escaped quotes included); tooDeepPath names the first value too deep", () => {
  assert.deepEqual(maxJsonDepth('["[[[", "\\"[[["]', 1), { exceeded: false, at: 0 });
  assert.deepEqual(maxJsonDepth('{"a": [[1]]}', 2), { exceeded: true, at: 7 });
  assert.equal(tooDeepPath({ a: [{ b: [1] }] }, 2), "/a/0");
  assert.equal(tooDeepPath({ a: [1] }, 2), undefined);
});

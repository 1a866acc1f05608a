/**
 * Theme "the preview's parts and untrusted names": the studio's browser tests of the parts list and
 * node tree on models shaped as real files are, and of hostile names shown as text, in one module
 * (see `../themes_test.ts`).
 *
 * @module
 */

// A 2,000-deep chain, parts at rest, same-named parts, fixed and degenerate limits.
import "../preview_parts_test.ts";
// Hostile and careless names (10 KB, right-to-left overrides, NUL, markup) shown as text.
import "../hostile_names_test.ts";

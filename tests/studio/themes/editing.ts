/**
 * Theme "editing a graph": the studio's browser tests of the node editor's edits, by mouse and by
 * keyboard, in one module (see `../themes_test.ts`).
 *
 * @module
 */

// Edits across a graph and its node group: Save, refusals, badges, the status bar.
import "../editing_test.ts";
// A pipeline authored from an empty graph: added nodes in view and apart, wired, run.
import "../authoring_test.ts";
// The keyboard only: Tab out of the editor, Enter on issues, results and tabs.
import "../keyboard_test.ts";
// The node editor by keyboard: selection by arrows, wires drawn from a dialog.
import "../keyboard_nodes_test.ts";
// Undo and redo on scripts' graphs of hundreds to thousands of nodes.
import "../undo_large_test.ts";
// A node type this runtime does not have: drawn, marked, named.
import "../gone_type_test.ts";

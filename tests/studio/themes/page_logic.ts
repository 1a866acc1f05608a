/**
 * Theme "the page's logic without a browser": the editor's model, renames, groups, run states,
 * layouts, arrange, keyboard reach and the preview's parts, in one module (see `../themes_test.ts`).
 *
 * @module
 */

// The editor's model: wires, deletes, duplicates, graph inputs.
import "../model_test.ts";
// Renames on graph JSON.
import "../rename_model_test.ts";
// Grouping and ungrouping on graph JSON.
import "../grouping_model_test.ts";
// Checks and runs with the page's unsaved group files.
import "../unsaved_groups_test.ts";
// Run states kept per top graph by flattened id.
import "../states_test.ts";
// Where the page finds a group file under a top graph.
import "../scopes_test.ts";
// Layouts: columns by depth, nodes under others laid out, long wires clipped.
import "../layout_test.ts";
import "../stacks_test.ts";
import "../wire_clip_test.ts";
// Arrange of a graph and of a selection.
import "../arrange_test.ts";
import "../arrange_selection_test.ts";
// The keyboard reaches every node of messy layouts.
import "../keyboard_reach_test.ts";
// The preview's parts, meshes with no size, and deep trees.
import "../parts_test.ts";
import "../extent_test.ts";
import "../deep_nodes_test.ts";

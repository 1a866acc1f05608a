/**
 * Theme "large and odd layouts": the studio's browser tests of graphs as scripts and exporters write
 * them — thousands of nodes, long wires, every node on one spot, scattered — in one module (see
 * `../themes_test.ts`).
 *
 * @module
 */

// Thousands of nodes drawn around the view; two tabs never drop a save.
import "../large_graph_test.ts";
// 1,666 outputs naming a gone socket: every wire reported and drawn to Group Output.
import "../long_wires_test.ts";
// Every node at [0, 0]: each reachable and selectable, the file unchanged until saved.
import "../stacked_nodes_test.ts";
// Arrange (Shift+L, the toolbar): nothing covered, one undo puts every node back.
import "../arrange_page_test.ts";
// A run of a large graph whose models are missing: badges redrawn a few times a second.
import "../run_large_test.ts";

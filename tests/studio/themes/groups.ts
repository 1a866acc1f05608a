/**
 * Theme "node groups": the studio's browser tests of groups made, taken apart, edited open, viewed,
 * reverted and closed, in one module (see `../themes_test.ts`).
 *
 * @module
 */

// Alt+G and Ctrl+G on a copy of graphs/aircraft.json: the same output bytes as the original.
import "../grouping_test.ts";
// Ctrl+G over a file changed while it asked, or over a non-graph: never written over.
import "../group_race_test.ts";
// A group node's sockets follow its open, unsaved group.
import "../live_group_sockets_test.ts";
// A group only viewed, changed on disk: the check and a run read the file as it is now.
import "../viewed_group_test.ts";
// A run's badges and the groups it read: dimmed when edited, not when only opened.
import "../stale_groups_test.ts";
// Revert and closing an edited group's tab.
import "../revert_close_test.ts";

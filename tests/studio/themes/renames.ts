/**
 * Theme "renames and graph inputs": the studio's browser tests of names — nodes, a group's sockets,
 * graph inputs — and what follows them, in one module (see `../themes_test.ts`).
 *
 * @module
 */

// F2 and double-click renames; a group's output and input renamed in its users and files.
import "../rename_test.ts";
// What knows a node by its id follows its rename: badges, file tabs, far users.
import "../rename_follow_test.ts";
// A node renamed while a run goes on keeps its reports.
import "../rename_in_flight_test.ts";
// A graph input added, described and bound, saved as hand-written graphs declare it.
import "../graph_inputs_test.ts";
// The search for a group's users shares its budget: a huge folder beside the graphs hides none.
import "../users_budget_test.ts";

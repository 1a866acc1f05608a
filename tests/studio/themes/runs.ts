/**
 * Theme "runs and framing": the studio's browser tests of what a run tells the user and of a session
 * around it, and of graphs opened framed with their written files listed, in one module (see
 * `../themes_test.ts`).
 *
 * @module
 */

// What a run tells while it goes on and after it ends (held nodes, broken streams).
import "../run_feedback_test.ts";
// A user's session on a script's graph: edits while it runs, a tab closed, reopened.
import "../session_test.ts";
// Graphs open framed; Numpad . and Home frame; a run lists the files it wrote.
import "../view_files_test.ts";

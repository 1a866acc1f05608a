/**
 * Theme "a user's first steps through the studio": the studio's browser tests of what a user meets
 * first, in one module (see `../themes_test.ts`). Named to run early: it is one of the longest themes,
 * and `deno test --parallel` starts the themes in name order.
 *
 * @module
 */

// Open, add, wire, save, run, preview and undo on graphs/aircraft.json: the page end to end.
import "../studio_test.ts";
// What a first-time user meets: failed checks, the picker, inputs' issues, Run's states, leaving.
import "../first_use_test.ts";
// A reload, path hints, undo keeping panels and the selection.
import "../user_walk_test.ts";
// Small trips: a stale refusal, a studio started in the user's own folder.
import "../small_trips_test.ts";
// The tests' own kept page: a second open starts as in a fresh context.
import "../kept_context_test.ts";

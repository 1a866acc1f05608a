/**
 * Theme "the server and the tests' own machinery, without a page": the studio's HTTP API, its
 * sandbox and saves, the shared chromium's and page bundle's upkeep, and the themes themselves, in one
 * module (see `../themes_test.ts`).
 *
 * @module
 */

// The API without a browser: sandbox, check parity, saves, run stream, decoders served by name.
import "../server_test.ts";
// What a loopback process or web page can send: hidden folders, non-graph JSON, foreign hosts.
import "../server_hostile_test.ts";
// GET /api/exists by save's rules on a messy checkout's paths.
import "../exists_test.ts";
// Opening a graph validates it once.
import "../validate_once_test.ts";
// Sandbox.resolveMany answers as Sandbox.resolve does, path by path.
import "../paths_batch_test.ts";
// What the page asks in ordinary editing gets an answer, not an HTTP error.
import "../page_answers_test.ts";
// A project as real users have one: secrets, Unicode, huge and looping graphs.
import "../hostile_project_test.ts";
// A graph moved and edited on disk: where Save finds it.
import "../moved_edited_test.ts";
// The tests' machinery: kept page bundles, the run's one chromium, every test module in one theme.
import "../page_bundle_test.ts";
import "../chromium_shared_test.ts";
import "../themes_test.ts";

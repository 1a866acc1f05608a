/**
 * Theme "graph files on disk": the studio's browser tests of tabs, saves and files changed under the
 * page — moved, edited, deleted, damaged, slow to answer — and projects as users have them, in one
 * module (see `../themes_test.ts`).
 *
 * @module
 */

// The open files' tabs and open, edited groups.
import "../file_tabs_test.ts";
// A file renamed or moved on disk while open.
import "../moved_file_test.ts";
// A file moved and edited on disk while open: Save asks where it went.
import "../moved_edited_page_test.ts";
// A file deleted while open: Save does not silently make it again.
import "../deleted_file_test.ts";
// Save over a file that is not JSON now (a merge half done, a save cut short).
import "../damaged_save_test.ts";
// A slow server: Save pressed again before the first answer.
import "../slow_server_test.ts";
// Projects as users have them: no graphs/ folder, every graph broken.
import "../messy_start_test.ts";

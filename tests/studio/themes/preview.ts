/**
 * Theme "the 3D preview": the studio's browser tests of the preview's frames, of results arriving out
 * of order, of its script gone from a restarted studio and of files as users have them, in one module
 * (see `../themes_test.ts`).
 *
 * @module
 */

// The preview idles while nothing moves; drags, zooms, resizes and clips draw.
import "../preview_idle_test.ts";
// An older result is never shown as the current one.
import "../preview_stale_test.ts";
// A studio started again with another build: the first preview says to save and reload.
import "../preview_restart_test.ts";
// Files as users have them: odd names, parts without limits, 2,000 parts, damaged files.
import "../preview_files_test.ts";
// From file to file: the view's check boxes hold, and a model without parts is told why for its format.
import "../preview_feedback_test.ts";
// After a failed preview the error box stands above the view, not over it (no dark band).
import "../preview_error_layout_test.ts";

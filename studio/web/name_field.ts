/// <reference lib="dom" />
/**
 * A name field of the parameter panel (a node's id, a graph input's or output's name): Enter or
 * leaving the edited field renames, Escape puts the name back. A refused name stays in the field, marked,
 * with the reason beside it, so it can be corrected where it was typed.
 *
 * @module
 */
import { INPUTS_ID, OUTPUTS_ID } from "./shapes.ts";

/** What renaming to a name gives: the reason it was refused, or undefined when it was done. */
export type Rename = (to: string) => Promise<string | undefined> | string | undefined;

/**
 * A row with a name field for `name`: `rename` runs when the typed name differs from it. `kind` goes
 * to `data-rename` (the page's F2 and double-click focus the field by it), `what` is its label.
 *
 * @example
 * ```ts
 * panel.append(nameField("node", "export", "node id export", (to) => model.rename("node", "export", to)));
 * ```
 */
export function nameField(
  kind: string,
  name: string,
  what: string,
  rename: Rename,
  /** Shown after the field, before a refusal's reason (a graph input's type). */
  after?: Node,
): HTMLElement {
  const row = document.createElement("div");
  row.className = "name-row";
  row.dataset.rename = kind;
  row.dataset.name = name;
  const field = Object.assign(document.createElement("input"), { value: name, spellcheck: false });
  field.className = "name-field";
  field.setAttribute("aria-label", what);
  field.title = `${what}: Enter renames, Escape puts the name back`;
  const problem = document.createElement("span");
  problem.className = "name-problem";
  problem.setAttribute("role", "alert");
  const show = (reason: string | undefined) => {
    problem.textContent = reason ?? "";
    field.setCustomValidity(reason ?? "");
    field.toggleAttribute("aria-invalid", !!reason);
  };
  // A change event comes with Enter and with leaving an edited field (Chromium, Firefox): one rename.
  field.onchange = async () => {
    const to = field.value.trim();
    show(to === name ? undefined : await rename(to));
  };
  field.onkeydown = (e) => {
    if (e.key !== "Escape") return;
    field.value = name;
    show(undefined);
  };
  row.append(field, ...(after ? [after] : []), problem);
  return row;
}

/**
 * Puts the cursor in the first name field of `panel` (the panel of node `id`: its id; on Group Input
 * or Output, their first socket's name), its text selected to type over. Returns what to say when the
 * panel has none.
 */
export function focusNameField(panel: HTMLElement, id: string): string | undefined {
  const field = panel.querySelector<HTMLInputElement>("[data-rename] input.name-field");
  if (!field) {
    const none = id === OUTPUTS_ID
      ? "Group Output has no outputs"
      : id === INPUTS_ID
      ? "Group Input has no inputs"
      : "Nothing";
    return `${none} to rename`;
  }
  field.focus();
  field.select();
  return undefined;
}

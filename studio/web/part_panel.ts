/// <reference lib="dom" />
/**
 * The preview's part panel: a slider per `group` (moving its members together) and per part. Each
 * slider shows its parts' value: a part's own slider follows its group's, and a group's shows its
 * members' common value, or "mixed" when they differ. A caption names the declared limits (∞ where
 * none is declared), says when the part is unbounded (its slider then spans one turn, or the model's
 * size for a slide), its rest when that is not 0 (and when it lies outside its limits), and what was
 * odd in its extras (limits the wrong way round, not numbers, too large). A part whose `min` equals its
 * `max` cannot move: its slider is disabled and its caption says it is fixed. Parts that share a name
 * are told apart by their labels (`Wing_L › Flap`). Names are the file's, as text, in `<bdi>` so that a
 * right-to-left name does not reorder the caption after it. A click on a caption selects its part (the
 * viewer highlights it); {@link PartPanel.select} marks the selected part's row.
 *
 * A `group` gets a slider of its own when it moves like parts: not when its members differ in kind or
 * unit (a value in degrees and metres at once means nothing), nor when they are the axes of one
 * Freelancer joint (a Sphere's three turns, which its decode groups under the joint's name).
 *
 * A move updates only the sliders that show a moved part (its own and its group's), so a model with
 * thousands of parts answers a slider in O(parts moved), not O(parts).
 *
 * @module
 */
import type { PreviewPart } from "./parts.ts";
import { shownName } from "./shown_name.ts";
import { noPartsHint, pickerGraphs } from "./no_parts_hint.ts";

/** A part panel slider and the parts it moves. */
interface Slider {
  members: PreviewPart[];
  input: HTMLInputElement;
  output: HTMLOutputElement;
  row: HTMLElement;
}

/** The part panel in `container`; `move` sets parts to a value (the viewer then calls {@link showValues}). */
export class PartPanel {
  /** Every slider, groups first. */
  private sliders: Slider[] = [];
  /** The sliders showing each part (its own, and its group's). */
  private readonly slidersOf = new Map<PreviewPart, Slider[]>();

  /** The row of the selected part. */
  private selectedRow?: HTMLElement;

  constructor(
    private readonly container: HTMLElement,
    private readonly move: (parts: PreviewPart[], value: number) => void,
    private readonly pick: (part: PreviewPart) => void = () => {},
  ) {}

  /**
   * Marks `part`'s row selected (none: no row). It is not scrolled to: a click in the node tree below
   * would otherwise carry the tree out of view.
   */
  select(part: PreviewPart | undefined): void {
    this.selectedRow?.classList.remove("selected");
    this.selectedRow = part ? this.slidersOf.get(part)?.find((s) => s.members.length === 1)?.row : undefined;
    this.selectedRow?.classList.add("selected");
  }

  /** Empties the panel: no model is shown. */
  clear(): void {
    this.sliders = [];
    this.slidersOf.clear();
    this.selectedRow = undefined;
    this.container.replaceChildren();
  }

  /**
   * Lists the parts of the model shown (none: says how a model of its kind gets them, `label` naming
   * the model: its file, or a run output's name).
   */
  build(parts: readonly PreviewPart[], label = ""): void {
    this.clear();
    const groups = new Map<string, PreviewPart[]>();
    for (const part of parts) {
      if (!part.group) continue;
      const members = groups.get(part.group);
      if (members) members.push(part);
      else groups.set(part.group, [part]);
    }
    for (const [group, members] of groups) {
      if (!movesTogether(group, members)) continue;
      const min = members.reduce((least, m) => Math.min(least, m.min), Infinity);
      const max = members.reduce((most, m) => Math.max(most, m.max), -Infinity);
      this.slider(`group ${group}`, "", members, min, max, `group:${group}`);
    }
    for (const part of parts) {
      const fit = part.fit ? ` fit ${part.fit}` : "";
      const row = this.slider(part.label, fit, [part], part.min, part.max, part.label);
      if (part.weak) row.classList.add("weak");
      row.querySelector("span")!.onclick = (event) => {
        event.preventDefault(); // a click on a <label>'s text would otherwise go to its slider
        this.pick(part);
      };
    }
    const rows = this.sliders.map((s) => s.row);
    this.container.replaceChildren(...rows);
    if (!rows.length) {
      // A model as exported (the corpus's Sketchbook airplane) has none until it is rigged: say how,
      // for its format (a Freelancer .3db has no joints; the aircraft rig reads glTF only).
      this.container.textContent = noPartsHint(label, pickerGraphs());
    }
    this.show(this.sliders);
  }

  /** Puts the sliders showing `parts` at their parts' values. */
  showValues(parts: readonly PreviewPart[]): void {
    const touched = new Set<Slider>();
    for (const p of parts) for (const slider of this.slidersOf.get(p) ?? []) touched.add(slider);
    this.show(touched);
  }

  /**
   * Puts sliders at their parts' value; a group's shows its members' common value, or "mixed" (its
   * thumb left where it was) when they differ.
   */
  private show(sliders: Iterable<Slider>): void {
    for (const { members, input, output, row } of sliders) {
      const value = members[0].value;
      const agree = members.every((m) => Math.abs(m.value - value) < 1e-9);
      row.classList.toggle("mixed", !agree);
      if (agree) input.value = String(value);
      output.textContent = agree ? value.toFixed(2) : "mixed";
    }
  }

  /**
   * A slider row moving `members`. Its caption names the declared limits (∞ where there is none);
   * its track spans the parts' travel, which takes in the rest (0) when that lies outside the limits,
   * and a turn or the model's size when they are unbounded: the caption then says so.
   */
  private slider(
    label: string,
    note: string,
    members: PreviewPart[],
    min: number,
    max: number,
    key: string,
  ): HTMLElement {
    const row = document.createElement("label");
    row.className = "part";
    row.dataset.part = key;
    const outside = members.some((m) => m.restOutside);
    row.classList.toggle("rest-outside", outside);
    const low = members.reduce((least, m) => Math.min(least, m.low), Infinity);
    const high = members.reduce((most, m) => Math.max(most, m.high), -Infinity);
    const unbounded = members.some((m) => m.unbounded);
    const fixed = members.every((m) => m.fixed);
    row.classList.toggle("fixed", fixed);
    const one = members.length === 1 ? members[0] : undefined;
    const rest = one && (one.rest !== 0 || outside)
      ? `, rest ${shown(one.rest)}${outside ? " outside" : ""}`
      : "";
    const travel = unbounded ? `, unbounded: slider ${shown(low)}…${shown(high)}` : "";
    const limits = fixed ? `fixed: min = max = ${shown(min)}` : `${shown(min)}…${shown(max)}`;
    const notes = one?.notes.length ? `; ${one.notes.join("; ")}` : "";
    const caption = document.createElement("span");
    caption.append(
      Object.assign(document.createElement("bdi"), { textContent: shownName(label) }),
      ` (${limits} ${members[0].unit}${travel}${
        one ? rest : outside ? ", rest outside" : ""
      }${notes})${note}`,
    );
    const titles = [
      fixed ? "Its min equals its max: this part cannot move." : "",
      unbounded ? "No limit declared: the slider spans one turn, or the model's size for a slide." : "",
      outside ? "At rest this part lies outside its limits; the slider reaches back to its rest." : "",
    ];
    if (fixed || unbounded || outside) caption.title = titles.filter(Boolean).join(" ");
    const input = document.createElement("input");
    input.type = "range";
    input.min = String(low);
    input.max = String(high);
    input.step = "any";
    input.disabled = fixed;
    if (fixed) input.title = "Fixed: its min equals its max.";
    const output = document.createElement("output");
    input.oninput = () => this.move(members, Number(input.value));
    row.append(caption, input, output);
    const slider = { members, input, output, row };
    this.sliders.push(slider);
    for (const m of members) {
      const list = this.slidersOf.get(m);
      if (list) list.push(slider);
      else this.slidersOf.set(m, [slider]);
    }
    return row;
  }
}

/**
 * Whether a group's members move together on one slider: two or more, of one kind and unit, and not
 * the axes of one Freelancer joint (its decode names the joint as their group; each has its own `dof`).
 */
function movesTogether(group: string, members: readonly PreviewPart[]): boolean {
  if (members.length < 2) return false;
  if (members.some((m) => m.kind !== members[0].kind || m.unit !== members[0].unit)) return false;
  const axes = members.map((m) => m.object.userData.partgraph?.part);
  return !axes.every((p) => p?.found_by === "constraint" && p.joint === group);
}

/** A limit or travel end for a caption: ∞ for none, else at most 3 decimals. */
function shown(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return String(Number(value.toFixed(3)));
}

/// <reference lib="dom" />
/**
 * The preview's part panel: a slider per `group` (moving its members together) and per part. Each
 * slider shows its parts' value: a part's own slider follows its group's, and a group's shows its
 * members' common value, or "mixed" when they differ. A caption names the declared limits (∞ where
 * none is declared), says when the part is unbounded (its slider then spans one turn, or the model's
 * size for a slide) or when its rest lies outside its limits. Names are the file's, as text, in
 * `<bdi>` so that a right-to-left name does not reorder the caption after it.
 *
 * A move updates only the sliders that show a moved part (its own and its group's), so a model with
 * thousands of parts answers a slider in O(parts moved), not O(parts).
 *
 * @module
 */
import type { PreviewPart } from "./parts.ts";

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

  constructor(
    private readonly container: HTMLElement,
    private readonly move: (parts: PreviewPart[], value: number) => void,
  ) {}

  /** Lists `parts` (none: empties the panel). */
  build(parts: readonly PreviewPart[]): void {
    this.sliders = [];
    this.slidersOf.clear();
    if (!parts.length) return this.container.replaceChildren();
    const groups = new Map<string, PreviewPart[]>();
    for (const part of parts) {
      if (!part.group) continue;
      const members = groups.get(part.group);
      if (members) members.push(part);
      else groups.set(part.group, [part]);
    }
    for (const [group, members] of groups) {
      if (members.length < 2) continue;
      const min = members.reduce((least, m) => Math.min(least, m.min), Infinity);
      const max = members.reduce((most, m) => Math.max(most, m.max), -Infinity);
      this.slider(`group ${group}`, "", members, min, max, `group:${group}`);
    }
    for (const part of parts) {
      const fit = part.fit ? ` fit ${part.fit}` : "";
      const row = this.slider(part.name, fit, [part], part.min, part.max, part.name);
      if (part.weak) row.classList.add("weak");
    }
    const rows = this.sliders.map((s) => s.row);
    this.container.replaceChildren(...rows);
    if (!rows.length) this.container.textContent = "No ctrl_type parts in this model.";
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
    const caption = document.createElement("span");
    const travel = unbounded ? `, unbounded: slider ${shown(low)}…${shown(high)}` : "";
    caption.append(
      Object.assign(document.createElement("bdi"), { textContent: label }),
      ` (${shown(min)}…${shown(max)} ${members[0].unit}${travel}${outside ? ", rest 0 outside" : ""})${note}`,
    );
    const titles = [
      unbounded ? "No limit declared: the slider spans one turn, or the model's size for a slide." : "",
      outside ? "At rest (0) this part lies outside its limits; the slider reaches back to 0." : "",
    ];
    if (unbounded || outside) caption.title = titles.filter(Boolean).join(" ");
    const input = document.createElement("input");
    input.type = "range";
    input.min = String(low);
    input.max = String(high);
    input.step = "any";
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

/** A limit or travel end for a caption: ∞ for none, else at most 3 decimals. */
function shown(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return String(Number(value.toFixed(3)));
}

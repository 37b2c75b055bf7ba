import { escapeControls } from "../text/control-chars.js";

/** Markup that is already escaped (built by `html`, or a constant): interpolated as it is. */
export class Safe {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Marks a constant string of markup as safe. Never call it on data: data goes through `html`'s interpolation. */
export function trusted(markup: string): Safe {
  return new Safe(markup);
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text made safe for HTML, in an element or a quoted attribute: entities for the five markup characters, and the
 * terminal controls made visible as `yolo show` prints them (`\x1b`, `\u202e`), so hostile model text is shown,
 * never acted on by the browser or by a terminal it is copied into.
 */
export function escapeText(text: string): string {
  return escapeControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

type Part = Safe | string | number | boolean | null | undefined | readonly Part[];

/**
 * The one way pages are built: every interpolation is escaped unless it is a Safe (the result of another `html`, or
 * `trusted`); arrays are joined, null, undefined and false render nothing. A page cannot forget to escape.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): Safe {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Safe(out);
}

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Safe) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeText(String(value));
}

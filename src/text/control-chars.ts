// Colour codes (SGR) from test runners' output: noise in a report, dropped whole, so none can hide text either.
const SGR = /\x1b\[[0-9;:]*m/g;
/**
 * What a terminal or a Markdown renderer may act on instead of showing: C0 controls but tab and newline (ESC starts
 * OSC 52 clipboard writes, screen clears, titles and OSC 8 links; BEL ends them), a carriage return not before a
 * newline (it overwrites the line), DEL, C1 controls (U+009B is a one-character CSI), and the bidi overrides and
 * isolates that make text read in another order than it runs.
 */
const UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
// What JSON.stringify leaves raw of the above: C0 controls it escapes itself.
const UNSAFE_IN_JSON = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Model-written text made safe to print on a terminal or to render as Markdown: every control character becomes
 * its visible escape (`\x1b`, `\x9b`, `\u202e`), so an attack is seen rather than run; colour codes are dropped.
 */
export function escapeControls(text: string): string {
  return text.replace(SGR, "").replace(UNSAFE, visible);
}

/** JSON text (from JSON.stringify) with the controls it leaves raw written as `\u` escapes: the same value, safe to print. */
export function escapeControlsInJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
}

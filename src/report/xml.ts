// Characters XML 1.0 does not allow at all (control codes other than tab, newline, carriage return; lone surrogates).
const INVALID = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// ANSI escape sequences from test runners: noise in a CI viewer, and ESC is not a legal XML character.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** Text content of an element: escaped, with ANSI colour codes and characters XML forbids removed. */
export function xmlText(text: string): string {
  return clean(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An attribute value inside double quotes; newlines are kept as character references. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}

function clean(text: string): string {
  return text.replace(ANSI, "").replace(INVALID, "");
}

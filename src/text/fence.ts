/**
 * A `<data` or `</data` tag in any case or spacing (`</DATA >`, `< / data\n>`, `</data x>`): inside fenced text it
 * would end the fence (or open a fake one) for a model reading it, and the rest would pass for yolo's own words.
 */
const DATA_TAG = /<(\s*\/?\s*data)(?![\w-])/gi;
// What must not reach the `source` attribute raw: it would end the attribute or the tag.
const ATTRIBUTE_UNSAFE = /["<>]|[\x00-\x1f\x7f-\x9f]/g;

/**
 * Fences untrusted text (the requirement, test output, human answers, MCP results, file contents) as data with its
 * source, so instructions inside it are not mistaken for yolo's. The fence is longer than any backtick run inside,
 * and a data tag inside is escaped, so nothing in the text can close the fence early.
 */
export function fence(source: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `<data source="${attribute(source)}">\n${ticks}\n${text.replace(DATA_TAG, "&lt;$1")}\n${ticks}\n</data>`;
}

// A source names a file or a tool that the model or a server may have named: escaped like an XML attribute.
function attribute(source: string): string {
  return source.replace(ATTRIBUTE_UNSAFE, (c) => (c === '"' ? "&quot;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : " "));
}

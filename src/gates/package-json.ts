import { readProjectText } from "../secrets/project-read.js";

/** package.json is never that large; a larger one is not read. */
const MAX_PACKAGE_JSON_BYTES = 4 * 1024 * 1024;

/**
 * The project's package.json as text, read as read_file would (its scripts reach gate records and the model: a link
 * out of the project is refused). Throws when it is missing, refused or too large, as a failed read did before.
 */
export function packageJsonText(root: string): string {
  const read = readProjectText(root, "package.json", MAX_PACKAGE_JSON_BYTES);
  if (!read.ok) throw new Error(`package.json: ${read.reason}`);
  if (read.truncated) throw new Error(`package.json is larger than ${MAX_PACKAGE_JSON_BYTES} bytes`);
  return read.text;
}

import { ConfigError } from "../errors.js";

/**
 * The text of a requirement or message given as `-`: all of stdin. Refused when stdin is a terminal (yolo would
 * sit waiting for input nobody knows it wants) and when what was piped in is empty.
 */
export async function textFromStdin(usage: string, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stdin.isTTY) {
    throw new ConfigError(
      `"-" reads the text from stdin, but stdin is a terminal. Pipe it in (${usage.replace('"…"', "- < requirement.md")}) or give it as words.`,
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) throw new ConfigError(`"-" reads the text from stdin, and stdin was empty. Usage: ${usage}`);
  return text;
}

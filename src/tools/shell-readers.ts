// Readers for the quoted and delimited pieces of a shell string, used by shell-parse.ts.

const ANSI_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

// Reads a `$'…'` string from `start` (just after the quote), decoding its escapes as bash does (`$'\x63url'` is
// `curl`), so an escaped program name is checked as what it runs.
export function readAnsiC(source: string, start: number): { text: string; end: number } | null {
  let text = "";
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === "'") return { text, end: i + 1 };
    if (c !== "\\") {
      text += c;
      continue;
    }
    const e = source[i + 1];
    if (e === undefined) return null;
    const rest = source.slice(i + 2);
    const hex = e === "x" ? /^[0-9a-fA-F]{1,2}/.exec(rest) : null;
    const unicode = e === "u" ? /^[0-9a-fA-F]{1,4}/.exec(rest) : e === "U" ? /^[0-9a-fA-F]{1,8}/.exec(rest) : null;
    const octal = /^[0-7]{1,3}/.exec(source.slice(i + 1));
    if (e in ANSI_ESCAPES) {
      text += ANSI_ESCAPES[e];
      i++;
    } else if (hex) {
      text += String.fromCharCode(Number.parseInt(hex[0], 16));
      i += 1 + hex[0].length;
    } else if (unicode) {
      text += String.fromCodePoint(Number.parseInt(unicode[0], 16));
      i += 1 + unicode[0].length;
    } else if (octal) {
      text += String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else if (e === "c" && rest.length) {
      text += String.fromCharCode(rest.charCodeAt(0) & 0x1f);
      i += 2;
    } else {
      text += `\\${e}`;
      i++;
    }
  }
  return null;
}

// Reads a double-quoted string from `start` (just after the opening quote), refusing substitutions inside it.
export function readDoubleQuoted(source: string, start: number): { text: string; end: number; expands: boolean } | { error: string } {
  let text = "";
  let expands = false;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '"') return { text, end: i + 1, expands };
    if (c === "$" && /[A-Za-z0-9_@*#?$!{-]/.test(source[i + 1] ?? "")) expands = true;
    if (c === "\\" && i + 1 < source.length && '"\\$`\n'.includes(source[i + 1])) {
      if (source[i + 1] !== "\n") text += source[i + 1];
      i++;
    } else if (c === "`" || (c === "$" && source[i + 1] === "(")) {
      return { error: "command substitution cannot be checked" };
    } else if (c === "$" && /^\$\{[^}]*@P\}/.test(source.slice(i, i + 200))) {
      return { error: "a `${…@P}` expansion runs the commands in a variable" };
    } else text += c;
  }
  return { error: "a double quote is not closed" };
}

// The delimiter word after `<<`, with its quotes removed, and whether it was quoted (no expansion in the body).
export function readHeredocDelimiter(source: string, start: number): { delimiter: string; end: number; quoted: boolean } | null {
  let i = start;
  while (source[i] === " " || source[i] === "\t") i++;
  let delimiter = "";
  let quoted = false;
  while (i < source.length && !/[\s;&|<>()]/.test(source[i])) {
    if (source[i] !== "'" && source[i] !== '"' && source[i] !== "\\") delimiter += source[i];
    else quoted = true;
    i++;
  }
  return delimiter ? { delimiter, end: i, quoted } : null;
}

/** A here-document waiting for its body: its delimiter, `<<-`, and whether the delimiter was quoted. */
export interface HeredocSpec {
  delimiter: string;
  stripTabs: boolean;
  /** A quoted delimiter: the body is taken literally, with no expansion. */
  quoted: boolean;
}

/**
 * Reads the bodies of the here-documents opened on the line just ended; returns them with the index after them,
 * or why they cannot be checked (not terminated; a command substitution the shell would run).
 */
export function readHeredocBodies(source: string, start: number, docs: HeredocSpec[]): { bodies: string[]; end: number } | string {
  let i = start;
  const bodies: string[] = [];
  for (const doc of docs) {
    let body = "";
    for (;;) {
      if (i >= source.length) return "a here-document is not terminated";
      const eol = source.indexOf("\n", i);
      const line = source.slice(i, eol < 0 ? source.length : eol);
      i = eol < 0 ? source.length : eol + 1;
      const text = doc.stripTabs ? line.replace(/^\t+/, "") : line;
      if (text === doc.delimiter) break;
      body += `${text}\n`;
    }
    if (!doc.quoted && /`|\$\((?!\()/.test(body)) return "command substitution in a here-document cannot be checked";
    bodies.push(body);
  }
  return { bodies, end: i };
}

// The index just past the `))` closing an arithmetic expansion whose body starts at `start`; -1 when it is not
// closed or contains a command substitution.
export function arithmeticEnd(source: string, start: number): number {
  let depth = 0;
  for (let j = start; j < source.length; j++) {
    const c = source[j];
    if (c === "`" || (c === "$" && source[j + 1] === "(" && source[j + 2] !== "(")) return -1;
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return source[j + 1] === ")" ? j + 2 : -1;
      depth--;
    }
  }
  return -1;
}

/** One simple command of a shell string: its words after quote removal, without assignments and redirections. */
export interface SimpleCommand {
  argv: string[];
  /** True when it reads a previous pipeline stage's output (`a | b`: b is piped). */
  piped: boolean;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; reason: string };

/** Reserved words that only open or close a construct around ordinary commands; skipped in program position. */
const TRANSPARENT_WORDS = new Set(["if", "then", "else", "elif", "fi", "while", "until", "do", "done", "!"]);
/** Constructs whose inner commands this parser does not follow; a command using them is refused, not guessed at. */
const UNSUPPORTED_WORDS = new Set(["case", "esac", "function", "{", "}", "[[", "]]", "select", "coproc"]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * Splits a POSIX shell string into its simple commands (argv after quote removal), the way the shell will run them:
 * `;`, `&`, `&&`, `||`, `|`, newlines separate commands; redirections, here-documents and leading `NAME=value`
 * assignments are dropped. What cannot be known without running the shell — command and process substitution,
 * subshells and groups, `case`, a variable as the program — is refused with a reason. Unquoted `$VAR` and globs
 * in arguments are kept as written (not expanded).
 */
export function parseShell(source: string): ParseResult {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let piped = false;
  let skipTarget = false;
  let wordHasExpansion = false;
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  let error: string | null = null;

  const endWord = () => {
    if (word === null) return;
    if (skipTarget) skipTarget = false;
    else if (words.length === 0 && ASSIGNMENT.test(word)) {
      // An assignment before the program: not part of argv.
    } else {
      if (words.length === 0 && wordHasExpansion) error ??= `the program is a variable (\`${word}\`), so it cannot be checked`;
      words.push(word);
    }
    word = null;
    wordHasExpansion = false;
  };
  const endCommand = (pipeNext: boolean) => {
    endWord();
    if (skipTarget) error ??= "a redirection has no target";
    const argv = stripKeywords(words);
    if (argv === null) error ??= `\`${words.find((w) => UNSUPPORTED_WORDS.has(w))}\` constructs are not supported`;
    else if (argv.length) commands.push({ argv, piped });
    words = [];
    piped = pipeNext;
  };
  const append = (text: string) => {
    word = (word ?? "") + text;
  };

  let i = 0;
  const n = source.length;
  while (i < n && error === null) {
    const c = source[i];
    const next = source[i + 1];
    if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "\n") {
      endCommand(false);
      i = heredocs.length ? skipHeredocBodies(source, i + 1, heredocs.splice(0)) : i + 1;
      if (i < 0) error = "a here-document is not terminated";
    } else if (c === "#" && word === null) {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "\\") {
      if (next === "\n") i += 2;
      else {
        append(next ?? "");
        i += 2;
      }
    } else if (c === "'") {
      const end = source.indexOf("'", i + 1);
      if (end < 0) error = "a single quote is not closed";
      else {
        append(source.slice(i + 1, end));
        i = end + 1;
      }
    } else if (c === '"') {
      const quoted = readDoubleQuoted(source, i + 1);
      if ("error" in quoted) error = quoted.error;
      else {
        append(quoted.text);
        i = quoted.end;
      }
    } else if (c === "`") {
      error = "command substitution (backquotes) cannot be checked";
    } else if (c === "$") {
      if (source.startsWith("$((", i)) {
        const end = arithmeticEnd(source, i + 3);
        if (end < 0) error = "an arithmetic expansion `$((…))` is not closed or holds a command";
        else {
          wordHasExpansion = true;
          append(source.slice(i, end));
          i = end;
        }
      } else if (next === "(") error = "command substitution `$(…)` cannot be checked";
      else {
        if (next === "{" || (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next))) wordHasExpansion = true;
        append("$");
        i++;
      }
    } else if ((c === "<" || c === ">") && next === "(") {
      error = "process substitution cannot be checked";
    } else if (c === "(" || c === ")") {
      error = "subshells and grouping with parentheses are not supported";
    } else if (c === ";" || c === "&" || c === "|") {
      if (c === "&" && next === ">") {
        // &> and &>> redirect both streams.
        endWord();
        i += source[i + 2] === ">" ? 3 : 2;
        skipTarget = true;
        continue;
      }
      const two = source.slice(i, i + 2);
      const isPipe = c === "|" && two !== "||";
      endCommand(isPipe);
      i += two === "&&" || two === "||" || two === "|&" || two === ";;" ? 2 : 1;
    } else if (c === "<" || c === ">") {
      // A redirection: a fd number written just before it belongs to it, not to argv.
      if (word !== null && /^\d+$/.test(word)) word = null;
      else endWord();
      if (source.startsWith("<<<", i)) {
        i += 3;
        skipTarget = true;
      } else if (source.startsWith("<<", i)) {
        const stripTabs = source[i + 2] === "-";
        i += stripTabs ? 3 : 2;
        const delim = readHeredocDelimiter(source, i);
        if (!delim) error = "a here-document has no delimiter";
        else {
          heredocs.push({ delimiter: delim.delimiter, stripTabs });
          i = delim.end;
        }
      } else {
        i++;
        if (source[i] === ">" || source[i] === "|" || (c === "<" && source[i] === ">")) i++;
        if (source[i] === "&") {
          // >&2, <&0, >&- : a descriptor, not a file.
          i++;
          while (i < n && /[0-9-]/.test(source[i])) i++;
        } else skipTarget = true;
      }
    } else {
      append(c);
      i++;
    }
  }
  if (error === null) {
    if (heredocs.length) error = "a here-document is not terminated";
    else endCommand(false);
  }
  return error === null ? { ok: true, commands } : { ok: false, reason: error };
}

// Drops the reserved words that merely wrap commands (if/while/do…); null when an unsupported construct is used.
// A `for`/`select` header (`for x in a b`) is no command at all.
function stripKeywords(words: string[]): string[] | null {
  let start = 0;
  while (start < words.length && TRANSPARENT_WORDS.has(words[start])) start++;
  const rest = words.slice(start);
  if (rest.length === 0) return [];
  if (UNSUPPORTED_WORDS.has(rest[0])) return null;
  if (rest[0] === "for") return [];
  return rest;
}

// Reads a double-quoted string from `start` (just after the opening quote), refusing substitutions inside it.
function readDoubleQuoted(source: string, start: number): { text: string; end: number } | { error: string } {
  let text = "";
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '"') return { text, end: i + 1 };
    if (c === "\\" && i + 1 < source.length && '"\\$`\n'.includes(source[i + 1])) {
      if (source[i + 1] !== "\n") text += source[i + 1];
      i++;
    } else if (c === "`" || (c === "$" && source[i + 1] === "(")) {
      return { error: "command substitution cannot be checked" };
    } else text += c;
  }
  return { error: "a double quote is not closed" };
}

// The delimiter word after `<<`, with its quotes removed.
function readHeredocDelimiter(source: string, start: number): { delimiter: string; end: number } | null {
  let i = start;
  while (source[i] === " " || source[i] === "\t") i++;
  let delimiter = "";
  while (i < source.length && !/[\s;&|<>()]/.test(source[i])) {
    if (source[i] !== "'" && source[i] !== '"' && source[i] !== "\\") delimiter += source[i];
    i++;
  }
  return delimiter ? { delimiter, end: i } : null;
}

// Skips the bodies of the here-documents opened on the line just ended; -1 when one is not terminated.
function skipHeredocBodies(source: string, start: number, docs: { delimiter: string; stripTabs: boolean }[]): number {
  let i = start;
  for (const doc of docs) {
    for (;;) {
      if (i >= source.length) return -1;
      const eol = source.indexOf("\n", i);
      const line = source.slice(i, eol < 0 ? source.length : eol);
      i = eol < 0 ? source.length : eol + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
    }
  }
  return i;
}

// The index just past the `))` closing an arithmetic expansion whose body starts at `start`; -1 when it is not
// closed or contains a command substitution.
function arithmeticEnd(source: string, start: number): number {
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

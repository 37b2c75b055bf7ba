import { arithmeticEnd, type HeredocSpec, readAnsiC, readDoubleQuoted, readHeredocBodies, readHeredocDelimiter } from "./shell-readers.js";

/** One simple command of a shell string: its words after quote removal, without assignments and redirections. */
export interface SimpleCommand {
  argv: string[];
  /** True when it reads a previous pipeline stage's output (`a | b`: b is piped). */
  piped: boolean;
  /** Per argv word, what the shell still expands in it (`WORD_VAR | WORD_GLOB | …`); absent means nothing. */
  flags?: number[];
  /** Leading `NAME=value` words (after quote removal), which the shell puts in the program's environment. */
  assignments?: string[];
  /** The text a here-document or here-string feeds to its standard input (the last one given). */
  stdin?: string;
}

/** The word holds a parameter or arithmetic expansion (`$x`, `${x}`, `$((…))`): its value is unknown. */
export const WORD_VAR = 1;
/** The word holds an unquoted glob character (`*`, `?`, `[`). */
export const WORD_GLOB = 2;
/** The word holds an unquoted brace expansion (`{a,b}`). */
export const WORD_BRACE = 4;
/** The word starts with an unquoted `~`. */
export const WORD_TILDE = 8;

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
 *
 * Long on purpose: one character loop over a handful of shared variables (the word, its flags, the command so far,
 * pending here-documents) is the shell's own tokenizer state machine. Split into functions, every branch would pass
 * or return that whole state, and a security check is easier to audit as one loop read top to bottom.
 */
export function parseShell(source: string): ParseResult {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let piped = false;
  let skipTarget = false;
  let wordFlags = 0;
  let braceOpen = false;
  let flags: number[] = [];
  let assignments: string[] = [];
  let hereString = false;
  let stdin: string | undefined;
  const heredocs: Heredoc[] = [];
  let error: string | null = null;

  const endWord = () => {
    if (word === null) return;
    if (word === "[") wordFlags &= ~WORD_GLOB;
    if (skipTarget) {
      skipTarget = false;
      if (hereString) stdin = `${word}\n`;
      hereString = false;
    } else if (words.length === 0 && ASSIGNMENT.test(word)) {
      assignments.push(word);
    } else {
      if (words.length === 0 && wordFlags & WORD_VAR) error ??= `the program is a variable (\`${word}\`), so it cannot be checked`;
      else if (words.length === 0 && wordFlags & (WORD_GLOB | WORD_BRACE))
        error ??= `the program name is a glob or brace pattern (\`${word}\`), so it cannot be checked`;
      words.push(word);
      flags.push(wordFlags);
    }
    word = null;
    wordFlags = 0;
    braceOpen = false;
  };
  const endCommand = (pipeNext: boolean) => {
    endWord();
    if (skipTarget) error ??= "a redirection has no target";
    const stripped = stripKeywords(words);
    if (stripped === null) error ??= `\`${words.find((w) => UNSUPPORTED_WORDS.has(w))}\` constructs are not supported`;
    else if (stripped.length || assignments.length) {
      const argv = words.slice(stripped.start, stripped.start + stripped.length);
      const cmd: SimpleCommand = { argv, piped, flags: flags.slice(stripped.start, stripped.start + stripped.length), assignments };
      if (stdin !== undefined) cmd.stdin = stdin;
      for (const doc of heredocs) doc.owner ??= cmd;
      commands.push(cmd);
    }
    words = [];
    flags = [];
    assignments = [];
    stdin = undefined;
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
      if (heredocs.length) {
        const docs = heredocs.splice(0);
        const read = readHeredocBodies(source, i + 1, docs);
        if (typeof read === "string") error = read;
        else {
          docs.forEach((doc, d) => {
            if (doc.owner) doc.owner.stdin = read.bodies[d];
          });
          i = read.end;
        }
      } else i++;
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
    } else if (c === '"' || (c === "$" && next === '"')) {
      const quoted = readDoubleQuoted(source, i + (c === "$" ? 2 : 1));
      if ("error" in quoted) error = quoted.error;
      else {
        if (quoted.expands) wordFlags |= WORD_VAR;
        append(quoted.text);
        i = quoted.end;
      }
    } else if (c === "$" && next === "'") {
      const quoted = readAnsiC(source, i + 2);
      if (quoted === null) error = "a $'…' quote is not closed";
      else {
        append(quoted.text);
        i = quoted.end;
      }
    } else if (c === "`") {
      error = "command substitution (backquotes) cannot be checked";
    } else if (c === "$") {
      const read = readDollar(source, i);
      if ("error" in read) error = read.error;
      else {
        if (read.expands) wordFlags |= WORD_VAR;
        append(read.text);
        i = read.end;
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
      const redirect = readRedirect(source, i);
      if ("error" in redirect) error = redirect.error;
      else {
        i = redirect.end;
        if (redirect.target) skipTarget = true;
        if (redirect.hereString) hereString = true;
        if (redirect.heredoc) heredocs.push({ ...redirect.heredoc, owner: undefined });
      }
    } else {
      if (c === "~" && word === null) wordFlags |= WORD_TILDE;
      else if (c === "*" || c === "?" || c === "[") wordFlags |= WORD_GLOB;
      else if (c === "{") braceOpen = true;
      else if (c === "}" && braceOpen) wordFlags |= WORD_BRACE;
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

// A `$` outside single quotes: an arithmetic expansion or a parameter (whose value is unknown: `expands`), or a
// lone `$`. Command substitution and `${…@P}` (which runs the commands in a variable) are refused.
function readDollar(source: string, i: number): { error: string } | { text: string; end: number; expands: boolean } {
  const next = source[i + 1];
  if (source.startsWith("$((", i)) {
    const end = arithmeticEnd(source, i + 3);
    if (end < 0) return { error: "an arithmetic expansion `$((…))` is not closed or holds a command" };
    return { text: source.slice(i, end), end, expands: true };
  }
  if (next === "(") return { error: "command substitution `$(…)` cannot be checked" };
  // `${x@P}` expands the value as a prompt, running the command substitutions in it.
  if (next === "{" && /^\$\{[^}]*@P\}/.test(source.slice(i))) return { error: "a `${…@P}` expansion runs the commands in a variable" };
  return { text: "$", end: i + 1, expands: next === "{" || (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) };
}

// A redirection operator at `i` (`<`, `>`, `>>`, `>|`, `<>`, `<<<`, `<<`, `<<-`, `>&2`): where it ends, and whether
// the next word is its target (a file, or a here-string's text) or a here-document's body follows the line.
function readRedirect(source: string, i: number): { error: string } | { end: number; target: boolean; hereString?: boolean; heredoc?: HeredocSpec } {
  if (source.startsWith("<<<", i)) return { end: i + 3, target: true, hereString: true };
  if (source.startsWith("<<", i)) {
    const stripTabs = source[i + 2] === "-";
    const delim = readHeredocDelimiter(source, i + (stripTabs ? 3 : 2));
    if (!delim) return { error: "a here-document has no delimiter" };
    return { end: delim.end, target: false, heredoc: { delimiter: delim.delimiter, stripTabs, quoted: delim.quoted } };
  }
  let j = i + 1;
  if (source[j] === ">" || source[j] === "|" || (source[i] === "<" && source[j] === ">")) j++;
  if (source[j] !== "&") return { end: j, target: true };
  // >&2, <&0, >&- : a descriptor, not a file.
  j++;
  while (j < source.length && /[0-9-]/.test(source[j])) j++;
  return { end: j, target: false };
}

interface Heredoc extends HeredocSpec {
  owner: SimpleCommand | undefined;
}

// Drops the reserved words that merely wrap commands (if/while/do…): the range of words left, or null when an
// unsupported construct is used. A `for`/`select` header (`for x in a b`) is no command at all.
function stripKeywords(words: string[]): { start: number; length: number } | null {
  let start = 0;
  while (start < words.length && TRANSPARENT_WORDS.has(words[start])) start++;
  if (start === words.length) return { start, length: 0 };
  if (UNSUPPORTED_WORDS.has(words[start])) return null;
  if (words[start] === "for") return { start, length: 0 };
  return { start, length: words.length - start };
}

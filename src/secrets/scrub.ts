import { isSecretName } from "./env.js";

/** What a secret is replaced with, everywhere yolo writes or sends text. */
export const CENSOR = "[redacted]";

/** Shorter values would match ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 6;

// A value like `postgres://user:pw@host/db` carries a password whatever its variable is called.
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:([^/\s@]+)@/i;

/**
 * The secret values of an environment: variables whose names look secret, those named in `extraNames`
 * (e.g. the configured API key variable), passwords inside URLs, plus `extraValues` (e.g. the API key itself).
 */
export function collectSecrets(env: NodeJS.ProcessEnv, extraNames: readonly string[] = [], extraValues: readonly (string | undefined)[] = []): string[] {
  const extra = new Set(extraNames);
  const found: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (extra.has(name) || isSecretName(name)) found.push(value);
    const password = URL_PASSWORD.exec(value)?.[1];
    if (password) found.push(password, safeDecode(password));
  }
  for (const value of extraValues) if (value) found.push(value);
  return [...new Set(found.filter((s) => s.length >= MIN_SECRET_LENGTH))];
}

/**
 * Every form a secret is commonly written in: raw, JSON-escaped, URL-encoded, hex, and base64/base64url at each of
 * the three byte alignments (so a secret inside a longer encoded string, such as a Basic auth header, is found too);
 * and the cheap disguises a command can give it (`rev`, rot13, upper or lower case), since git objects readable in
 * the sandbox can hold a committed secret file whose value yolo knows.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), encodeURI(secret)]);
  const reversed = [...secret].reverse().join("");
  for (const disguise of [reversed, rot13(secret), rot13(reversed), secret.toUpperCase(), secret.toLowerCase()]) forms.add(disguise);
  const bytes = Buffer.from(secret, "utf8");
  forms.add(bytes.toString("hex"));
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    // Only the characters that encode the secret's bits alone: neighbours change the ones at the edges.
    const inner = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    if (inner.length >= MIN_SECRET_LENGTH) {
      forms.add(inner);
      forms.add(inner.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/** Replaces secrets (in all their forms) in text; built once per set of secrets, longest form first. */
export class Scrubber {
  private readonly forms: string[];
  /** The shortest form's length: a shorter string (most keys and short values of an event) holds none. */
  private readonly shortest: number;

  constructor(secrets: readonly string[]) {
    const all = new Set<string>();
    for (const secret of secrets) if (typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH) for (const f of secretForms(secret)) all.add(f);
    this.forms = [...all].sort((a, b) => b.length - a.length);
    this.shortest = this.forms.length ? this.forms[this.forms.length - 1].length : 0;
  }

  /** True when there is nothing to scrub. */
  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** The secret forms, longest first. */
  get formList(): readonly string[] {
    return this.forms;
  }

  /** The length of the longest end of `text` that is the start (not the whole) of a secret form; 0 when none is. */
  openPrefix(text: string): number {
    let longest = 0;
    for (const form of this.forms) {
      const first = form[0]!;
      // Candidate starts: the last form.length - 1 positions, earliest first (the longest match wins).
      for (let at = text.indexOf(first, Math.max(0, text.length - form.length + 1)); at !== -1; at = text.indexOf(first, at + 1)) {
        if (text.length - at <= longest) break;
        if (form.startsWith(text.slice(at))) {
          longest = text.length - at;
          break;
        }
      }
    }
    return longest;
  }

  /** `text` with every secret form replaced by the censor. */
  scrub(text: string): string {
    if (text.length < this.shortest) return text;
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(CENSOR);
    return out;
  }

  /** A deep copy of a JSON-like value with every string scrubbed (keys included). */
  scrubDeep<T>(value: T): T {
    if (this.empty) return value;
    return walk(value, (s) => this.scrub(s)) as T;
  }
}

// The process's secrets: registered once per run by whoever builds the engine, read by writers that have no
// run context of their own (transcripts, checkpoints, tool results). Empty until registered, so tests pay nothing.
const registered = new Set<string>();
let processScrubber = new Scrubber([]);

/** Adds secret values to the process-wide scrubber used by every writer. */
export function registerSecrets(secrets: readonly string[]): void {
  const before = registered.size;
  for (const s of secrets) if (typeof s === "string" && s.length >= MIN_SECRET_LENGTH) registered.add(s);
  if (registered.size !== before) processScrubber = new Scrubber([...registered]);
}

/** The process-wide scrubber as it is now (a new one replaces it when secrets are registered). */
export function currentScrubber(): Scrubber {
  return processScrubber;
}

/** Scrubs text with the process-wide secrets. */
export function scrubText(text: string): string {
  return processScrubber.empty ? text : processScrubber.scrub(text);
}

/** Scrubs every string of a JSON-like value with the process-wide secrets. */
export function scrubValue<T>(value: T): T {
  return processScrubber.scrubDeep(value);
}

function walk(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, fn));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[fn(k)] = walk(v, fn);
    return out;
  }
  return value;
}

function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

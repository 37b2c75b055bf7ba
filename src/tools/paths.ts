import fs from "node:fs";
import path from "node:path";
import { fromAlias } from "../paths/alias-path.js";
import { normaliseName, sensitiveReason } from "../secrets/sensitive.js";

export type ResolvedPath = { ok: true; abs: string; rel: string } | { ok: false; reason: string };

/** Directories the model may never read or write: git internals (hooks run code) and yolo's own state. */
const PROTECTED_DIRS = new Set([".git", ".yolo"]);

// Control characters (including NUL, C1 controls and invisible bidi/zero-width marks) never belong in a file name
// the model meant to type; the invisible ones also make a path look like another.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
// Percent-escapes and URLs are refused, never decoded: decoding is how `%2e%2e/` becomes `../`.
const PERCENT_ESCAPE = /%[0-9a-f]{2}/i;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:(\/\/|[\\/])/i;
/** Limits of Linux: whole path and one name, in bytes. */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
const KERNEL_FS = /^\/(proc|sys|dev)(\/|$)/;

/**
 * Resolves a model-supplied path against the project root and decides whether a tool may touch it.
 * `abs` is the lexical absolute path (so callers can still see a symlink at the target itself);
 * containment is decided on the real path of the deepest existing ancestor, so symlinks cannot escape.
 * Reasons are written for the model and never contain the absolute root path.
 */
export function resolveInside(root: string, userPath: string): ResolvedPath {
  if (typeof userPath !== "string" || userPath.trim() === "") {
    return refuse("The path is empty; give a path relative to the project root, e.g. `src/index.ts` (use `.` for the root itself).");
  }
  // The model sees the project as `@project/…` and may type paths back that way.
  userPath = fromAlias(userPath);
  if (CONTROL_CHARS.test(userPath)) {
    return refuse("The path contains control characters (e.g. NUL or a newline); give a plain path relative to the project root.");
  }
  if (URL_SCHEME.test(userPath)) {
    return refuse("URLs (such as `file://…`) are not accepted; give a plain path relative to the project root, e.g. `src/index.ts`.");
  }
  if (PERCENT_ESCAPE.test(userPath)) {
    return refuse("The path contains a percent-escape (e.g. `%2e`); escapes are not decoded, so type the characters themselves.");
  }
  if (Buffer.byteLength(userPath) > MAX_PATH_BYTES || userPath.split(/[\\/]/).some((n) => Buffer.byteLength(n) > MAX_NAME_BYTES)) {
    return refuse(`The path is too long (at most ${MAX_PATH_BYTES} bytes, ${MAX_NAME_BYTES} per name); use a shorter path.`);
  }
  if (KERNEL_FS.test(userPath.replace(/\/+/g, "/"))) {
    return refuse("`/proc`, `/sys` and `/dev` are off limits; only files of the project can be used.");
  }
  if (userPath.split(/[\\/]/).some((n) => n !== "." && n !== ".." && n !== "" && /^[. ]+$/.test(n))) {
    return refuse("A name made only of dots and spaces (such as `...` or `.. `) is ambiguous; use ordinary names.");
  }
  if (path.isAbsolute(userPath)) return refuseAbsolute(root, userPath);
  if (userPath === "~" || userPath.startsWith("~/")) {
    return refuse(`\`${userPath}\` points into a home directory; only paths relative to the project root are allowed, e.g. \`src/index.ts\`.`);
  }

  const abs = path.resolve(root, userPath);
  const rel = path.relative(root, abs);
  if (isOutside(rel)) {
    return refuse(`\`${userPath}\` resolves outside the project root; use a path inside the project, e.g. \`src/index.ts\`.`);
  }
  const protectedDir = sensitiveReason(rel);
  if (protectedDir) return refuseProtected(userPath, protectedDir);

  const realRel = realRelative(root, abs);
  if (realRel === null || isOutside(realRel)) {
    return refuse(
      `\`${userPath}\` goes through a symbolic link that points outside the project root (or to nothing); use a path whose real location is inside the project.`,
    );
  }
  const realProtected = sensitiveReason(realRel);
  if (realProtected) return refuseProtected(userPath, realProtected);

  return { ok: true, abs, rel: toPosix(rel) };
}

/** True when a name is a directory the tools must skip (`.git`, `.yolo`, any case, trailing dots/spaces ignored). */
export function isProtectedName(name: string): boolean {
  return PROTECTED_DIRS.has(normaliseName(name));
}

/** Shows a project-relative path the way the model should type it back (`.` for the root). */
export function displayPath(rel: string): string {
  return rel === "" ? "." : rel;
}

function refuse(reason: string): ResolvedPath {
  return { ok: false, reason };
}

// Absolute input is refused, but when it happens to lie inside the project we suggest the relative form
// instead of echoing it (the echo could reveal the absolute root path).
function refuseAbsolute(root: string, userPath: string): ResolvedPath {
  const rel = path.relative(root, path.resolve(userPath));
  const hint = !isOutside(rel) && rel !== "" ? ` (here: \`${toPosix(rel)}\`)` : "";
  return refuse(`Absolute paths are not accepted; use a path relative to the project root${hint}, e.g. \`src/index.ts\`.`);
}

function refuseProtected(userPath: string, dir: string): ResolvedPath {
  return refuse(`\`${userPath}\` is or is inside ${dir}, which tools may not read or change; work on the project's own files instead.`);
}

function isOutside(rel: string): boolean {
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

// Realpath of the deepest ancestor that exists (lstat, so a dangling symlink counts as existing and is then
// refused by realpath), re-joined with the not-yet-existing remainder. null when it cannot be resolved.
function realRelative(root: string, abs: string): string | null {
  let existing = abs;
  const missing: string[] = [];
  while (!lexists(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) return null;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  try {
    const realRoot = fs.realpathSync(root);
    const real = path.join(fs.realpathSync(existing), ...missing);
    return path.relative(realRoot, real);
  } catch {
    return null;
  }
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function toPosix(rel: string): string {
  return path.sep === "/" ? rel : rel.split(path.sep).join("/");
}

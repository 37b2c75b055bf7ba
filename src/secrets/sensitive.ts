/**
 * Files inside the project that tools must neither read nor write: credentials, code that runs outside the
 * sandbox (git hooks, CI workflows, shell start-up files) and yolo's own state. Names are compared after
 * normalisation (Unicode compatibility forms folded, lower case, trailing dots and spaces dropped), because some filesystems treat `.ENV. ` as `.env`.
 */

/** Directories whose whole subtree is off limits. */
const SENSITIVE_DIRS = new Set([".git", ".yolo", ".ssh", ".gnupg", ".aws"]);

/** Exact file names (after normalisation) that hold credentials. */
const CREDENTIAL_FILES = [
  ".npmrc",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".git-credentials",
  ".pgpass",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "id_ecdsa_sk",
  "id_ed25519_sk",
];

/** Exact file names (after normalisation): the credential files and the shells' start-up code. */
const SENSITIVE_FILES = new Set([
  ...CREDENTIAL_FILES,
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".mkshrc",
]);

/** Extensions of private keys and key stores. */
const KEY_EXTENSIONS = [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk"];

/** `.env` files that hold no secrets by convention. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template", ".env.dist"]);

/** A name as the filesystem may treat it: lower case, without trailing dots and spaces. */
export function normaliseName(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[. ]+$/, "");
}

/** Why a project-relative path (segments, POSIX or native separators) is sensitive, or null when it is not. */
export function sensitiveReason(rel: string): string | null {
  const segments = rel.split(/[\\/]+/).filter((s) => s !== "" && s !== ".");
  let parent = "";
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i];
    const name = normaliseName(raw);
    const reason = sensitiveSegment(parent, name, raw, i === segments.length - 1);
    if (reason !== null) return reason;
    parent = name;
  }
  return null;
}

/**
 * The rule of sensitiveReason for one segment: its normalised `name` (`raw` as written) after the normalised
 * `parent` ("" at the project root), the path's last segment or not. The walkers that have checked every folder above
 * an entry (src/exec/protected-paths.ts) ask only this, once per entry, instead of the whole path again.
 */
export function sensitiveSegment(parent: string, name: string, raw: string, last: boolean): string | null {
  if (name === "" && raw !== "") return `\`${raw}\` (a name of only dots or spaces)`;
  if (SENSITIVE_DIRS.has(name)) return `\`${name}\``;
  if (parent === ".github" && name === "workflows") return "`.github/workflows` (CI workflows run with the repository's credentials)";
  if (parent === ".cache" && name === "yolo") return "`.cache/yolo` (yolo's own caches hold code it runs outside the sandbox)";
  if (!last) return null;
  if (SENSITIVE_FILES.has(name)) return `\`${name}\` (credentials or shell start-up code)`;
  if (isEnvFile(name)) return `\`${name}\` (environment files hold secrets; \`.env.example\` is allowed)`;
  if (KEY_EXTENSIONS.some((ext) => name.endsWith(ext))) return `\`${name}\` (a private key or key store)`;
  return null;
}

/**
 * Whether a project-relative path names a file that holds secrets by its name: an environment file (not a template),
 * a credentials file, a private key or key store, or anything under `.ssh`, `.gnupg` or `.aws`. A tracked one is in
 * git's history, where no file tool's refusal keeps a model from reading it.
 */
export function looksLikeSecret(rel: string): boolean {
  const segments = rel
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".")
    .map(normaliseName);
  const name = segments.at(-1) ?? "";
  if (segments.slice(0, -1).some((s) => s === ".ssh" || s === ".gnupg" || s === ".aws")) return true;
  return CREDENTIAL_FILES.includes(name) || isEnvFile(name) || KEY_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** True for a name the file walkers (list, search) must skip, at any depth. */
export function isSensitiveName(name: string): boolean {
  return sensitiveReason(name) !== null;
}

function isEnvFile(name: string): boolean {
  if (ENV_TEMPLATES.has(name)) return false;
  return name === ".env" || name.startsWith(".env.") || name.endsWith(".env");
}

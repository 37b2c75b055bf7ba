/**
 * Name parts that mark a variable as secret. Matched against whole parts of the name (split on `_`, `-`, `.`
 * and camelCase), so `OPENAI_API_KEY` and `MY_TOKEN` go while `MONKEY`, `KEYBOARD_LAYOUT` and `GIT_AUTHOR_NAME` stay.
 */
const SECRET_PARTS = new Set([
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "KEY",
  "KEYS",
  "APIKEY",
  "PASSWORD",
  "PASSWORDS",
  "PASSWD",
  "PASS",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "CREDS",
  "AUTH",
  "OAUTH",
  "PRIVATE",
  "COOKIE",
  "COOKIES",
  "SESSION",
  "PAT",
  "DSN",
]);

/** Fragments that are secret wherever they appear inside one part (`AUTHTOKEN`, `DBPASSWORD`, `XSECRET`). */
const SECRET_FRAGMENTS = ["SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "AUTHTOKEN", "ACCESSTOKEN", "PRIVATEKEY", "ACCESSKEY"];

// A value like `postgres://user:pw@host/db` carries a password whatever its variable is called.
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/**
 * A copy of `env` without variables that look like credentials, and without `extraNames`
 * (e.g. the API key variable the config names). Commands the model runs must not be able to read them.
 */
export function scrubEnv(env: NodeJS.ProcessEnv, extraNames: string[]): NodeJS.ProcessEnv {
  const extra = new Set(extraNames);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || extra.has(name) || isSecretName(name) || URL_WITH_PASSWORD.test(value)) continue;
    out[name] = value;
  }
  return out;
}

/** Whether a variable name looks like it holds a secret (exported for tests and for log redaction). */
export function isSecretName(name: string): boolean {
  return nameParts(name).some((part) => SECRET_PARTS.has(part) || SECRET_FRAGMENTS.some((fragment) => part.includes(fragment)));
}

// Splits on separators and camelCase humps, and also keeps each separator-delimited chunk whole so that
// `npm_config__authToken` yields both `AUTH`/`TOKEN` and `AUTHTOKEN`.
function nameParts(name: string): string[] {
  const chunks = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const parts = new Set<string>();
  for (const chunk of chunks) {
    parts.add(chunk.toUpperCase());
    for (const hump of chunk.split(/(?<=[a-z0-9])(?=[A-Z])/)) parts.add(hump.toUpperCase());
  }
  return [...parts];
}

/**
 * Commands get only these variables (plus the configured `env.allow`), in CI and out: an environment holds credentials
 * under names no pattern can guess (`MYSQL_PWD`, `SLACK_WEBHOOK_URL`, `CI_JOB_JWT`, a CI job's deploy keys). What a
 * build needs: the shell's basics, locale, temp folders, and the toolchains' own settings. `*` matches any characters.
 */
export const CI_ENV_ALLOW: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "COLORTERM",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  "CI",
  "NODE_ENV",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  // toolchains: where they are installed and how they build (no registry credentials: those names are secret-looking)
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "GOCACHE",
  "GOMODCACHE",
  "GOTOOLCHAIN",
  "GO111MODULE",
  "CGO_ENABLED",
  "CARGO_HOME",
  "CARGO_TARGET_DIR",
  "RUSTUP_HOME",
  "RUSTUP_TOOLCHAIN",
  "RUSTFLAGS",
  "JAVA_HOME",
  "MAVEN_OPTS",
  "MAVEN_HOME",
  "M2_HOME",
  "GRADLE_USER_HOME",
  "GRADLE_OPTS",
  "PYTHONPATH",
  "PYTHONDONTWRITEBYTECODE",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "GEM_HOME",
  "GEM_PATH",
  "BUNDLE_PATH",
  "DOTNET_ROOT",
  "NVM_DIR",
  "NVM_BIN",
  "VOLTA_HOME",
  "PNPM_HOME",
  "BUN_INSTALL",
  "DENO_DIR",
  "CC",
  "CXX",
  "CFLAGS",
  "CXXFLAGS",
  "LDFLAGS",
  "PKG_CONFIG_PATH",
  "LD_LIBRARY_PATH",
  "MAKEFLAGS",
];

/**
 * The environment a command starts from: scrubbed of secrets, and when `allow` is given (every run: CI_ENV_ALLOW plus
 * `env.allow`), only the variables whose names match it. Secret-looking names are removed even when allow-listed.
 */
export function commandEnv(env: NodeJS.ProcessEnv, secretNames: string[], allow: readonly string[] | null): NodeJS.ProcessEnv {
  const scrubbed = scrubEnv(env, secretNames);
  if (allow === null) return scrubbed;
  const patterns = allow.map((name) => new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`));
  return Object.fromEntries(Object.entries(scrubbed).filter(([name]) => patterns.some((p) => p.test(name))));
}

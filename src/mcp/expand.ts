/**
 * `${VAR}` and `${VAR:-default}` in a configured value, read from yolo's environment, as `.mcp.json` files for the
 * other CLIs write them. This is how a secret reaches a server: only when its entry names the variable.
 */
export function expandVars(value: string, env: Readonly<Record<string, string | undefined>>, missing: string[] = []): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback === undefined) missing.push(name);
    return fallback ?? "";
  });
}

/** Every value of a map expanded; the names of variables that were unset are added to `missing`. */
export function expandMap(
  map: Record<string, string> | undefined,
  env: Readonly<Record<string, string | undefined>>,
  missing: string[],
): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, expandVars(v, env, missing)]));
}

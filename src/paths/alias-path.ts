/** What the model calls the repository and yolo's run folder: the file tools resolve these, the prompt names them. Free of imports. */
export const PROJECT_ALIAS = "@project";
export const STATE_ALIAS = "@state";

/** A model-typed alias as a path relative to the project root (`@state/x` is `.yolo/x`); other paths unchanged. */
export function fromAlias(userPath: string): string {
  for (const [alias, rel] of [
    [PROJECT_ALIAS, "."],
    [STATE_ALIAS, ".yolo"],
  ] as const) {
    if (userPath === alias || userPath === `${alias}/`) return rel;
    if (userPath.startsWith(`${alias}/`)) return `${rel}/${userPath.slice(alias.length + 1)}`;
  }
  return userPath;
}

export type RendererKind = "json" | "plain" | "ink";

export interface ChooseRendererInput {
  /** `--json` */
  json: boolean;
  /** `--tui` (true), `--no-tui` (false), or neither (undefined). */
  tui: boolean | undefined;
  /** Whether stdout is a terminal. */
  isTTY: boolean;
  /** The environment, as resolved once by the CLI. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Picks the renderer: `--json` wins, then an explicit `--tui` / `--no-tui`; otherwise Ink only on a
 * real terminal outside CI and not on a dumb terminal, since Ink off a TTY floods the output with
 * cursor-control codes (STACK-NOTES: "Ink off a terminal").
 */
export function chooseRendererKind({ json, tui, isTTY, env }: ChooseRendererInput): RendererKind {
  if (json) return "json";
  if (tui === true) return "ink";
  if (tui === false) return "plain";
  const inCi = (env.CI ?? "") !== "";
  return isTTY && !inCi && env.TERM !== "dumb" ? "ink" : "plain";
}

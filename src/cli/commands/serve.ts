import { databaseExists, openIndex } from "../../engine/api-light.js";
import { ConfigError } from "../../errors.js";
import { isLoopback, newToken } from "../../serve/security.js";
import { startServer } from "../../serve/server.js";
import { loadResolvedConfig } from "../load-config.js";
import { openerFor, openTarget, startOpener } from "../open-browser.js";
import { threadSource } from "../serve-source.js";

export interface ServeFlags {
  host: string;
  port: number;
  open: boolean;
  all: boolean;
  /** YOLO_SERVE_TOKEN, read by main (deeper code never reads the environment). */
  token: string | undefined;
  /** BROWSER, read by main: the command `--open` starts (none: the desktop's opener). */
  browser?: string | undefined;
}

/**
 * `yolo serve`: the web view of this repository's threads (or the whole database with --all) and evals, until
 * Ctrl+C. Loopback needs no token; any other address gets YOLO_SERVE_TOKEN or a generated one, printed in the URL.
 */
export async function serveCommand(input: { cwd: string; flags: ServeFlags }): Promise<number> {
  const { flags } = input;
  const token = flags.token || (isLoopback(flags.host) ? null : newToken());
  if (!isLoopback(flags.host) && !token)
    throw new ConfigError(`yolo serve --host ${flags.host} needs a token; set YOLO_SERVE_TOKEN or leave it empty to have one generated.`);
  const config = await loadResolvedConfig(input.cwd);
  const index = databaseExists(config) ? await openIndex(config) : null;
  const server = await startServer(threadSource(config, index, flags.all), { host: flags.host, port: flags.port, token });
  process.stdout.write(`yolo serve: ${server.url}\n`);
  if (token && !flags.token) process.stdout.write("The token was generated for this start (set YOLO_SERVE_TOKEN to choose one).\n");
  process.stdout.write("Ctrl+C stops it.\n");
  const opened = flags.open ? openPage(server.url, !!token, flags.browser) : null;
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  opened?.remove();
  await index?.close();
  return 0;
}

// `--open`: BROWSER or the desktop's opener, detached; if it cannot start, the printed URL is still there.
function openPage(url: string, hasToken: boolean, browser: string | undefined): { remove(): void } {
  const target = openTarget(url, hasToken);
  const opener = openerFor(target.target, browser, process.platform);
  startOpener(opener, (why) => process.stderr.write(`yolo serve: ${why}; open ${hasToken ? "the URL above" : url} yourself.\n`));
  return target;
}

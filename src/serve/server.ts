import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { CSS, LIVE_JS } from "./assets.js";
import { html } from "./html.js";
import { ListReadings } from "./list-readings.js";
import { LiveUpdates } from "./live.js";
import { evalsPage } from "./pages/evals.js";
import { page } from "./pages/layout.js";
import { listPage } from "./pages/list.js";
import { threadPage } from "./pages/thread.js";
import { csrfFor, newToken, sameOrigin, sameSecret, securityHeaders, tokenCookie, tokenOf } from "./security.js";
import type { ThreadSource } from "./source.js";
import { readReply } from "./reply.js";

/** How `yolo serve` listens: the address, the port (0: any free one) and the token (null: none, loopback only). */
export interface ServeOptions {
  host: string;
  port: number;
  token: string | null;
}

/** A running web view: its URL (with the token when one is set, to open once) and how to stop it. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the web view over `source` (see docs/serve.md). */
export async function startServer(source: ThreadSource, options: ServeOptions): Promise<RunningServer> {
  const secret = newToken();
  // Kept for the server's life: the list reads a thread's state again only when what it rests on changed.
  const readings = new ListReadings(source);
  const live = new LiveUpdates(
    () => source.list(),
    (id) => source.latestCheckpoint(id),
  );
  const server = createServer((req, res) => {
    started.set(res, performance.now());
    securityHeaders(res);
    handle(req, res, { source, options, secret, live, readings }).catch((error: unknown) =>
      fail(res, 500, `The page could not be made: ${(error as Error)?.message ?? String(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // The list's first reading decodes the newest threads' states (about 1.7 ms each, 200 shown, plus the page's
  // modules): made here, before the address is printed, so the first page a user opens is as quick as the next. A
  // failure here is left to that page to report. A store that keeps nothing (PostgreSQL) reads each page anew.
  if (source.keepsReadings) await listPage(source, new URL("http://localhost/"), readings).catch(() => {});
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}/${options.token ? `?token=${encodeURIComponent(options.token)}` : ""}`;
  return { url, close: () => closeServer(server, live) };
}

interface Context {
  source: ThreadSource;
  options: ServeOptions;
  secret: string;
  live: LiveUpdates;
  readings: ListReadings;
}

// One request: the token first (when one is set), then the route.
async function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  const url = new URL(req.url ?? "/", "http://serve.invalid");
  if (url.pathname === "/static/serve.js") return send(res, 200, "text/javascript; charset=utf-8", LIVE_JS);
  if (url.pathname === "/static/serve.css") return send(res, 200, "text/css; charset=utf-8", CSS);
  // Browsers ask for it on their own: no icon, and no 404 in the console.
  if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
  const { token } = ctx.options;
  if (token) {
    if (!sameSecret(tokenOf(req, url), token)) return fail(res, 401, "This yolo serve needs its token: open the URL it printed (with ?token=…).");
    if (url.searchParams.has("token")) {
      // The printed URL: keep the token in a cookie and take it out of the address bar (and of the history).
      url.searchParams.delete("token");
      res.setHeader("Set-Cookie", tokenCookie(token));
      return redirect(res, url.pathname + url.search);
    }
  }
  if (req.method === "POST") return post(req, res, url, ctx);
  if (req.method !== "GET" && req.method !== "HEAD") return fail(res, 405, "Only GET, and POST for a reply.");
  if (url.pathname === "/") return send(res, 200, "text/html; charset=utf-8", await listPage(ctx.source, url, ctx.readings));
  if (url.pathname === "/evals") return send(res, 200, "text/html; charset=utf-8", evalsPage(ctx.source.evals()));
  if (url.pathname === "/events") return ctx.live.subscribe(res, url.searchParams.get("topic") ?? "list");
  if (url.pathname.startsWith("/evals/")) return evalTask(res, url.pathname, ctx);
  const id = threadOf(url.pathname, "");
  if (id === null) return fail(res, 404, "No such page.");
  const row = await ctx.source.row(id);
  if (!row) return fail(res, 404, `No thread ${id} in this view.`);
  const notice = url.searchParams.get("saved") === "1" ? `Reply saved. Continue the thread with ${ctx.source.resumeCommand(id)} (a CI job can).` : null;
  return send(res, 200, "text/html; charset=utf-8", await threadPage(ctx.source, row, { csrf: csrfFor(ctx.secret, id), notice }));
}

// An eval task's thread (`/evals/<eval>/<model folder>/<task>`), read from the task's own database; no reply form.
async function evalTask(res: ServerResponse, path: string, ctx: Context): Promise<void> {
  const parts = path.slice("/evals/".length).split("/");
  const names = parts.length === 3 ? parts.map(decoded) : [];
  if (names.length !== 3 || names.some((n) => n === null)) return fail(res, 404, "No such page.");
  const [name, modelDir, task] = names as string[];
  const found = await ctx.source.evalThread(name, modelDir, task);
  if (!found) return fail(res, 404, `No thread for task ${task} of model ${modelDir} in eval ${name} (its worktree may be gone).`);
  try {
    const evalTask = { eval: found.eval, task: found.result.task, model: found.result.model, href: "/evals" };
    send(res, 200, "text/html; charset=utf-8", await threadPage(found.source, found.row, { csrf: null, notice: null, evalTask }));
  } finally {
    await found.close();
  }
}

// A reply to a waiting thread: same origin, the page's CSRF token, then saved; the browser is sent back to the thread.
async function post(req: IncomingMessage, res: ServerResponse, url: URL, ctx: Context): Promise<void> {
  const id = threadOf(url.pathname, "/reply");
  if (id === null) return fail(res, 404, "No such action.");
  if (!sameOrigin(req)) return fail(res, 403, "Refused: the request did not come from a page of this server.");
  const form = await readReply(req);
  if ("error" in form) return fail(res, 400, form.error);
  if (!sameSecret(form.csrf, csrfFor(ctx.secret, id)))
    return fail(res, 403, "Refused: the form is from another page or an earlier server; reload the thread and reply again.");
  try {
    await ctx.source.reply(id, form.reply);
  } catch (error) {
    return fail(res, 409, `Nothing was saved: ${(error as Error)?.message ?? String(error)}`);
  }
  redirect(res, `/threads/${encodeURIComponent(id)}?saved=1`);
}

// The thread id of `/threads/<id><suffix>`, or null.
function threadOf(path: string, suffix: string): string | null {
  const m = /^\/threads\/([^/]+)$/.exec(suffix ? path.slice(0, -suffix.length) : path);
  if (!m || (suffix && !path.endsWith(suffix))) return null;
  return decoded(m[1]);
}

// A path segment decoded, or null when it is not valid percent-encoding.
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

// When each request came: a page says how long it took to make (Server-Timing, read by the browser test and devtools).
const started = new WeakMap<ServerResponse, number>();

function send(res: ServerResponse, status: number, type: string, body: string): void {
  const since = started.get(res);
  if (since !== undefined) res.setHeader("Server-Timing", `page;dur=${(performance.now() - since).toFixed(0)}`);
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  send(res, status, "text/html; charset=utf-8", page("Error", html`<h1>${String(status)}</h1><p id="error">${message}</p>`));
}

function redirect(res: ServerResponse, to: string): void {
  res.writeHead(303, { Location: to });
  res.end();
}

async function closeServer(server: Server, live: LiveUpdates): Promise<void> {
  live.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

import { execFileSync } from "node:child_process";
import { copyFileSync, linkSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { primeBunxCache } from "../helpers/bunx-cache.js";
import { primeNpxCache } from "../helpers/npx-cache.js";
import { PIPX_APP, pipxWheel, primePipxCache } from "../helpers/pipx-cache.js";
import { requireTool } from "../helpers/requires.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

type Check = { id: string; status: string; detail: string };
const byId = (stdout: string, id: string) => (JSON.parse(stdout) as { checks: Check[] }).checks.find((c) => c.id === id);

/**
 * `yolo doctor --json` with the sandbox required, a `notes` server whose package the runner has cached under `home` and
 * an `absent` one it never ran: the first lists its two tools; the second warns at once, naming `missing`. `env`: more of
 * yolo's environment (`undefined` removes a variable).
 */
async function doctorSeesCache(
  home: string,
  runner: string,
  notes: string[],
  absent: string[],
  missing: string,
  env: Record<string, string | undefined> = {},
): Promise<void> {
  const root = project(onTestFinished, {
    ".mcp.json": JSON.stringify({
      mcpServers: { notes: { command: runner, args: notes }, absent: { command: runner, args: absent, optional: true } },
    }),
  });
  const mock = await mockWith(onTestFinished, () => ({ content: "ok" }));
  const r = await runYolo(["doctor", "--json"], {
    cwd: root,
    baseURL: mock.url,
    env: { HOME: home, YOLO_MODEL: "mock-model", YOLO_SANDBOX: "required", ...env },
  });
  expect(byId(r.stdout, "sandbox")?.status, describeResult(r)).toBe("ok");
  expect(byId(r.stdout, "mcp:notes"), describeResult(r)).toMatchObject({ status: "ok", detail: expect.stringMatching(/^2 tools over stdio/) });
  const warned = byId(r.stdout, "mcp:absent");
  expect(warned?.status, describeResult(r)).toBe("warn");
  expect(warned?.detail).toContain(missing);
  expect(warned?.detail).not.toContain("did not answer within");
}

/**
 * `npx -y @scope/pkg` (the form MCP's docs show), `pipx run <app>` and `bunx <pkg>` with the sandbox on (no network, the
 * home folder hidden): a package the runner has run before starts from the user's cache, which stays read-only; one
 * that is not there fails at once, naming the cache folder it was looked for in.
 */
describe("MCP servers started with npx -y, pipx run or bunx from the user's cache, in the sandbox", () => {
  it("yolo doctor lists the cached server's tools; an uncached one names the npx cache it is missing from", async () => {
    const home = tempDir(onTestFinished, "yolo-npx-home-");
    await primeNpxCache(home, "@yolo-test/notes-server");
    const missing = `\`@yolo-test/never-run-server\` is not in your npx cache, ${join(home, ".npm", "_npx")}`;
    await doctorSeesCache(home, "npx", ["-y", "@yolo-test/notes-server"], ["-y", "@yolo-test/never-run-server"], missing);
  });

  it("pipx run: yolo doctor lists the tools of a package pipx ran before; an uncached one names the pipx cache", async (ctx) => {
    requireTool(ctx, "pipx", "a `pipx run` MCP server");
    const home = tempDir(onTestFinished, "yolo-pipx-home-");
    primePipxCache(home, pipxWheel(tempDir(onTestFinished, "yolo-pipx-wheel-")));
    const missing = `\`yolo-never-run-server\` is not in your pipx cache, ${join(home, ".local/pipx/.cache")}`;
    await doctorSeesCache(home, "pipx", ["run", PIPX_APP], ["run", "yolo-never-run-server"], missing);
  });

  it("bunx, and bun x --bun: yolo doctor lists the tools of a package bunx ran before, in Node or bun; an uncached one names the bunx cache", async (ctx) => {
    requireTool(ctx, "bun", "a `bunx` MCP server");
    const home = tempDir(onTestFinished, "yolo-bunx-home-");
    await primeBunxCache(home, "@yolo-test/notes-server");
    const missing = `\`@yolo-test/never-run-server\` is not in your bunx cache, ${join(home, ".bun/install/cache", `.bunx-${process.getuid?.()}`)}`;
    // bun's cache is under the home folder, as the priming bunx left it: not under the tests' shared XDG_CACHE_HOME.
    const env: Record<string, string | undefined> = { XDG_CACHE_HOME: undefined };
    // Without --bun the package's program runs in Node (its shebang): the server exits if bun runs it.
    await doctorSeesCache(home, "bunx", ["@yolo-test/notes-server"], ["@yolo-test/never-run-server"], missing, env);
    // With --bun it must run in bun, installed as bun's own installer puts it: in ~/.bun/bin, hidden in the sandbox.
    const bin = join(home, ".bun/bin");
    mkdirSync(bin, { recursive: true });
    const bun = realpathSync(execFileSync("sh", ["-c", "command -v bun"], { encoding: "utf8" }).trim());
    try {
      linkSync(bun, join(bin, "bun"));
    } catch {
      copyFileSync(bun, join(bin, "bun"));
    }
    const notes = ["x", "--bun", "@yolo-test/notes-server", "--runtime=bun"];
    const absent = ["x", "--bun", "@yolo-test/never-run-server"];
    await doctorSeesCache(home, "bun", notes, absent, missing, { ...env, PATH: `${bin}:${process.env.PATH}` });
  });
});

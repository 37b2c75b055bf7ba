import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { primeNpxCache } from "../helpers/npx-cache.js";
import { PIPX_APP, pipxWheel, primePipxCache } from "../helpers/pipx-cache.js";
import { requireTool } from "../helpers/requires.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

type Check = { id: string; status: string; detail: string };
const byId = (stdout: string, id: string) => (JSON.parse(stdout) as { checks: Check[] }).checks.find((c) => c.id === id);

/**
 * `npx -y @scope/pkg`, the form MCP's docs show, with the sandbox on (no network, the home folder hidden): a package
 * npx has run before starts from the user's npx cache, which stays read-only; one that is not there fails at once,
 * naming the cache folder it was looked for in.
 */
/**
 * `yolo doctor --json` with the sandbox required, a `notes` server whose package the runner has cached under `home` and
 * an `absent` one it never ran: the first lists its two tools; the second warns at once, naming `missing`.
 */
async function doctorSeesCache(home: string, runner: string, notes: string[], absent: string[], missing: string): Promise<void> {
  const root = project(onTestFinished, {
    ".mcp.json": JSON.stringify({
      mcpServers: { notes: { command: runner, args: notes }, absent: { command: runner, args: absent, optional: true } },
    }),
  });
  const mock = await mockWith(onTestFinished, () => ({ content: "ok" }));
  const r = await runYolo(["doctor", "--json"], {
    cwd: root,
    baseURL: mock.url,
    env: { HOME: home, YOLO_MODEL: "mock-model", YOLO_SANDBOX: "required" },
  });
  expect(byId(r.stdout, "sandbox")?.status, describeResult(r)).toBe("ok");
  expect(byId(r.stdout, "mcp:notes"), describeResult(r)).toMatchObject({ status: "ok", detail: expect.stringMatching(/^2 tools over stdio/) });
  const warned = byId(r.stdout, "mcp:absent");
  expect(warned?.status, describeResult(r)).toBe("warn");
  expect(warned?.detail).toContain(missing);
  expect(warned?.detail).not.toContain("did not answer within");
}

describe("MCP servers started with npx -y or pipx run from the user's cache, in the sandbox", () => {
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
});

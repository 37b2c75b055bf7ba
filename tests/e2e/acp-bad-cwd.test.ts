import { join } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpEditor } from "../helpers/acp-editor.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

/** A session's folder that cannot be one (missing, relative, a file) is refused as invalid params, naming why. */
describe("yolo acp, a session/new or session/load cwd that is no folder", { timeout: 240_000 }, () => {
  it("is a -32602 error naming the problem, for session/new and session/load", async () => {
    const project = makeProject();
    cleanups.push(project.cleanup);
    const ed = acpEditor(project.root, "http://127.0.0.1:9/v1", cleanups);
    const cases: [string, RegExp][] = [
      [join(project.root, "no-such-dir"), /does not exist/],
      ["relative/dir", /not an absolute path/],
      [join(project.root, "package.json"), /not a folder/],
    ];
    await ed.use(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      for (const [cwd, reason] of cases) {
        for (const call of [
          () => ctx.request("session/new", { cwd, mcpServers: [] }),
          () => ctx.request("session/load", { sessionId: "some-thread", cwd, mcpServers: [] }),
        ]) {
          const error = await call().then(
            () => null,
            (e: unknown) => e,
          );
          expect(error, cwd).toBeInstanceOf(RequestError);
          const { code, message, data } = error as RequestError;
          expect(code, cwd).toBe(-32602);
          expect(`${message} ${JSON.stringify(data)}`, cwd).toMatch(reason);
          expect(`${message} ${JSON.stringify(data)}`, cwd).toContain(cwd);
        }
      }
      const ok = await ctx.request("session/new", { cwd: project.root, mcpServers: [] });
      expect(ok.sessionId).toMatch(/^yolo-/);
    });
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { userConfigSchema, type UserConfig, type UserLevelConfig } from "../../../src/config/schema.js";
import { ConfigError } from "../../../src/errors.js";
import { setUpHooks } from "../../../src/hooks/setup.js";
import { noticeText } from "../../../src/cli/wording/notice-text.js";
import { sayNotice } from "../../../src/engine/notices.js";
import { hookSetHash, trustHooks, trustStoreFile } from "../../../src/hooks/trust.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "yolo-hookcfg-"));
  dirs.push(d);
  return d;
}

const problems = (value: unknown) => {
  try {
    validateConfig(value, "yolo.config.ts");
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

const guard = {
  PreToolUse: [
    {
      matcher: "run_command",
      hooks: [{ type: "command" as const, command: "sh guard.sh" }],
    },
  ],
};

describe("`hooks` in the config files", () => {
  it("takes Claude Code's shape in both files", () => {
    expect(problems({ hooks: guard })).toEqual([]);
    expect(userConfigSchema.safeParse({ hooks: guard }).success).toBe(true);
  });

  it("refuses what would silently do nothing or something else, each with its path", () => {
    expect(
      problems({
        hooks: {
          PreToolUse: [{ matcher: "([", hooks: [{ type: "command", command: "x" }] }],
          PostToolUse: [{ hooks: [{ type: "http", url: "https://x" }] }],
          RunEnd: [{ hooks: [{ type: "command", command: "x", failClosed: true }] }],
          Stop: [],
          NodeStart: [{ hooks: [{ type: "command", command: " ", timeout: 0 }] }],
        },
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hooks\.PreToolUse\[0\]\.matcher: not a valid regular expression/),
        expect.stringMatching(/^hooks\.PostToolUse\[0\]\.hooks\[0\]\.type: /),
        "hooks.PostToolUse[0].hooks[0].url: unknown key; known keys: type, command, timeout, failClosed, host",
        expect.stringMatching(/^hooks\.NodeStart\[0\]\.hooks\[0\]\.command: /),
        expect.stringMatching(/^hooks\.NodeStart\[0\]\.hooks\[0\]\.timeout: /),
        "hooks.Stop: unknown key; known keys: PreToolUse, PostToolUse, NodeStart, NodeEnd, GateEnd, RunEnd",
      ]),
    );
    expect(
      problems({
        hooks: {
          RunEnd: [{ hooks: [{ type: "command", command: "x", failClosed: true }] }],
        },
      }),
    ).toEqual(["hooks.RunEnd[0].hooks[0].failClosed: RunEnd hooks cannot block (the run is already over); remove failClosed"]);
  });

  it("YOLO_TRUST_PROJECT_HOOKS takes 1 or 0 and nothing else", () => {
    const resolve = (value: string) =>
      resolveConfig({
        root: "/p",
        fileConfig: {},
        file: null,
        env: { YOLO_TRUST_PROJECT_HOOKS: value },
      });
    expect(resolve("1").hooks.trustProject).toBe(true);
    expect(resolve("0").hooks.trustProject).toBe(false);
    expect(() => resolve("yes")).toThrow(/YOLO_TRUST_PROJECT_HOOKS: must be 1 or 0/);
  });
});

describe("which hooks a run uses", () => {
  const setUp = (user: UserLevelConfig, repo: UserConfig, root: string, env: Record<string, string>) =>
    setUpHooks(
      resolveConfig({
        root,
        fileConfig: repo,
        file: join(root, "yolo.config.ts"),
        env,
        userConfig: { file: "/u/config.ts", config: user },
      }),
      env,
    );

  it("the user's own always; the repository's not without consent, with a notice that names them and the way to trust them", () => {
    const root = tmp();
    const env = { XDG_STATE_HOME: tmp() };
    const mine = {
      PostToolUse: [{ hooks: [{ type: "command" as const, command: "my-logger" }] }],
    };
    const untrusted = setUp({ hooks: mine }, { hooks: guard }, root, env);
    expect(untrusted.hooks?.select("PostToolUse", "write_file").map((h) => [h.command, h.source])).toEqual([["my-logger", "user"]]);
    expect(untrusted.hooks?.select("PreToolUse", "run_command")).toEqual([]);
    expect(untrusted.notices).toEqual([{ kind: "hooks-untrusted", configFile: "yolo.config.ts", hooks: "PreToolUse `sh guard.sh`" }]);
    // The CLI names its trust command; the engine's own words (a library or the LangGraph server) name none.
    expect(noticeText(untrusted.notices[0])).toBe(
      "yolo.config.ts hooks are not trusted, so they do not run: read them, then `yolo hooks trust` (a pipeline on your own repository: YOLO_TRUST_PROJECT_HOOKS=1). They run in the agents' sandbox, or on your machine with your environment where they say `host: true`: PreToolUse `sh guard.sh`.",
    );
    expect(sayNotice(untrusted.notices[0])).toBe(
      "yolo.config.ts hooks are not trusted, so they do not run: read them, then trust them (a pipeline on your own repository: YOLO_TRUST_PROJECT_HOOKS=1). They run in the agents' sandbox, or on your machine with your environment where they say `host: true`: PreToolUse `sh guard.sh`.",
    );

    trustHooks(trustStoreFile(env), root, hookSetHash(guard, root));
    const trusted = setUp({}, { hooks: guard }, root, env);
    expect(trusted.notices).toEqual([]);
    expect(trusted.hooks?.select("PreToolUse", "run_command").map((h) => h.source)).toEqual(["project"]);

    // Another set in the same repository is another consent.
    const changed = {
      PreToolUse: [
        {
          matcher: "run_command",
          hooks: [{ type: "command" as const, command: "sh guard.sh; curl evil" }],
        },
      ],
    };
    expect(setUp({}, { hooks: changed }, root, env).hooks).toBeUndefined();
    expect(
      setUp({}, { hooks: changed }, root, {
        ...env,
        YOLO_TRUST_PROJECT_HOOKS: "1",
      }).hooks?.select("PreToolUse", "run_command"),
    ).toHaveLength(1);
  });

  it("no hooks configured: no runner at all, and the tool loop is not wrapped", () => {
    expect(setUp({}, {}, tmp(), { XDG_STATE_HOME: tmp() })).toEqual({
      hooks: undefined,
      notices: [],
    });
  });
});

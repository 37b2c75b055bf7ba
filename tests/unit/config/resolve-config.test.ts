import { join } from "node:path";
import { defaultPolicy } from "../../../src/tools/command-policy.js";
import { CI_ENV_ALLOW } from "../../../src/secrets/env.js";
import { describe, expect, it } from "vitest";
import { assertModelConfigured, resolveConfig, type ResolveConfigInput } from "../../../src/config/resolve.js";
import { ConfigError } from "../../../src/errors.js";
import { DEFAULT_WORKFLOW } from "../../../src/workflow/default.js";
import { cliFlagName } from "../../../src/cli/wording/flag-names.js";

const root = "/projects/app";

function resolveWith(input: Partial<ResolveConfigInput>) {
  return resolveConfig({ root, fileConfig: {}, file: null, env: {}, ...input });
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("resolveConfig", () => {
  it("fills every default when nothing is configured", () => {
    expect(resolveWith({})).toEqual({
      root,
      startDir: root,
      configFile: null,
      model: {
        name: "gpt-4o-mini",
        baseURL: null,
        apiKey: null,
        apiKeyEnv: "OPENAI_API_KEY",
        temperature: null,
        maxRetries: 4,
        timeoutS: 120,
        callDeadlineS: 1800,
        maxReplyBytes: 64 * 1024 * 1024,
        price: null,
      },
      maxFixAttempts: 3,
      workflow: DEFAULT_WORKFLOW,
      approve: [],
      customWorkflow: false,
      gates: null,
      requireGate: false,
      gateScope: "changed",
      agentsDir: join(root, "agents"),
      instructionFiles: ["AGENTS.md", "CLAUDE.md", "GEMINI.md"],
      agentsDirConfigured: false,
      dbPath: join(root, ".yolo", "yolo.db"),
      database: { kind: "sqlite", path: join(root, ".yolo", "yolo.db") },
      stateDir: join(root, ".yolo"),
      branch: false,
      parallel: 3,
      context: { summarizeAt: 0.7, contextWindows: {}, disabledTools: [], rolePermissions: {} },
      userConfigFile: null,
      commands: { policy: defaultPolicy(), roles: {} },
      env: { strict: true, allow: [...CI_ENV_ALLOW] },
      sandbox: "auto",
      files: { allowExec: [] },
      budget: { maxTokens: null, maxCost: null },
      hooks: { user: null, project: null, trustProject: false },
      limits: {
        maxTurns: 30,
        handoffReminders: 3,
        commandTimeoutS: 300,
        outputCapBytes: 16000,
        readCapBytes: 64000,
        maxSteps: 200,
        maxTimeMs: null,
        maxTurnsOverride: null,
        toolCallsPerTurn: 32,
        sandbox: { processes: 1024, memoryBytes: 8 * 1024 ** 3, tmpBytes: 1024 ** 3, unixSockets: "deny" },
      },
    });
  });

  it("layers config file < environment < flags", () => {
    const fileConfig = {
      model: { name: "file-model", baseURL: "http://file:1/v1" },
      maxFixAttempts: 1,
      dbPath: "file.db",
      limits: { maxTurns: 10 },
    };
    const env = {
      YOLO_MODEL: "env-model",
      OPENAI_BASE_URL: "http://env:2/v1",
      YOLO_MAX_FIX_ATTEMPTS: "2",
      YOLO_DB: "env.db",
    };
    const flags = { model: "flag-model", baseURL: "http://flag:3/v1", maxFixAttempts: 3, db: "/abs/flag.db", maxTurns: 12 };

    const fromFile = resolveWith({ fileConfig, file: join(root, "yolo.config.ts") });
    expect(fromFile.configFile).toBe(join(root, "yolo.config.ts"));
    expect([fromFile.model.name, fromFile.model.baseURL, fromFile.maxFixAttempts, fromFile.dbPath]).toEqual([
      "file-model",
      "http://file:1/v1",
      1,
      join(root, "file.db"),
    ]);
    expect(fromFile.limits.maxTurns).toBe(10);

    const fromEnv = resolveWith({ fileConfig, env });
    expect([fromEnv.model.name, fromEnv.model.baseURL, fromEnv.maxFixAttempts, fromEnv.dbPath]).toEqual([
      "env-model",
      "http://env:2/v1",
      2,
      join(root, "env.db"),
    ]);

    const fromFlags = resolveWith({ fileConfig, env, flags });
    expect([fromFlags.model.name, fromFlags.model.baseURL, fromFlags.maxFixAttempts, fromFlags.dbPath]).toEqual([
      "flag-model",
      "http://flag:3/v1",
      3,
      "/abs/flag.db",
    ]);
    expect(fromFlags.limits.maxTurns).toBe(12);
    expect(fromFlags.limits.maxTurnsOverride).toBe(12);
  });

  it("reads the API key from the variable the config names", () => {
    expect(resolveWith({ env: { OPENAI_API_KEY: "sk-default" } }).model.apiKey).toBe("sk-default");
    const custom = resolveWith({
      fileConfig: { model: { apiKeyEnv: "MY_PROVIDER_KEY" } },
      env: { OPENAI_API_KEY: "sk-default", MY_PROVIDER_KEY: "sk-custom" },
    });
    expect(custom.model.apiKey).toBe("sk-custom");
    expect(custom.model.apiKeyEnv).toBe("MY_PROVIDER_KEY");
  });

  it("treats empty environment variables as unset", () => {
    const cfg = resolveWith({ env: { OPENAI_API_KEY: "", YOLO_MODEL: "  ", YOLO_MAX_FIX_ATTEMPTS: "" } });
    expect([cfg.model.apiKey, cfg.model.name, cfg.maxFixAttempts]).toEqual([null, "gpt-4o-mini", 3]);
  });

  it("fills gate defaults and resolves the agents folder against the root", () => {
    const cfg = resolveWith({ fileConfig: { gates: [{ name: "lint", command: "npm run lint", required: false }], agentsDir: "team" } });
    expect(cfg.gates).toEqual([{ name: "lint", command: "npm run lint", required: false, timeoutS: 600 }]);
    expect(cfg.agentsDir).toBe(join(root, "team"));
    expect(cfg.agentsDirConfigured).toBe(true);
  });

  it("returns a deeply frozen object", () => {
    const cfg = resolveWith({ fileConfig: { gates: [{ name: "t", command: "npm test" }] } });
    expect(Object.isFrozen(cfg)).toBe(true);
    expect(Object.isFrozen(cfg.model)).toBe(true);
    expect(Object.isFrozen(cfg.limits)).toBe(true);
    expect(Object.isFrozen(cfg.gates)).toBe(true);
    expect(Object.isFrozen(cfg.gates?.[0])).toBe(true);
  });

  it("names the variable when an environment value is bad", () => {
    const error = thrown(() => resolveWith({ env: { YOLO_MAX_FIX_ATTEMPTS: "abc", OPENAI_BASE_URL: "localhost:11434" } }));
    expect(error).toBeInstanceOf(ConfigError);
    const { problems } = error as ConfigError;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^OPENAI_BASE_URL: /);
    expect(problems[1]).toMatch(/^YOLO_MAX_FIX_ATTEMPTS: .*"abc"/);
  });

  it("names the flag when a flag value is bad: as the CLI typed it, or by its setting for other callers", () => {
    const error = thrown(() => resolveWith({ flags: { maxTurns: Number.NaN }, flagName: cliFlagName }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems[0]).toMatch(/^--max-turns: /);
    const neutral = thrown(() => resolveWith({ flags: { maxTurns: Number.NaN } }));
    expect((neutral as ConfigError).problems[0]).toMatch(/^maxTurns: /);
  });
});

describe("assertModelConfigured", () => {
  it("explains how to configure a model when there is neither a key nor a base URL", () => {
    const error = thrown(() => assertModelConfigured(resolveWith({})));
    expect(error).toBeInstanceOf(ConfigError);
    const { message } = error as ConfigError;
    expect(message).toContain("OPENAI_API_KEY");
    expect(message).toContain("OPENAI_BASE_URL");
    expect(message).toContain("http://localhost:11434/v1");
    expect(message).toContain("http://localhost:1234/v1");
    expect(message).toContain("http://localhost:8000/v1");
  });

  it("names the configured key variable", () => {
    const cfg = resolveWith({ fileConfig: { model: { apiKeyEnv: "GROQ_API_KEY" } } });
    expect(() => assertModelConfigured(cfg)).toThrow(/GROQ_API_KEY/);
  });

  it("accepts an API key alone or a base URL alone", () => {
    expect(() => assertModelConfigured(resolveWith({ env: { OPENAI_API_KEY: "sk-x" } }))).not.toThrow();
    expect(() => assertModelConfigured(resolveWith({ env: { OPENAI_BASE_URL: "http://localhost:11434/v1" } }))).not.toThrow();
  });
});

describe("resolveConfig budgets", () => {
  const root = "/projects/app";
  const price = { inputPerMillion: 1, outputPerMillion: 2 };
  it("takes budgets from the file, flags winning", () => {
    const cfg = resolveConfig({
      root,
      file: null,
      env: {},
      fileConfig: { model: { price }, budget: { maxTokens: 1000, maxCost: 1 } },
      flags: { maxTokens: 5000 },
    });
    expect(cfg.budget).toEqual({ maxTokens: 5000, maxCost: 1 });
  });

  it("refuses a cost budget without a price, and a token budget that is not a positive whole number", () => {
    expect(() => resolveConfig({ root, file: null, env: {}, fileConfig: {}, flags: { maxCost: 2, maxTokens: 0 }, flagName: cliFlagName })).toThrow(
      /--max-tokens[\s\S]*--max-cost \/ budget.maxCost: needs model.price/,
    );
  });
});

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadConfigFile } from "../../../src/config/load.js";
import { ConfigError } from "../../../src/errors.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
beforeEach(({ onTestFinished }) => {
  // Outside the repository, so `import … from "yolo"` can only work through the loader's alias.
  root = tempDir(onTestFinished, "yolo-load-config-");
});

async function loadError(): Promise<ConfigError> {
  const error = await loadConfigFile(root).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("loadConfigFile", () => {
  it("returns no file and an empty config when the project has none", async () => {
    await expect(loadConfigFile(root)).resolves.toEqual({ file: null, config: {} });
  });

  it('loads a yolo.config.ts that imports defineConfig from "yolo"', async () => {
    writeFileSync(
      join(root, "yolo.config.ts"),
      [
        'import { defineConfig, type UserConfig } from "yolo";',
        'const model: UserConfig["model"] = { name: "local-model", temperature: 0.2 };',
        "export default defineConfig({",
        "  model,",
        "  maxFixAttempts: 5,",
        '  gates: [{ name: "unit", command: "npm test" }],',
        "});",
      ].join("\n"),
    );
    const { file, config } = await loadConfigFile(root);
    expect(file).toBe(join(root, "yolo.config.ts"));
    expect(config).toEqual({
      model: { name: "local-model", temperature: 0.2 },
      maxFixAttempts: 5,
      gates: [{ name: "unit", command: "npm test", required: true, timeoutS: 600 }],
    });
  });

  it("prefers yolo.config.ts over yolo.config.mjs", async () => {
    writeFileSync(join(root, "yolo.config.mjs"), "export default { maxFixAttempts: 1 };\n");
    writeFileSync(join(root, "yolo.config.ts"), "export default { maxFixAttempts: 2 };\n");
    const { file, config } = await loadConfigFile(root);
    expect(file).toBe(join(root, "yolo.config.ts"));
    expect(config.maxFixAttempts).toBe(2);
  });

  it("loads a plain yolo.config.mjs", async () => {
    writeFileSync(join(root, "yolo.config.mjs"), 'export default { agentsDir: "team" };\n');
    const { file, config } = await loadConfigFile(root);
    expect(file).toBe(join(root, "yolo.config.mjs"));
    expect(config).toEqual({ agentsDir: "team" });
  });

  it("reports every problem at once, each with its dot-path", async () => {
    writeFileSync(
      join(root, "yolo.config.ts"),
      [
        'import { defineConfig } from "yolo";',
        "export default defineConfig({",
        "  model: { temperature: 5 },",
        '  gates: [{ name: "unit", command: "" }],',
        "  // @ts-expect-error: a typo the type checker would also catch",
        '  colour: "blue",',
        "});",
      ].join("\n"),
    );
    const error = await loadError();
    expect(error.problems).toHaveLength(3);
    expect(error.problems.some((p) => p.startsWith("model.temperature: "))).toBe(true);
    expect(error.problems.some((p) => p.startsWith("gates[0].command: "))).toBe(true);
    expect(error.problems).toContainEqual(expect.stringMatching(/^colour: unknown key; known keys: /));
    expect(error.message).toContain(join(root, "yolo.config.ts"));
    for (const problem of error.problems) expect(error.message).toContain(problem);
  });

  it("names the file when it has a syntax error", async () => {
    writeFileSync(join(root, "yolo.config.ts"), 'export default {\n  model: { name: "x",\n');
    const error = await loadError();
    expect(error.message).toContain(join(root, "yolo.config.ts"));
  });

  it("names the file and the cause when it throws while loading", async () => {
    writeFileSync(join(root, "yolo.config.ts"), 'throw new Error("no config for you");\n');
    const error = await loadError();
    expect(error.message).toContain(join(root, "yolo.config.ts"));
    expect(error.message).toContain("no config for you");
  });

  it("rejects a file without a default export", async () => {
    writeFileSync(join(root, "yolo.config.ts"), "export const maxFixAttempts = 2;\n");
    const error = await loadError();
    expect(error.message).toMatch(/default export/);
  });

  it("sees edits to the file on the next load", async () => {
    const file = join(root, "yolo.config.ts");
    writeFileSync(file, "export default { maxFixAttempts: 1 };\n");
    expect((await loadConfigFile(root)).config.maxFixAttempts).toBe(1);
    writeFileSync(file, "export default { maxFixAttempts: 7 };\n");
    expect((await loadConfigFile(root)).config.maxFixAttempts).toBe(7);
  });
});

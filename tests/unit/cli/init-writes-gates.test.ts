import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initCommand } from "../../../src/cli/commands/init.js";
import { loadConfigFile } from "../../../src/config/load.js";
import { defaultGates } from "../../../src/gates/detect.js";

let root: string;
let printed: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-init-")));
  printed = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    printed += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

describe("yolo init and the detected gates", () => {
  it("writes the detected gates as a live, valid `gates` entry that loads back to the same gates", async () => {
    write("pom.xml", "<project><modules><module>core</module></modules></project>");
    write("svc/go.mod", "module example.com/svc\n");
    write("tools/go.mod", "module example.com/tools\n");
    expect(await initCommand({ cwd: root })).toBe(0);
    const { config } = await loadConfigFile(root);
    // The Go modules' test loop is one yolo narrows in a monorepo: written with scope "changed", it stays narrowed.
    expect(config.gates).toEqual(defaultGates(root).map((g) => (g.name === "go-test" ? { ...g, scope: "changed" } : g)));
    expect(config.gates?.map((g) => g.name)).toEqual(["go-test", "maven-test", "go-vet"]);
    expect(printed).toContain("gates detected and written to yolo.config.ts:\n  go-test: status=0; for m in svc tools;");
    expect(printed).toContain('  go-vet: status=0; for m in svc tools; do (cd "$m" && go vet ./...) || status=1; done; exit $status (optional)\n');
  });

  it("says so when nothing is detected and leaves the example commented out", async () => {
    write("README.md", "# nothing to test\n");
    await initCommand({ cwd: root });
    expect(printed).toContain("no test command detected: without a gate, tea's verdict alone decides");
    const { config } = await loadConfigFile(root);
    expect(config.gates).toBeUndefined();
  });

  it("never overwrites an existing config, even when the detected gates changed", async () => {
    write("yolo.config.ts", 'import { defineConfig } from "yolo";\nexport default defineConfig({ gates: [{ name: "mine", command: "make ci" }] });\n');
    write("Cargo.toml", '[package]\nname = "x"\n');
    await initCommand({ cwd: root });
    expect(printed).toContain("kept    yolo.config.ts");
    expect(printed).not.toContain("gates detected");
    const { config } = await loadConfigFile(root);
    expect(config.gates).toEqual([{ name: "mine", command: "make ci", required: true, timeoutS: 600 }]);
  });
});

describe("yolo init beside a project's own agents/ folder", () => {
  it("puts yolo's agents in yolo-agents/ and names it in yolo.config.ts, leaving the project's documents alone", async () => {
    write("agents/overview.md", "# Our agents\n\nHow the support bots work.\n");
    expect(await initCommand({ cwd: root })).toBe(0);
    const { config } = await loadConfigFile(root);
    expect(config.agentsDir).toBe("yolo-agents");
    expect(fs.readdirSync(path.join(root, "yolo-agents")).sort()).toEqual(["analyst.md", "architect.md", "dev.md", "pm.md", "tea.md"]);
    expect(fs.readdirSync(path.join(root, "agents"))).toEqual(["overview.md"]);
  });

  it("keeps agents/ when it already holds yolo agents (a project set up before)", async () => {
    write("agents/dev.md", "---\nname: Dev\ndescription: mine\ntools: [read_file]\n---\nMy dev.\n");
    expect(await initCommand({ cwd: root })).toBe(0);
    expect((await loadConfigFile(root)).config.agentsDir).toBeUndefined();
    expect(fs.existsSync(path.join(root, "agents", "pm.md"))).toBe(true);
  });
});

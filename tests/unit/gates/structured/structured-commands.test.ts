import { describe, expect, it } from "vitest";
import { planStructured } from "../../../../src/gates/structured/registry.js";
import { jestRunner } from "../../../../src/gates/structured/jest.js";
import { nodeTestRunner } from "../../../../src/gates/structured/node-test.js";
import { vitestRunner } from "../../../../src/gates/structured/vitest.js";

const P = "/tmp/yolo-report/report";

describe("the command that asks a runner for its report beside its usual output", () => {
  it("vitest: the json reporter beside the default one (or the reporter the script names)", () => {
    expect(vitestRunner.command("npm test", { test: "vitest run" }, P)).toBe(`npm test -- --reporter=default --reporter=json --outputFile.json='${P}'`);
    expect(vitestRunner.command("npm test", { test: "vitest run --reporter=dot" }, P)).toBe(`npm test -- --reporter=json --outputFile.json='${P}'`);
    expect(vitestRunner.command("npx vitest run", {}, P)).toBe(`npx vitest run --reporter=default --reporter=json --outputFile.json='${P}'`);
    expect(vitestRunner.command("npx --no-install vitest related --run 'src/a.ts'", {}, P)).toContain("related --run 'src/a.ts' --reporter=default");
    expect(vitestRunner.command("npm test", { test: "tsc && vitest run" }, P)).toBeNull();
    expect(vitestRunner.command("npm test", { test: "vitest run --outputFile=out.json" }, P)).toBeNull();
    expect(vitestRunner.command("npm test", { test: "npm run unit" }, P)).toBeNull();
    expect(vitestRunner.command("make test", { test: "vitest run" }, P)).toBeNull();
    expect(vitestRunner.command("vitest run; curl x", {}, P)).toBeNull();
  });

  it("jest: --json --outputFile, unless the script already writes JSON", () => {
    expect(jestRunner.command("npm test", { test: "jest" }, P)).toBe(`npm test -- --json --outputFile='${P}'`);
    expect(jestRunner.command("npm test", { test: "npx jest --ci" }, P)).toBe(`npm test -- --json --outputFile='${P}'`);
    expect(jestRunner.command("npx --no-install jest --findRelatedTests 'a.js'", {}, P)).toBe(
      `npx --no-install jest --findRelatedTests 'a.js' --json --outputFile='${P}'`,
    );
    expect(jestRunner.command("npm test", { test: "jest --json" }, P)).toBeNull();
    expect(jestRunner.command("npm test", { test: "tsc && jest" }, P)).toBeNull();
    expect(jestRunner.command("npm test", { test: "jest; curl x" }, P)).toBeNull();
  });

  it("node --test: the junit reporter beside spec, in NODE_OPTIONS (flags after a file pattern would be patterns)", () => {
    expect(nodeTestRunner.command("npm test", { test: "node --test test/" }, P)).toBe("npm test");
    expect(nodeTestRunner.command("node --test", {}, P)).toBe("node --test");
    expect(nodeTestRunner.command("npm test", { test: "node --test --test-reporter=dot" }, P)).toBeNull();
    expect(nodeTestRunner.command("npm test", { test: "node index.js" }, P)).toBeNull();
    expect(nodeTestRunner.env?.({ NODE_OPTIONS: "--max-old-space-size=100" }, P).NODE_OPTIONS).toBe(
      `--max-old-space-size=100 --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination="${P}"`,
    );
  });

  it("binds a fresh report folder outside the project into bubblewrap, and none for a command no runner recognizes", () => {
    const plan = planStructured("npm test", { test: "vitest run" }, {}, { kind: "bwrap", binary: "bwrap" });
    try {
      expect(plan?.runner).toBe("vitest");
      expect(plan?.folder.inside).toBe(P);
      expect(plan?.folder.sandbox).toMatchObject({ writable: [{ inside: "/tmp/yolo-report" }] });
      expect(plan?.read("/x")).toBeNull();
    } finally {
      plan?.folder.remove();
    }
    expect(planStructured("make test", {}, {}, undefined)).toBeNull();
  });
});

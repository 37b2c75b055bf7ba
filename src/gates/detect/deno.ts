import { readText, testGate, checkGate, type Detector } from "./files.js";

/** Deno: `deno task test` when the config defines that task, else `deno test`; a `lint` task as an optional gate. */
export const detectDeno: Detector = (root) => {
  const file = ["deno.json", "deno.jsonc"].find((f) => readText(root, f) !== null);
  if (!file) return null;
  const tasks = denoTasks(readText(root, file) ?? "");
  return {
    ecosystem: "deno",
    test: testGate(tasks.has("test") ? "deno task test" : "deno test"),
    checks: tasks.has("lint") ? [checkGate("lint", "deno task lint")] : [],
  };
};

// Task names of a deno.json(c); comments are stripped (jsonc) and a config that still does not parse has none.
function denoTasks(text: string): Set<string> {
  const stripped = text.replace(/^\s*\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
  try {
    const config = JSON.parse(stripped) as { tasks?: unknown } | null;
    const tasks = config?.tasks;
    return new Set(tasks !== null && typeof tasks === "object" ? Object.keys(tasks as object) : []);
  } catch {
    return new Set();
  }
}

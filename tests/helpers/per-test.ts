import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "vitest";
import { startMockOpenAI, type MockOpenAI, type Responder } from "./mock-openai.js";
import { makeProject } from "./project.js";

// For tests that run concurrently (each spawns its own child): cleanups are per test, not a shared afterEach.
type Finally = TestContext["onTestFinished"];

/** A temp git project removed when the test finishes; returns its root. */
export function project(onTestFinished: Finally, files: Record<string, string> = {}): string {
  const p = makeProject(files);
  onTestFinished(p.cleanup);
  return p.root;
}

/** The scripted OpenAI-compatible server, closed when the test finishes. */
export async function mockWith(onTestFinished: Finally, responder: Responder): Promise<MockOpenAI> {
  const mock = await startMockOpenAI(responder);
  onTestFinished(() => mock.close());
  return mock;
}

/** An empty temp folder (its real path) removed when the test finishes. */
export function tempDir(onTestFinished: Finally, prefix = "yolo-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

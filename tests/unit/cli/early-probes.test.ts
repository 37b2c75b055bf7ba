import { afterEach, describe, expect, it } from "vitest";
import { startEarlyProbes, takeEarlyProbes } from "../../../src/cli/early-probes.js";
import { project } from "../../helpers/per-test.js";

// What the CLI takes from the probes bin/yolo.js started: only those made for its own root, mode and PATH, and once.
describe("takeEarlyProbes", () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
    takeEarlyProbes("", "start");
  });

  it("gives the probes started for this root and mode, with their answers, once", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    startEarlyProbes(root, "start");
    const probes = takeEarlyProbes(root, "start");
    expect(probes).not.toBeNull();
    expect(await probes?.workspace).toMatchObject({ inRepo: true, dirty: [] });
    expect(await probes?.snapshot).toBeNull();
    expect(takeEarlyProbes(root, "start")).toBeNull();
  });

  it("gives nothing for another root, another mode or another PATH (the caller reads its own)", ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const other = project(onTestFinished);
    startEarlyProbes(root, "start");
    expect(takeEarlyProbes(other, "start")).toBeNull();
    startEarlyProbes(root, "start");
    expect(takeEarlyProbes(root, "resume")).toBeNull();
    startEarlyProbes(root, "start");
    process.env.PATH = `/nonexistent:${path}`;
    expect(takeEarlyProbes(root, "start")).toBeNull();
  });

  it("starts nothing for a directory that does not exist", () => {
    startEarlyProbes("/nonexistent/yolo-early-probes", "start");
    expect(takeEarlyProbes("/nonexistent/yolo-early-probes", "start")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { filterRows, listFilter } from "../../../src/serve/pages/list.js";
import type { ThreadRow } from "../../../src/store/thread-store.js";

const row = (id: string, status: string, requirement: string, extra: Partial<ThreadRow> = {}): ThreadRow => ({
  id,
  requirement,
  status,
  currentNode: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  root: "/repo",
  model: "m",
  exitCode: null,
  reason: null,
  startCommit: null,
  branch: null,
  host: null,
  user: null,
  repo: null,
  artifacts: null,
  mode: "run",
  unsettledUsage: null,
  forkedFrom: null,
  ...extra,
});

describe("the threads list's filters", () => {
  const rows = [
    row("a1", "passed", "Add login"),
    row("b2", "error", "Fix LOGOUT"),
    row("c3", "waiting", "Docs", { branch: "yolo/login-page" }),
    row("d4", "limit", "x"),
  ];

  it("reads status and text from the query string, an unknown status as any", () => {
    expect(listFilter(new URL("http://h/?status=waiting&q=%20login%20"))).toEqual({ status: "waiting", q: "login" });
    expect(listFilter(new URL("http://h/?status=<x>"))).toEqual({ status: "any", q: "" });
  });

  it("keeps the rows of a status (failed includes errors and limits) whose text columns hold the words, case aside", () => {
    expect(filterRows(rows, { status: "any", q: "login" }).map((r) => r.id)).toEqual(["a1", "c3"]);
    expect(filterRows(rows, { status: "any", q: "LOG" }).map((r) => r.id)).toEqual(["a1", "b2", "c3"]);
    expect(filterRows(rows, { status: "failed", q: "" }).map((r) => r.id)).toEqual(["b2", "d4"]);
    expect(filterRows(rows, { status: "waiting", q: "LOGIN" }).map((r) => r.id)).toEqual(["c3"]);
    expect(filterRows(rows, { status: "passed", q: "logout" })).toEqual([]);
  });
});

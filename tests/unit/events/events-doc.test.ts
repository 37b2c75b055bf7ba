import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EVENT_SCHEMA_VERSION, yoloEventSchema } from "../../../src/events/schema.js";

// docs/events.md is the public description of the --json stream; this keeps it and the zod schema in step.
const DOC = readFileSync(new URL("../../../docs/events.md", import.meta.url), "utf8");
const ENVELOPE = ["type", "v", "thread", "ts", "story"];

interface DocField {
  name: string;
  optional: boolean;
  nullable: boolean;
}

/** The sections at one heading level (`## \`run.started\``, `## Envelope`, `### \`usage\``), each with the rows of its field table. */
function docSections(level: "##" | "###"): Map<string, DocField[]> {
  const sections = new Map<string, DocField[]>();
  let current: DocField[] | null = null;
  for (const line of DOC.split("\n")) {
    const heading = /^(#{2,3}) (.*)$/.exec(line);
    if (heading) {
      current = heading[1] === level ? [] : null;
      if (current) sections.set(heading[2].trim(), current);
      continue;
    }
    const row = /^\| `(\w+)` \| ([^|]+) \|/.exec(line);
    if (row && current) {
      const type = row[2].split(",").map((t) => t.trim());
      current.push({ name: row[1], optional: type.includes("optional"), nullable: type.includes("null") });
    }
  }
  return sections;
}

/** The event-type sections: headings that are a type name in backticks. */
function eventSections(): Map<string, DocField[]> {
  return new Map([...docSections("##")].flatMap(([title, fields]) => (/^`[\w.]+`$/.test(title) ? [[title.slice(1, -1), fields]] : [])));
}

/** The fields of a zod object as the doc describes them: name, may be absent, may be null. */
function schemaFields(shape: Record<string, z.ZodType>, skip: string[] = []): DocField[] {
  return Object.entries(shape)
    .filter(([name]) => !skip.includes(name))
    .map(([name, type]) => ({ name, optional: type.safeParse(undefined).success, nullable: type.safeParse(null).success }));
}

const byName = (a: DocField, b: DocField) => a.name.localeCompare(b.name);
const eventShapes = new Map(yoloEventSchema.options.map((o) => [o.shape.type.value as string, o.shape as unknown as Record<string, z.ZodType>]));

describe("docs/events.md matches src/events/schema.ts", () => {
  it("states the schema version the events carry", () => {
    expect(/^Schema version: \*\*(\d+)\*\*$/m.exec(DOC)?.[1]).toBe(String(EVENT_SCHEMA_VERSION));
  });

  it("documents the envelope every event carries", () => {
    const envelope = (docSections("##").get("Envelope") ?? []).map((f) => f.name);
    expect(envelope.sort()).toEqual([...ENVELOPE].sort());
    for (const shape of eventShapes.values()) expect(Object.keys(shape)).toEqual(expect.arrayContaining(ENVELOPE));
  });

  it("has one section per event type, and no section for a type that does not exist", () => {
    const documented = [...eventSections().keys()].sort();
    expect(documented).toEqual([...eventShapes.keys()].sort());
  });

  it.each([...eventShapes.keys()])("documents every field of %s, with its optionality and nullability", (type) => {
    const doc = (eventSections().get(type) ?? []).sort(byName);
    expect(doc, `docs/events.md, section \`${type}\``).toEqual(schemaFields(eventShapes.get(type)!, ENVELOPE).sort(byName));
  });

  it("documents the shared shapes: usage and gate", () => {
    const shared = new Map([...docSections("###")].map(([title, fields]) => [title.replace(/`/g, ""), fields]));
    const usage = (eventShapes.get("run.completed")!.usage as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    const gate = (eventShapes.get("gate.result")!.gate as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    expect((shared.get("usage") ?? []).sort(byName)).toEqual(schemaFields(usage).sort(byName));
    expect((shared.get("gate") ?? []).sort(byName)).toEqual(schemaFields(gate).sort(byName));
  });
});

import type { z as zod } from "zod";
import type { AgentNote } from "../state/types.js";
import { custom } from "./custom.js";
import type { HandoffFieldSpec, HandoffFieldSpecs } from "./field-spec.js";
import { outputsLine, type RoleOutputs } from "./outputs.js";
import type { RoleRecord, Zod } from "./types.js";

/** Bounds on what a user role's handoff may hold: its values live in every later checkpoint. */
export const USER_FIELD_LIMITS = { stringChars: 4000, listItems: 50, itemChars: 1000, totalBytes: 16_000 } as const;

// A declared field as zod: bounded strings and lists, a finite number, a closed enum; optional when not required.
function fieldSchema(z: Zod, spec: HandoffFieldSpec): zod.ZodType {
  const L = USER_FIELD_LIMITS;
  const base =
    spec.type === "string"
      ? z.string().trim().min(1).max(L.stringChars)
      : spec.type === "string[]"
        ? z.array(z.string().max(L.itemChars)).max(L.listItems)
        : spec.type === "boolean"
          ? z.boolean()
          : spec.type === "number"
            ? z.number().finite()
            : z.enum(spec.values as [string, ...string[]]);
  const described = base.describe(spec.description || `your ${spec.type} value`);
  return spec.required ? described : described.optional();
}

// The field's type in words for the brief: "one of low, medium, high", "a list of strings".
function typeWords(spec: HandoffFieldSpec): string {
  if (spec.type === "enum") return `one of ${(spec.values ?? []).join(", ")}`;
  if (spec.type === "string[]") return "a list of strings";
  return `a ${spec.type}`;
}

/** The note a user role's handoff keeps for its node: the declared values, and a summary and findings when declared. */
function noteOf(outputs: RoleOutputs): AgentNote {
  const summary = typeof outputs.summary === "string" ? outputs.summary : outputsLine(outputs);
  const findings = Array.isArray(outputs.findings) ? outputs.findings.filter((f): f is string => typeof f === "string") : [];
  return { summary, findings, verdict: null, outputs };
}

/**
 * The role of an agent whose file declares `handoff:` fields, as the same record a built-in role is: its handoff is
 * checked against them, the values kept in `notes[node].outputs`, shown in `yolo show`, the report and the views.
 * Briefed, shown and summed up like a custom agent, whose capabilities it has.
 */
export function userRole(agentId: string, specs: HandoffFieldSpecs): RoleRecord {
  const names = Object.keys(specs);
  const pick = (h: Record<string, unknown>): RoleOutputs => Object.fromEntries(names.filter((k) => h[k] !== undefined).map((k) => [k, h[k]]));
  const expected = names
    .map((k) => `\`${k}\` (${typeWords(specs[k])}${specs[k].required ? "" : ", optional"})${specs[k].description ? `: ${specs[k].description}` : ""}`)
    .join("; ");
  return {
    id: agentId,
    kind: "custom",
    writesCode: custom.writesCode,
    fields: (z) => Object.fromEntries(names.map((k) => [k, fieldSchema(z, specs[k])])),
    maxOutputBytes: USER_FIELD_LIMITS.totalBytes,
    write: (h, ctx) => {
      const outputs = pick(h);
      const files = ctx.written.length ? { filesChanged: ctx.written } : {};
      return { update: { notes: { [ctx.node]: noteOf(outputs) }, ...files }, summary: outputsLine(outputs) };
    },
    brief: {
      reads: custom.brief.reads,
      expected: `Do your part as your instructions describe, then call handoff with ${expected}.`,
    },
    review: {
      artifact: (state, node, kit) => kit.yaml(state.notes[node]?.outputs ?? {}),
      apply: (content, node, kit) => {
        const edit = kit.edit(content);
        if ("error" in edit) return edit;
        return { update: { notes: { [node]: noteOf(pick(edit.handoff)) } } };
      },
    },
    history: custom.history,
    display: custom.display,
  };
}

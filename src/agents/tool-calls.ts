import { z } from "zod";
import type { ToolDef } from "../tools/types.js";

// Parameters by the schema they come from: tools' schemas are module constants, and converting a zod schema to
// JSON schema on every agent step cost about a millisecond a step.
const parametersOf = new WeakMap<object, Record<string, unknown>>();

/** A tool in the OpenAI function format, its parameters derived from the tool's zod schema. */
export function toOpenAiTool(tool: ToolDef) {
  const source: object = tool.jsonSchema ?? tool.schema;
  let cached = parametersOf.get(source);
  if (!cached) {
    cached = tool.jsonSchema ? { ...tool.jsonSchema } : (z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>);
    delete cached.$schema;
    parametersOf.set(source, cached);
  }
  return { type: "function" as const, function: { name: tool.name, description: tool.description, parameters: { ...cached } } };
}

/** zod issues as one line a model can act on: `path: message; path: message`. */
export function toolErrorText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`).join("; ");
}

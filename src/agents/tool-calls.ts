import { z } from "zod";
import type { ToolDef } from "../tools/types.js";

/** A tool in the OpenAI function format, its parameters derived from the tool's zod schema. */
export function toOpenAiTool(tool: ToolDef) {
  const parameters = tool.jsonSchema ? { ...tool.jsonSchema } : (z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>);
  delete parameters.$schema;
  return { type: "function" as const, function: { name: tool.name, description: tool.description, parameters } };
}

/** zod issues as one line a model can act on: `path: message; path: message`. */
export function toolErrorText(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
    .join("; ");
}

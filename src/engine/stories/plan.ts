// pm's plan lives with pm (src/roles/story-plan.ts); this path stays for its importers.
export * from "../../roles/story-plan.js";

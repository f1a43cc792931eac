import type { ToolDefinition } from './types.js';

/**
 * Whether a tool's own annotations say it only reads: `readOnlyHint: true` and not
 * `destructiveHint: true` (a tool that says both is taken at its worse word). The
 * annotations are the tool author's claim: a caller whose tools come from a party it does
 * not trust decides read-only by its own word instead (the gateway does).
 *
 * @param tool - the definition
 * @returns true when the annotations claim read-only without contradiction
 * @throws nothing
 */
export function declaresReadOnly(tool: Pick<ToolDefinition, 'annotations'> | undefined): boolean {
  const annotations = tool?.annotations;
  return annotations?.readOnlyHint === true && annotations.destructiveHint !== true;
}

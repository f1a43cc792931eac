// Which tools the gateway's programs take as read-only: the operator's word, never an
// upstream's own. An upstream's readOnlyHint counts only where the operator vouched for
// the definition that carries it: a server marked `trusted: true`, or a review that holds
// back every definition it did not accept (`review.hold: 'new-and-changed'`, so a served
// tool is one whose name, description, schema and annotations the operator accepted).
// `programs.readOnlyTools` names more tools read-only, whatever they say.
import type { ToolDefinition } from '@tool-search/core';
import { declaresReadOnly } from '@tool-search/core/internal';
import { createToolRuleMatcher } from '@tool-search/hooks';
import type { ProgramsConfig } from '../config/program-schema.js';
import type { GatewayConfig } from '../config/schemas.js';

/** What the operator's word on read-only tools is made of. */
export type ReadOnlyConfig = Partial<Pick<GatewayConfig, 'mcpServers' | 'review'>> & {
  programs?: Pick<ProgramsConfig, 'readOnlyTools'>;
};

/**
 * The gateway's read-only decision for programs (the program policy's `isReadOnly`).
 *
 * @param config - the servers (`trusted`), the review (`hold`) and `programs.readOnlyTools`
 * @returns whether a tool counts as read-only; a destructive one never does by its own word
 * @throws nothing
 */
export function operatorReadOnly(config: ReadOnlyConfig): (tool: ToolDefinition) => boolean {
  const named = createToolRuleMatcher(config.programs?.readOnlyTools ?? []);
  const reviewed = config.review?.hold === 'new-and-changed';
  return (tool) => {
    if (named(tool.name, tool.origin)) return true;
    if (!declaresReadOnly(tool)) return false;
    const server = tool.origin?.server;
    if (server === undefined) return false;
    const entry = config.mcpServers?.[server] as { trusted?: boolean } | undefined;
    return entry?.trusted === true || reviewed;
  };
}

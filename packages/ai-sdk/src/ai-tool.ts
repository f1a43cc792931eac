import type { ToolDefinition } from '@tool-search/core';
import type { Tool } from 'ai';
import { dynamicTool, jsonSchema } from 'ai';
import type { AiSdkExecutionOptions } from './call-dispatch.js';

/** A tool's `needsApproval` as the AI SDK calls it (ai 6 and 7). */
export type NeedsApproval = (input: unknown, options: unknown) => boolean | PromiseLike<boolean>;

/**
 * One of our own tools (a bridge tool, `tool_program`) as an AI SDK tool.
 *
 * @param definition - its definition: description and input schema
 * @param execute - what runs when the model calls it
 * @param needsApproval - the AI SDK's tool approval, when it has one
 * @returns the AI SDK tool
 * @throws nothing
 */
export function ownTool(
  definition: ToolDefinition,
  execute: (input: unknown, options: AiSdkExecutionOptions) => Promise<unknown>,
  needsApproval?: NeedsApproval,
): Tool {
  const tool = dynamicTool({
    description: definition.description ?? '',
    inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute,
  });
  return (needsApproval ? Object.assign(tool, { needsApproval }) : tool) as Tool;
}

import { readFileSync } from 'node:fs';
import type { ToolSet } from 'ai';
import { jsonSchema, tool } from 'ai';
import { z } from 'zod';

/** One real MCP tool of the fixture catalog. */
export interface CatalogEntry {
  name: string;
  server: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The 300 real MCP tools (see README.md). */
export const catalog: CatalogEntry[] = JSON.parse(
  readFileSync(new URL('./mcp-catalog.json', import.meta.url), 'utf8'),
) as CatalogEntry[];

/** What every fixture tool records when it runs. */
export interface Execution {
  name: string;
  input: unknown;
  toolCallId: string;
}

/**
 * The catalog as an AI SDK tool set: each tool labelled with its toolset (`mcp-<server>`)
 * in `metadata.toolSearch`, and running by recording its call; plus `read_file`, a core
 * tool with a zod schema.
 */
export function catalogToolSet(
  executions: Execution[] = [],
  change: (name: string, tool: ToolSet[string]) => ToolSet[string] = (_name, value) => value,
): ToolSet {
  const tools: ToolSet = {
    read_file: tool({
      description: 'Read a file of the workspace',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }, { toolCallId }) => {
        executions.push({ name: 'read_file', input: { path }, toolCallId });
        return { content: `contents of ${path}` };
      },
    }),
  };
  for (const entry of catalog) {
    const value = tool({
      description: entry.description,
      inputSchema: jsonSchema<Record<string, unknown>>(entry.inputSchema as never),
      execute: async (input, { toolCallId }) => {
        executions.push({ name: entry.name, input, toolCallId });
        return { ran: entry.name, input };
      },
    });
    tools[entry.name] = change(
      entry.name,
      Object.assign(value, {
        metadata: {
          toolSearch: {
            toolset: `mcp-${entry.server}`,
            source: 'mcp',
            ...(entry.annotations ? { annotations: entry.annotations } : {}),
          },
        },
      }),
    );
  }
  return tools;
}

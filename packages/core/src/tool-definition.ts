import type { z } from 'zod/v4';
import { ToolSearchError } from './errors.js';
import { lazySchema } from './lazy-zod.js';
import type { ToolDefinition } from './types.js';

/** The longest tool name accepted from an untrusted source. */
export const MAX_TOOL_NAME_LENGTH = 128;

/**
 * The zod schema of an untrusted {@link ToolDefinition} (from an MCP server or a
 * plugin). Unknown keys are dropped. A tool name is 1–128 characters of letters,
 * digits, `_`, `-`, `.`, `:` or `/`; the input schema must be an object schema; an
 * `origin`, when present, holds a non-empty `server` and `name`. zod is loaded when the
 * schema is first used (not when core is imported).
 */
export const toolDefinitionSchema: z.ZodType<ToolDefinition, unknown> = lazySchema((z) =>
  z.object({
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_TOOL_NAME_LENGTH, `must be at most ${MAX_TOOL_NAME_LENGTH} characters`)
      .regex(/^[A-Za-z0-9_.:/-]+$/, 'may only contain letters, digits, _ - . : /'),
    description: z.string().optional(),
    inputSchema: z
      .looseObject({
        type: z.string().optional(),
        properties: z.record(z.string(), z.unknown()).optional(),
        required: z.array(z.string()).optional(),
      })
      .refine((schema) => schema.type === undefined || schema.type === 'object', {
        message: "must be a JSON Schema with type 'object'",
        path: ['type'],
      }),
    source: z.enum(['core', 'mcp', 'plugin']).optional(),
    toolset: z.string().min(1).optional(),
    alwaysLoad: z.boolean().optional(),
    annotations: z.looseObject({}).optional(),
    title: z.string().optional(),
    icons: z.array(z.looseObject({ src: z.string() })).optional(),
    outputSchema: z
      .looseObject({ type: z.string().optional() })
      .refine((schema) => schema.type === undefined || schema.type === 'object', {
        message: "must be a JSON Schema with type 'object'",
        path: ['type'],
      })
      .optional(),
    origin: z
      .object({
        server: z.string().min(1, 'must not be empty'),
        name: z.string().min(1, 'must not be empty'),
      })
      .optional(),
  }),
);

function nameOf(raw: unknown): string | undefined {
  if (typeof raw === 'object' && raw !== null && 'name' in raw) {
    const name = (raw as { name: unknown }).name;
    if (typeof name === 'string' && name.length > 0) return name.slice(0, MAX_TOOL_NAME_LENGTH);
  }
  return undefined;
}

/**
 * Validates one untrusted tool definition.
 *
 * @param raw - any value, e.g. one entry of an MCP `tools/list` result after {@link fromMcpTool}
 * @returns the definition, with unknown keys dropped
 * @throws {@link ToolSearchError} `invalid_tool_definition`, naming the tool and the
 * offending field, e.g. `Tool 'x' is invalid: inputSchema.type: must be ...`; its
 * `data.tool` is the name as given (bounded to 128 characters), absent when there is none
 */
export function validateToolDefinition(raw: unknown): ToolDefinition {
  const result = toolDefinitionSchema.safeParse(raw);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  const tool = nameOf(raw);
  throw new ToolSearchError(
    'invalid_tool_definition',
    `Tool '${tool ?? '<unnamed>'}' is invalid: ${issues}. Fix the definition or leave the tool out.`,
    { cause: result.error, ...(tool === undefined ? {} : { data: { tool } }) },
  );
}

/**
 * Validates a list of untrusted tool definitions and keeps the good ones, so that
 * one bad definition never takes the others down.
 *
 * @param raws - the untrusted definitions
 * @returns the valid tools and one `ToolSearchError` per rejected entry (a bad
 * definition, or a name already taken earlier in the list), with the tool's name in
 * `data.tool` when it has one
 * @throws nothing
 */
export function validateToolDefinitions(raws: readonly unknown[]): {
  tools: ToolDefinition[];
  errors: ToolSearchError[];
} {
  const tools: ToolDefinition[] = [];
  const errors: ToolSearchError[] = [];
  const seen = new Set<string>();
  for (const raw of raws) {
    try {
      const tool = validateToolDefinition(raw);
      if (seen.has(tool.name)) {
        errors.push(
          new ToolSearchError(
            'duplicate_tool_name',
            `Tool '${tool.name}' appears more than once; the first definition is kept.`,
            { data: { tool: tool.name } },
          ),
        );
        continue;
      }
      seen.add(tool.name);
      tools.push(tool);
    } catch (error) {
      const tool = nameOf(raw);
      errors.push(
        ToolSearchError.from(
          error,
          'invalid_tool_definition',
          'Invalid tool',
          tool === undefined ? undefined : { tool },
        ),
      );
    }
  }
  return { tools, errors };
}

import type { ToolDefinition } from '@tool-search/core';
import type { ProgramLimits } from './limits.js';
import { TOOL_PROGRAM } from './program-types.js';

/**
 * The definition of `tool_program` the model sees: what a program may do, and its limits.
 *
 * @param limits - the program tool's limits, quoted in the description
 * @returns the definition
 * @throws nothing
 */
export function programDefinition(limits: ProgramLimits): ToolDefinition {
  const description = [
    'Run a short JavaScript program over the tools, for work that takes many calls or large results: fan out lookups, page through results, join them, reduce a large result to what matters. Only the return value and the logs come back.',
    "The source is the body of an async function. Inside: `await tools.search(query)` (matching tools: name, description), `await tools.describe(name)` (a TypeScript declaration of one tool), `await tools.call(name, args)` or `await tools.<name>(args)`. A refused or failed call throws a ToolCallError with `status` ('denied', 'error' or 'cancelled') and `reason`; catch it to go on. `console.log` writes to the logs.",
    `No network, files, timers or modules. Limits: ${limits.cpuTimeMs} ms of running time, ${limits.maxCalls} tool calls (${limits.maxWrites} of them writes), ${limits.maxResultChars} characters of result JSON and ${limits.maxLogChars} of logs (more is cut). Every call meets the same policy and approvals as a direct call.`,
  ].join('\n\n');
  return {
    name: TOOL_PROGRAM,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        source: {
          type: 'string',
          description:
            "The body of an async function, e.g. `const hits = await tools.search('weather'); return await tools.call(hits[0].name, { city: 'Oslo' });`",
        },
      },
      required: ['source'],
      additionalProperties: false,
    },
  };
}

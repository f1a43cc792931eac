// A small world of tools for the program tests: a read-only lookup, a write, a tool that
// never answers, one that fails, one with a large result; the real dispatcher with an
// audit hook, and a program tool over it.
import type { ToolCall } from '@tool-search/core';
import {
  type ApprovalAdapter,
  type AuditRecord,
  createAuditHook,
  createDispatcher,
  type Guardrail,
} from '@tool-search/hooks';
import type { ToolWithOutput } from '../declarations.js';
import type { ProgramLimits } from '../limits.js';
import { createProgramTool } from '../program-tool.js';

export const worldTools: ToolWithOutput[] = [
  {
    name: 'weather_lookup',
    description: 'Look up the current weather of a city.',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city name' } },
      required: ['city'],
    },
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    },
    source: 'mcp',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'ticket_create',
    description: 'Create a support ticket with a title.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, priority: { type: 'integer' } },
      required: ['title'],
    },
    source: 'mcp',
  },
  {
    name: 'slow_report',
    description: 'Build a report; it never finishes.',
    inputSchema: { type: 'object' },
    source: 'plugin',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'broken_lookup',
    description: 'A lookup that always fails.',
    inputSchema: { type: 'object' },
    source: 'mcp',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'big_export',
    description: 'Export every record as one large text.',
    inputSchema: { type: 'object', properties: { kb: { type: 'integer' } } },
    source: 'mcp',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'shell_run',
    description: 'Run a shell command (a core tool).',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    source: 'core',
  },
];

/** What the executor of the world did. */
export interface WorldLog {
  ran: ToolCall[];
  audit: AuditRecord[];
}

/** The world's executor: real behaviour per tool, recorded. */
export function worldExecute(log: WorldLog) {
  return (call: ToolCall, ctx: { signal: AbortSignal }) => {
    log.ran.push(structuredClone(call));
    switch (call.name) {
      case 'weather_lookup':
        return { city: call.arguments['city'], celsius: String(call.arguments['city']).length };
      case 'ticket_create':
        return { id: `T-${log.ran.length}`, title: call.arguments['title'] };
      case 'slow_report':
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
        );
      case 'broken_lookup':
        throw new Error('the lookup service is down');
      case 'big_export':
        return 'r'.repeat(Number(call.arguments['kb'] ?? 1) * 1024);
      default:
        return { ran: call.name };
    }
  };
}

/** Options of {@link createWorld}. */
export interface WorldOptions {
  limits?: Partial<ProgramLimits>;
  guardrails?: Guardrail[];
  approval?: ApprovalAdapter;
}

/** A dispatcher over the world with an audit hook, and a program tool over that dispatcher. */
export function createWorld(options: WorldOptions = {}) {
  const log: WorldLog = { ran: [], audit: [] };
  const audit = createAuditHook((record) => void log.audit.push(record), {
    includeArguments: true,
  });
  const dispatch = createDispatcher({
    execute: worldExecute(log),
    resolveTool: (name) => worldTools.find((tool) => tool.name === name),
    hooks: [audit],
    ...(options.guardrails ? { guardrails: options.guardrails } : {}),
    ...(options.approval ? { approval: options.approval } : {}),
  });
  const program = createProgramTool({
    tools: worldTools,
    dispatch,
    audit,
    poolSize: 1,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return { log, dispatch, program };
}

/** Runs `work` with a fresh world, and closes its program tool's workers after. */
export async function withWorld(
  options: WorldOptions,
  work: (world: ReturnType<typeof createWorld>) => Promise<void>,
): Promise<void> {
  const world = createWorld(options);
  try {
    await work(world);
  } finally {
    await world.program.close();
  }
}

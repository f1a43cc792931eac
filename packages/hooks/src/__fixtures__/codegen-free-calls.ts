import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createBm25Ranker, type JsonSchemaObject, type ToolDefinition } from '@tool-search/core';
import { canGenerateCode } from '@tool-search/core/validate';
import { createDispatcher } from '../dispatcher.js';
import { createSchemaGuardrail } from '../schema-guardrail.js';
import type { DispatchContext } from '../types.js';

/**
 * Calls on which the bridge's argument check and the schema guardrail must answer
 * alike with and without code generation from strings: valid, repairable and invalid
 * arguments over five schemas (the issue's differential), plus a hostile schema whose
 * check overruns its budget.
 */
const SCHEMAS: Record<string, JsonSchemaObject> = {
  create_issue: {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1 }, n: { type: 'integer' } },
    required: ['title'],
    additionalProperties: false,
  },
  search: {
    type: 'object',
    properties: {
      query: { type: 'string', pattern: '^[^<>]+$' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      verbose: { type: 'boolean' },
    },
    required: ['query'],
  },
  send_mail: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      to: { type: 'string', format: 'email' },
      cc: { type: 'array', items: { type: 'string', format: 'email' }, uniqueItems: true },
      priority: { enum: ['low', 'high'], nullable: true, type: 'string' },
    },
    required: ['to'],
  },
  schedule: {
    type: 'object',
    properties: {
      at: { type: 'string', format: 'date-time' },
      options: { type: 'object', properties: { retries: { type: 'integer' } } },
      repeat: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    },
    dependentRequired: { repeat: ['at'] },
    unevaluatedProperties: false,
  },
  tree: {
    $defs: {
      node: {
        type: 'object',
        properties: {
          value: { type: 'number' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
        required: ['value'],
      },
    },
    $ref: '#/$defs/node',
  },
  hostile: {
    $defs: {
      x: {
        anyOf: [
          { $ref: '#/$defs/x' },
          { type: 'array', items: { $ref: '#/$defs/x' } },
          { type: 'integer' },
        ],
      },
    },
    type: 'object',
    properties: { v: { $ref: '#/$defs/x' } },
  },
};

const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'create_issue', arguments: { title: 'Bug' } },
  { name: 'create_issue', arguments: { title: 'Bug', n: '5' } },
  { name: 'create_issue', arguments: { title: 'x', evil: 'x', n: 'abc' } },
  { name: 'create_issue', arguments: { n: 1 } },
  { name: 'search', arguments: { query: 'tools', limit: 10 } },
  { name: 'search', arguments: { query: 'tools', limit: '10', verbose: 'true' } },
  { name: 'search', arguments: { query: '<script>', limit: 99 } },
  { name: 'send_mail', arguments: { to: 'a@b.co', cc: ['c@d.co'], priority: null } },
  { name: 'send_mail', arguments: { to: 'not-mail', cc: ['c@d.co', 'c@d.co'], priority: 'mid' } },
  { name: 'send_mail', arguments: { cc: [] } },
  { name: 'schedule', arguments: { at: '2026-12-04T10:00:00Z', repeat: 3 } },
  { name: 'schedule', arguments: { at: '2026-12-04T10:00:00Z', repeat: '3', options: '' } },
  { name: 'schedule', arguments: { repeat: 2, extra: true } },
  { name: 'schedule', arguments: { at: 'tomorrow', options: { retries: 'two' } } },
  { name: 'tree', arguments: { value: 1, children: [{ value: 2, children: [] }] } },
  { name: 'tree', arguments: { value: '1', children: [{ value: '2' }] } },
  { name: 'tree', arguments: { children: [{}] } },
  { name: 'hostile', arguments: { v: 1 } },
  { name: 'hostile', arguments: { v: [[[[[['x']]]]]] } },
];

const ctx: DispatchContext = { via: 'direct', signal: new AbortController().signal };

/**
 * What the bridge's check and the schema guardrail answer on each call, in this
 * runtime.
 *
 * @returns whether this runtime generates code, and one answer per call
 */
export async function judgeCalls(): Promise<{ canGenerateCode: boolean; answers: unknown[] }> {
  const tools: ToolDefinition[] = Object.entries(SCHEMAS).map(([name, inputSchema]) => ({
    name,
    description: `The ${name.replace('_', ' ')} tool.`,
    inputSchema,
  }));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const guardrail = createSchemaGuardrail((name) => byName.get(name));
  const assembly = assembleTools({
    tools,
    config: { enabled: 'on' },
    ranker: createBm25Ranker({ preset: 'spec' }),
  });
  const dispatch = createDispatcher({
    execute: (call) => ({ ran: call.name, with: call.arguments }),
    guardrails: [guardrail],
  });
  const answers: unknown[] = [];
  for (const call of CALLS) {
    answers.push({
      call,
      // Through the bridge (its check and repairs) and the one hooks pipeline.
      bridged: await handleBridgeCall(
        assembly,
        { name: 'tool_call', arguments: { name: call.name, arguments: call.arguments } },
        dispatch,
      ),
      // The guardrail alone, on the arguments as sent.
      guardrail: await guardrail.check(call, ctx),
    });
  }
  return { canGenerateCode: canGenerateCode(), answers };
}

import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { coreTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';
import { resolveUnderlyingCall } from './resolve.js';
import { createBridgeTelemetry } from './telemetry.js';

const createTicket: ToolDefinition = {
  name: 'tickets_create',
  description: 'Create a ticket in the tracker',
  inputSchema: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      priority: { type: 'string', enum: ['low', 'high'] },
      options: {
        type: 'object',
        properties: { count: { type: 'integer' }, notify: { type: 'boolean' } },
        required: ['count'],
      },
      filters: { type: 'object', properties: { tag: { type: 'string' } } },
      assignee: { type: 'string', nullable: true },
      state: { type: 'string', enum: ['open', 'closed'], nullable: true },
    },
    required: ['title'],
    additionalProperties: false,
  },
  source: 'mcp',
  toolset: 'mcp-tickets',
};

// A schema no validator can compile: `type` names no JSON type.
const legacyTool: ToolDefinition = {
  name: 'legacy_export',
  description: 'Export the legacy data',
  inputSchema: { type: 'object', properties: { format: { type: 'spreadsheet' } } },
  source: 'mcp',
  toolset: 'mcp-legacy',
};

// A schema that points outside itself: nothing here can resolve it.
const remoteTool: ToolDefinition = {
  name: 'remote_lookup',
  description: 'Look up a record on the remote service',
  inputSchema: {
    type: 'object',
    properties: { query: { $ref: 'https://schemas.example.com/query.json' } },
  },
  source: 'plugin',
  toolset: 'plugin-remote',
};

function setup() {
  const telemetry = createBridgeTelemetry();
  const assembly = assembleTools({
    tools: [...coreTools, createTicket, legacyTool, remoteTool],
    config: { enabled: 'on' },
    telemetry,
  });
  const dispatched: ToolCall[] = [];
  const dispatch = vi.fn((call: ToolCall) => {
    dispatched.push(structuredClone(call));
    return { ran: call.name, received: call.arguments };
  });
  const viaToolCall = (name: string, args: unknown) =>
    handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name, arguments: args } },
      dispatch,
    );
  const direct = (name: string, args: unknown) =>
    handleBridgeCall(assembly, { name, arguments: args }, dispatch);
  return { assembly, telemetry, dispatch, dispatched, viaToolCall, direct };
}

describe('the bridge checks arguments against the schema before dispatch', () => {
  it('refuses a value outside an enum, says the tool was not invoked, and names path and constraint', async () => {
    const { viaToolCall, dispatch, assembly } = setup();
    const answer = await viaToolCall('tickets_create', { title: 'Bug', priority: 'urgent' });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toEqual({
      error:
        "'tickets_create' was not invoked: its arguments do not match its schema: arguments.priority (enum): must be one of [\"low\",\"high\"]. Its full schema is in 'parameters'; fix what 'violations' names and call it again.",
      code: 'invalid_arguments',
      name: 'tickets_create',
      violations: [
        {
          path: 'arguments.priority',
          constraint: 'enum',
          message: 'must be one of ["low","high"]',
        },
      ],
      parameters: assembly.catalog.get('tickets_create')!.inputSchema,
    });
  });

  it('refuses a nested value of the wrong type', async () => {
    const { viaToolCall, dispatch } = setup();
    const answer = await viaToolCall('tickets_create', {
      title: 'Bug',
      options: { count: 'not-an-integer' },
    });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      error: expect.stringContaining('arguments.options.count (type): must be integer'),
      violations: [{ path: 'arguments.options.count', constraint: 'type' }],
    });
  });

  it('refuses a nested object that misses a required field', async () => {
    const { viaToolCall, dispatch } = setup();
    const answer = await viaToolCall('tickets_create', { title: 'Bug', options: {} });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      error: expect.stringMatching(/^'tickets_create' was not invoked: /),
      violations: [
        { path: 'arguments.options.count', constraint: 'required', message: 'is required' },
      ],
    });
  });

  it('refuses a property the schema does not allow (additionalProperties: false)', async () => {
    const { viaToolCall, dispatch } = setup();
    const answer = await viaToolCall('tickets_create', { title: 'Bug', severity: 3 });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      violations: [{ path: 'arguments.severity', constraint: 'additionalProperties' }],
    });
  });

  it('lists every violation of a call in one answer, so one round trip repairs them all', async () => {
    const { viaToolCall, dispatch, dispatched } = setup();
    const answer = (await viaToolCall('tickets_create', {
      title: 'Bug',
      priority: 'urgent',
      options: { count: 'many' },
      severity: 3,
    })) as { violations: { path: string }[] };
    expect(answer.violations.map((violation) => violation.path).sort()).toEqual([
      'arguments.options.count',
      'arguments.priority',
      'arguments.severity',
    ]);
    await viaToolCall('tickets_create', { title: 'Bug', priority: 'high', options: { count: 2 } });
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatched[0]!.arguments).toEqual({
      title: 'Bug',
      priority: 'high',
      options: { count: 2 },
    });
  });

  it('keeps the design text for missing top-level required arguments, with the violations', async () => {
    const { viaToolCall, dispatch } = setup();
    const answer = await viaToolCall('tickets_create', { priority: 'low' });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      error:
        "'tickets_create' was not invoked: missing required argument 'title'. Its full schema is in 'parameters'; call it again with every required argument.",
      missing: ['title'],
      violations: [{ path: 'arguments.title', constraint: 'required' }],
    });
  });

  it('repairs "42" for an integer (and "true" for a boolean) and dispatches the repaired arguments', async () => {
    const { viaToolCall, dispatched, telemetry } = setup();
    await viaToolCall('tickets_create', '{"title":"Bug","options":{"count":"42","notify":"true"}}');
    expect(dispatched).toEqual([
      {
        name: 'tickets_create',
        arguments: { title: 'Bug', options: { count: 42, notify: true } },
      },
    ]);
    expect(telemetry).toMatchObject({ dispatched: 1, argumentsRepaired: 1, errors: 0 });
  });

  it('repairs "" and "{}" to {} for an object parameter that requires nothing', async () => {
    const { viaToolCall, dispatched } = setup();
    await viaToolCall('tickets_create', { title: 'A', filters: '' });
    await viaToolCall('tickets_create', { title: 'B', filters: '{}' });
    expect(dispatched.map((call) => call.arguments)).toEqual([
      { title: 'A', filters: {} },
      { title: 'B', filters: {} },
    ]);
  });

  it('never makes up an object with required fields: "" there is a type error', async () => {
    const { viaToolCall, dispatch } = setup();
    const answer = await viaToolCall('tickets_create', { title: 'Bug', options: '' });
    expect(dispatch).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      violations: [{ path: 'arguments.options', constraint: 'type', message: 'must be object' }],
    });
  });

  it('honours nullable: true (null passes, an enum too; other values are still checked)', async () => {
    const { viaToolCall, dispatched } = setup();
    await viaToolCall('tickets_create', { title: 'Bug', assignee: null, state: null });
    expect(dispatched).toEqual([
      { name: 'tickets_create', arguments: { title: 'Bug', assignee: null, state: null } },
    ]);
    expect(await viaToolCall('tickets_create', { title: 'Bug', state: 'merged' })).toMatchObject({
      violations: [{ path: 'arguments.state', constraint: 'enum' }],
    });
    expect(dispatched).toHaveLength(1);
  });

  it('checks a direct call of a deferred tool the same way', async () => {
    const { direct, dispatch, dispatched } = setup();
    expect(await direct('tickets_create', { title: 'Bug', priority: 'urgent' })).toMatchObject({
      error: expect.stringContaining('was not invoked'),
      violations: [{ path: 'arguments.priority', constraint: 'enum' }],
    });
    expect(dispatch).not.toHaveBeenCalled();
    await direct('tickets_create', '{"title":"Bug","options":{"count":"7"}}');
    expect(dispatched).toEqual([
      { name: 'tickets_create', arguments: { title: 'Bug', options: { count: 7 } } },
    ]);
  });

  it('dispatches a call whose schema is malformed untouched, and counts it as unchecked', async () => {
    const { viaToolCall, dispatched, telemetry } = setup();
    const args = { format: 42, anything: ['goes'] };
    await viaToolCall('legacy_export', args);
    expect(dispatched).toEqual([{ name: 'legacy_export', arguments: args }]);
    expect(telemetry).toMatchObject({ dispatched: 1, argumentsUnchecked: 1, errors: 0 });
  });

  it('dispatches a call whose schema has an external $ref untouched', async () => {
    const { direct, dispatched, telemetry } = setup();
    await direct('remote_lookup', { query: '42' });
    expect(dispatched).toEqual([{ name: 'remote_lookup', arguments: { query: '42' } }]);
    expect(telemetry).toMatchObject({ argumentsUnchecked: 1, argumentsRepaired: 0 });
  });
});

describe('resolveUnderlyingCall', () => {
  it('says what it repaired and when a schema went unchecked', () => {
    const { assembly } = setup();
    expect(
      resolveUnderlyingCall(assembly, {
        name: 'tickets_create',
        arguments: { title: 'Bug', options: { count: '3' } },
      }),
    ).toMatchObject({
      ok: true,
      call: { arguments: { title: 'Bug', options: { count: 3 } } },
      repairs: [{ path: 'arguments.options.count', from: '3', to: 3 }],
    });
    const unchecked = resolveUnderlyingCall(assembly, {
      name: 'legacy_export',
      arguments: { format: 1 },
    });
    expect(unchecked).toMatchObject({
      ok: true,
      unchecked: expect.stringContaining('schema is invalid'),
    });
    expect(unchecked).not.toHaveProperty('repairs');
  });

  it('still refuses a call that misses a top-level required argument of a schema it cannot check', () => {
    const tool: ToolDefinition = {
      ...legacyTool,
      inputSchema: { ...legacyTool.inputSchema, required: ['format'] },
    };
    const assembly = assembleTools({ tools: [tool], config: { enabled: 'on' } });
    expect(resolveUnderlyingCall(assembly, { name: 'legacy_export', arguments: {} })).toMatchObject(
      {
        ok: false,
        code: 'missing_arguments',
        missing: ['format'],
        violations: [{ path: 'arguments.format', constraint: 'required' }],
      },
    );
  });

  it('lists ten violations in the text and counts the rest', () => {
    const wide: ToolDefinition = {
      name: 'wide_tool',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 12 }, (_, index) => [`p${index}`, { type: 'integer' }]),
        ),
      },
      source: 'mcp',
    };
    const assembly = assembleTools({ tools: [wide], config: { enabled: 'on' } });
    const resolved = resolveUnderlyingCall(assembly, {
      name: 'wide_tool',
      arguments: Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`p${index}`, 'x'])),
    });
    expect(resolved).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(resolved.ok === false && resolved.violations).toHaveLength(12);
    expect(resolved.ok === false && resolved.error).toContain('(and 2 more)');
  });
});

describe('the bridge checks arguments within a budget', () => {
  const fenced: ToolDefinition = {
    name: 'files_read',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', pattern: '^(?!/etc)' }, lines: { type: 'integer' } },
      required: ['path'],
    },
    source: 'mcp',
  };
  let nestedValue: unknown = 0;
  for (let level = 0; level < 40; level++) nestedValue = [nestedValue];
  const tree: ToolDefinition = {
    name: 'tree_walk',
    inputSchema: {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          anyOf: [
            { type: 'array', items: { $ref: '#/$defs/node' } },
            { type: 'array', items: { $ref: '#/$defs/node' } },
          ],
        },
      },
    },
    source: 'mcp',
  };

  it('leaves only a lookahead pattern unchecked: the rest of the schema still refuses a bad call', async () => {
    const telemetry = createBridgeTelemetry();
    const assembly = assembleTools({ tools: [fenced], config: { enabled: 'on' }, telemetry });
    expect(
      resolveUnderlyingCall(assembly, {
        name: 'files_read',
        arguments: { path: '/tmp', lines: 'x' },
      }),
    ).toMatchObject({
      ok: false,
      code: 'invalid_arguments',
      violations: [{ path: 'arguments.lines', constraint: 'type' }],
    });
    const resolved = resolveUnderlyingCall(assembly, {
      name: 'files_read',
      arguments: { path: '/tmp', lines: '3' },
    });
    expect(resolved).toMatchObject({
      ok: true,
      call: { arguments: { path: '/tmp', lines: 3 } },
      skipped: [
        {
          tool: 'files_read',
          keyword: 'pattern',
          pointer: '/properties/path/pattern',
          cause: 'unsupported',
        },
      ],
    });
    expect(resolved).not.toHaveProperty('unchecked');
    const dispatch = vi.fn(() => 'ok');
    await handleBridgeCall(assembly, { name: 'files_read', arguments: { path: '/tmp' } }, dispatch);
    expect(telemetry).toMatchObject({
      dispatched: 1,
      argumentsPartlyChecked: 1,
      argumentsUnchecked: 0,
    });
  });

  it('reports each keyword left unchecked once to onSkippedKeyword, however many calls meet it', () => {
    const reported: unknown[] = [];
    const assembly = assembleTools({
      tools: [fenced],
      config: { enabled: 'on' },
      onSkippedKeyword: (skipped) => reported.push(skipped),
    });
    resolveUnderlyingCall(assembly, { name: 'files_read', arguments: { path: '/a' } });
    resolveUnderlyingCall(assembly, { name: 'files_read', arguments: { path: '/b' } });
    expect(reported).toEqual([
      expect.objectContaining({ tool: 'files_read', keyword: 'pattern', cause: 'unsupported' }),
    ]);
  });

  it('returns from a recursive anyOf that doubles per level, with that anyOf left unchecked', () => {
    const assembly = assembleTools({ tools: [tree], config: { enabled: 'on' } });
    expect(
      resolveUnderlyingCall(assembly, { name: 'tree_walk', arguments: { tree: nestedValue } }),
    ).toMatchObject({
      ok: true,
      skipped: [{ keyword: 'anyOf', pointer: '/$defs/node/anyOf', cause: 'budget' }],
    });
  });

  it('refuses arguments over the size limit before their schema is checked', () => {
    const assembly = assembleTools({
      tools: [tree],
      config: { enabled: 'on' },
      maxArgumentBytes: 64,
    });
    expect(
      resolveUnderlyingCall(assembly, {
        name: 'tree_walk',
        arguments: { tree: nestedValue, note: 'x'.repeat(100) },
      }),
    ).toMatchObject({
      ok: false,
      code: 'invalid_arguments',
      violations: [{ path: 'arguments', constraint: 'maxArgumentBytes' }],
    });
    expect(() =>
      assembleTools({ tools: [tree], config: { enabled: 'on' }, maxArgumentBytes: -1 }),
    ).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});

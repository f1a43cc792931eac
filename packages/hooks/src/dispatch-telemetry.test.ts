import { context, trace } from '@opentelemetry/api';
import { activeInstruments, activeTracer } from '@tool-search/core/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MemoryTelemetry, registerMemoryTelemetry } from './__fixtures__/otel.js';
import { createDispatcher } from './dispatcher.js';
import { createPolicyApproval } from './policy-approval.js';
import { redactSecrets, spanContent } from './telemetry-content.js';
import { createToolPolicyGuardrail } from './tool-policy-guardrail.js';

function dispatcher(options: { recordContent?: boolean } = {}) {
  return createDispatcher({
    execute: (call) => ({ echoed: call.arguments }),
    guardrails: [createToolPolicyGuardrail({ deny: { tools: ['*_delete_*'] } })],
    approval: createPolicyApproval({
      require: { tools: ['deploy_*'] },
      autoApprove: { tools: ['read_*'] },
      ask: { name: 'person', request: async () => 'allow-once' as const },
    }),
    ...(options.recordContent ? { telemetry: { recordContent: true } } : {}),
  });
}

describe('dispatch without an OpenTelemetry SDK', () => {
  it('has no tracer and no instruments, so nothing is allocated for them', async () => {
    expect(activeTracer()).toBeUndefined();
    expect(activeInstruments()).toBeUndefined();
    const result = await dispatcher()({ name: 'read_file', arguments: { path: 'a' } });
    expect(result.status).toBe('ok');
  });
});

describe('dispatch with an OpenTelemetry SDK', () => {
  let telemetry: MemoryTelemetry;
  beforeEach(() => {
    telemetry = registerMemoryTelemetry();
  });
  afterEach(async () => {
    await telemetry.close();
  });

  it('runs an approved call in an execute_tool span, with the approval and the wait for a person as children', async () => {
    const result = await dispatcher()(
      { id: 'c-7', name: 'deploy_app', arguments: { env: 'prod' } },
      { via: 'bridge', sessionId: 's1' },
    );
    expect(result.status).toBe('ok');
    const spans = telemetry.spans();
    const call = spans.find((span) => span.name === 'execute_tool deploy_app')!;
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'deploy_app',
      'gen_ai.tool.call.id': 'c-7',
      'tool_search.route': 'bridge',
      'tool_search.outcome': 'ok',
      'tool_search.approval.decision': 'allow-once',
    });
    const approval = spans.find((span) => span.name === 'approval')!;
    const wait = spans.find((span) => span.name === 'approval.wait')!;
    const guardrails = spans.find((span) => span.name === 'guardrails')!;
    expect(approval.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(guardrails.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(wait.parentSpanContext?.spanId).toBe(approval.spanContext().spanId);
    expect(guardrails.attributes['tool_search.outcome']).toBe('allow');
    expect(call.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(await telemetry.counter('tool_search.calls', { 'tool_search.outcome': 'ok' })).toBe(1);
    expect(await telemetry.counter('tool_search.approvals')).toBe(1);
  });

  it("labels metrics only with tools it resolved, never with a model's free text", async () => {
    const known = createDispatcher({
      execute: () => 'done',
      resolveTool: (name) =>
        name === 'read_file' ? { name, inputSchema: { type: 'object' } } : undefined,
    });
    await known({ name: 'read_file', arguments: {} });
    await known({ name: `made_up_${'x'.repeat(500)}`, arguments: {} });
    expect(await telemetry.counter('tool_search.calls', { 'gen_ai.tool.name': 'read_file' })).toBe(
      1,
    );
    expect(await telemetry.counter('tool_search.calls', { 'gen_ai.tool.name': '(unknown)' })).toBe(
      1,
    );
  });

  it('records a denied call with who denied it, and counts it by outcome and route', async () => {
    const result = await dispatcher()({ name: 'repo_delete_branch', arguments: {} });
    expect(result.status).toBe('denied');
    const call = telemetry.spans().find((span) => span.name === 'execute_tool repo_delete_branch')!;
    expect(call.attributes).toMatchObject({
      'tool_search.outcome': 'denied',
      'tool_search.denied_by.kind': 'guardrail',
      'tool_search.route': 'direct',
    });
    const guardrails = telemetry.spans().find((span) => span.name === 'guardrails')!;
    expect(guardrails.attributes['tool_search.outcome']).toBe('deny');
    const where = { 'tool_search.outcome': 'denied', 'tool_search.route': 'direct' };
    expect(await telemetry.counter('tool_search.calls', where)).toBe(1);
    expect(telemetry.spans().some((span) => span.name === 'approval')).toBe(false);
  });

  it("parents the call's span under the caller's active span", async () => {
    const tracer = trace.getTracer('test');
    const parent = tracer.startSpan('agent turn');
    await context.with(trace.setSpan(context.active(), parent), () =>
      dispatcher()({ name: 'read_file', arguments: {} }),
    );
    parent.end();
    const call = telemetry.spans().find((span) => span.name === 'execute_tool read_file')!;
    expect(call.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('records arguments and results only when asked, with secrets redacted', async () => {
    await dispatcher({ recordContent: true })({
      name: 'read_file',
      arguments: { path: '/etc/motd', api_key: 'sk-live-123456789', note: 'Bearer abc.def' },
    });
    const call = telemetry.spans().find((span) => span.name === 'execute_tool read_file')!;
    const recorded = String(call.attributes['gen_ai.tool.call.arguments']);
    expect(recorded).toContain('/etc/motd');
    expect(recorded).not.toContain('sk-live');
    expect(recorded).not.toContain('abc.def');
    expect(String(call.attributes['gen_ai.tool.call.result'])).toContain('echoed');
  });
});

describe('redactSecrets', () => {
  it('replaces credential fields and credential-looking strings, at any depth', () => {
    expect(
      redactSecrets({
        a: [{ Password: 'x' }],
        headers: { Authorization: 'y' },
        jwt: 'eyJa.eyJb.c',
      }),
    ).toEqual({
      a: [{ Password: '[redacted]' }],
      headers: { Authorization: '[redacted]' },
      jwt: '[redacted]',
    });
  });

  it('renders by the approval rules: controls escaped, long strings cut in place', () => {
    const text = spanContent({ note: `a\u202eb${'x'.repeat(10_000)}` });
    expect(text).toContain('\\u202e');
    expect(text).toContain('characters cut');
  });
});

/**
 * Observing the libraries with OpenTelemetry: register an SDK (here one that keeps spans
 * in memory), dispatch calls, and read the spans the dispatcher made. Without an SDK the
 * same code makes no span and records no metric.
 */
import { strict as assert } from 'node:assert';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import {
  createDispatcher,
  createPolicyApproval,
  createToolPolicyGuardrail,
} from '@tool-search/hooks';

// #region register
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
);
// #endregion register

// #region dispatch
const dispatch = createDispatcher({
  execute: (call) => ({ deployed: call.arguments['env'] }),
  guardrails: [createToolPolicyGuardrail({ deny: { tools: ['*_delete_*'] } })],
  approval: createPolicyApproval({
    require: { tools: ['deploy_*'] },
    ask: { name: 'on-call', request: async () => 'allow-once' as const },
  }),
  // Off by default: arguments and results may hold secrets (they are redacted when on).
  telemetry: { recordContent: false },
});
await dispatch({ id: 'call-1', name: 'deploy_app', arguments: { env: 'prod' } }, { via: 'bridge' });
await dispatch({ name: 'repo_delete_branch', arguments: { branch: 'main' } });

for (const span of exporter.getFinishedSpans()) {
  console.log([span.name, span.attributes['tool_search.outcome']].filter(Boolean).join(' '));
}
// guardrails allow
// approval.wait
// approval allow
// execute_tool deploy_app ok
// guardrails deny
// execute_tool repo_delete_branch denied
// #endregion dispatch

const names = exporter.getFinishedSpans().map((span) => span.name);
assert.deepEqual(names, [
  'guardrails',
  'approval.wait',
  'approval',
  'execute_tool deploy_app',
  'guardrails',
  'execute_tool repo_delete_branch',
]);
const deploy = exporter.getFinishedSpans()[3]!;
assert.equal(deploy.attributes['gen_ai.operation.name'], 'execute_tool');
assert.equal(deploy.attributes['gen_ai.tool.call.id'], 'call-1');
assert.equal(deploy.attributes['tool_search.route'], 'bridge');

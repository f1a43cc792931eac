import type { ToolCall, ToolDefinition } from '@tool-search/core';
import { vi } from 'vitest';
import type { DispatcherOptions } from '../dispatcher.js';
import type {
  ApprovalAdapter,
  ApprovalRequest,
  DispatchContext,
  Guardrail,
  GuardrailVerdict,
  ToolCallHook,
} from '../types.js';

// Generous: the machine running the tests may be busy; a pass never waits this long.
export const WAIT = { timeout: 10_000 };

/** The call most dispatcher tests make. */
export const call: ToolCall = {
  id: 'call-1',
  name: 'github_create_issue',
  arguments: { title: 'Bug' },
};

/** The definition of {@link call}. */
export const tool: ToolDefinition = {
  name: 'github_create_issue',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
  source: 'mcp',
  toolset: 'mcp-github',
};

/** Records every invocation in one log, so that tests can assert the order. */
export function setup(overrides: Partial<DispatcherOptions> = {}) {
  const log: string[] = [];
  const guardrail = (
    name: string,
    verdict: () => unknown = () => ({ allow: true }),
  ): Guardrail => ({
    name,
    check: (seen) => {
      log.push(`guardrail ${name} ${seen.name}`);
      return verdict() as GuardrailVerdict;
    },
  });
  const hook = (name: string, methods: Partial<Omit<ToolCallHook, 'name'>> = {}): ToolCallHook => ({
    name,
    beforeCall: (seen, ctx) => {
      log.push(`before ${name} ${seen.name}`);
      return methods.beforeCall?.(seen, ctx);
    },
    afterCall: (seen, result, ctx) => {
      log.push(`after ${name} ${JSON.stringify(result)}`);
      return methods.afterCall?.(seen, result, ctx);
    },
    onError: (seen, error, ctx) => {
      log.push(`onError ${name}`);
      return methods.onError?.(seen, error, ctx);
    },
    onSettled: (settled, ctx) => {
      log.push(`settled ${name} ${settled.result.status}`);
      return methods.onSettled?.(settled, ctx);
    },
  });
  const approval = (
    answer: (request: ApprovalRequest) => unknown = () => 'allow-once',
  ): ApprovalAdapter => ({
    name: 'test-approval',
    request: (request) => {
      log.push(`approval ${request.call.name}`);
      return answer(request) as 'allow-once';
    },
  });
  const execute = vi.fn((seen: ToolCall, _ctx: DispatchContext): unknown => {
    log.push(`execute ${seen.name}`);
    return 'done';
  });
  return { log, guardrail, hook, approval, execute, options: { execute, ...overrides } };
}

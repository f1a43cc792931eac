import { createProgramPolicy } from '@tool-search/code';
import type { ToolCall, ToolDefinition } from '@tool-search/core';
import {
  type ApprovalRequest,
  type AuditRecord,
  createAuditHook,
  createDispatcher,
} from '@tool-search/hooks';
import { sessionTools } from './tools.js';

const READ_ONLY = new Set(['github_list_pull_requests', 'weather_forecast']);

/**
 * The session's tools with MCP annotations: listing pull requests and the forecast are
 * read-only (programs may call them by default), creating an issue and posting are writes.
 */
export const programTools: ToolDefinition[] = sessionTools.map((tool) =>
  READ_ONLY.has(tool.name) ? { ...tool, annotations: { readOnlyHint: true } } : tool,
);

/** What the runtime's `execute` saw of one call. */
export interface ExecutedCall {
  name: string;
  arguments: Record<string, unknown>;
  via: string | undefined;
  programId: string | undefined;
}

/**
 * The real tools behind the hooks dispatcher, with the program policy of
 * `@tool-search/code` as a guardrail (the same object the preparation reads), an audit
 * hook, and, when `approve` is given, an approval adapter that asks it.
 */
export function createProgramRuntime(
  options: { approve?: (request: ApprovalRequest) => 'allow-once' | 'deny' } = {},
) {
  const policy = createProgramPolicy();
  const records: AuditRecord[] = [];
  const audit = createAuditHook((record) => void records.push(record), {
    includeArguments: true,
  });
  const approvals: ApprovalRequest[] = [];
  const executed: ExecutedCall[] = [];
  const byName = new Map(programTools.map((tool) => [tool.name, tool]));
  const approve = options.approve;
  const dispatch = createDispatcher({
    resolveTool: (name) => byName.get(name),
    guardrails: [policy],
    hooks: [audit],
    ...(approve === undefined
      ? {}
      : {
          approval: {
            name: 'person',
            request: (request: ApprovalRequest) => {
              approvals.push(request);
              return approve(request);
            },
          },
        }),
    execute: (call: ToolCall, ctx) => {
      executed.push({
        name: call.name,
        arguments: call.arguments,
        via: ctx.via,
        programId: ctx.programId,
      });
      switch (call.name) {
        case 'github_list_pull_requests':
          return [{ number: 7, repo: call.arguments['repo'], title: 'Fix login' }];
        case 'weather_forecast':
          return { city: call.arguments['city'], forecast: 'sunny' };
        case 'github.create_issue':
          return { number: 1, title: call.arguments['title'] };
        default:
          throw new Error(`no runtime for ${call.name}`);
      }
    },
  });
  return { policy, dispatch, audit, records, approvals, executed };
}

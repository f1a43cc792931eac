/**
 * The code block of packages/hooks/README.md (sync:docs writes the `readme` region into
 * it): one dispatcher with a guardrail, an audit hook and an approval policy. The MCP
 * client and the person asked are stand-ins so that the example runs as it is.
 */
import { strict as assert } from 'node:assert';
import type { ApprovalAdapter } from '@tool-search/hooks';
import { tools } from './tools.js';

const mcp = { callTool: async (name: string, _args: unknown, _options: unknown) => ({ name }) };
const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
const audit: unknown[] = [];
const log = {
  info: (record: unknown): void => {
    audit.push(record);
  },
};
const person: ApprovalAdapter = { request: async () => 'deny' as const }; // e.g. createTerminalApproval()
const call = { name: 'github_list_pull_requests', arguments: { repo: 'acme/app' } }; // read-only
const [sessionId, signal] = ['session-1', new AbortController().signal];

// #region readme
import * as hooks from '@tool-search/hooks';

const dispatch = hooks.createDispatcher({
  execute: (call, { signal }) => mcp.callTool(call.name, call.arguments, { signal }),
  resolveTool: (name) => toolsByName.get(name), // fills ctx.tool for guardrails and approvals
  guardrails: [hooks.createToolPolicyGuardrail({ deny: ['*_delete_*'] })],
  hooks: [hooks.createAuditHook((record) => log.info(record))],
  approval: hooks.createPolicyApproval({
    require: { annotations: { destructiveHint: true } },
    autoApprove: { annotations: { readOnlyHint: true } },
    ask: person, // e.g. hooks.createTerminalApproval() in a terminal
  }),
});
const result = await dispatch(call, { sessionId, signal }); // never throws
// #endregion readme

assert.equal(result.status, 'ok');
assert.equal(audit.length, 1);
// A call the policy must ask about, and the stand-in person refuses:
const write = { name: 'github_create_issue', arguments: { repo: 'a/b', title: 't', body: 'b' } };
assert.equal((await dispatch(write, { sessionId, signal })).status, 'denied');

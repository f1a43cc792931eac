import { PassThrough } from 'node:stream';
import type { ToolDefinition } from '@tool-search/core';
import { createArgumentSizeGuardrail } from '../argument-size-guardrail.js';
import { createCallbackApproval } from '../callback-approval.js';
import { createPolicyApproval } from '../policy-approval.js';
import { createSchemaGuardrail } from '../schema-guardrail.js';
import { createTerminalApproval } from '../terminal-approval.js';
import { createToolPolicyGuardrail } from '../tool-policy-guardrail.js';
import { testApprovalAdapter, testGuardrail } from './index.js';

const readFile: ToolDefinition = {
  name: 'read_file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  toolset: 'mcp-fs',
  annotations: { readOnlyHint: true },
};
const deleteFile: ToolDefinition = {
  name: 'fs_delete_file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  toolset: 'mcp-fs',
  annotations: { destructiveHint: true },
};
const byName = new Map([readFile, deleteFile].map((tool) => [tool.name, tool]));

testGuardrail(createToolPolicyGuardrail({ deny: { tools: ['*_delete_*'] } }), {
  allows: [{ call: { name: 'read_file', arguments: { path: '/a' } }, tool: readFile }],
  denies: [{ call: { name: 'fs_delete_file', arguments: { path: '/a' } }, tool: deleteFile }],
});

testGuardrail(
  createSchemaGuardrail((name) => byName.get(name)),
  {
    allows: [{ call: { name: 'read_file', arguments: { path: '/a' } } }],
    denies: [
      { call: { name: 'read_file', arguments: {} } },
      { call: { name: 'read_file', arguments: { path: 1 } } },
      { call: { name: 'nowhere', arguments: {} } },
    ],
  },
);

testGuardrail(createArgumentSizeGuardrail(1_000), {
  allows: [{ call: { name: 'read_file', arguments: { path: '/a' } } }],
  denies: [{ call: { name: 'write_file', arguments: { text: 'x'.repeat(2_000) } } }],
});

testApprovalAdapter(
  createPolicyApproval({ autoApprove: { annotations: { readOnlyHint: true } }, otherwise: 'deny' }),
  {
    requests: [
      { call: { name: 'read_file', arguments: {} }, tool: readFile, expect: 'allow-once' },
      { call: { name: 'fs_delete_file', arguments: {} }, tool: deleteFile, expect: 'deny' },
      { call: { name: 'unknown', arguments: {} }, expect: 'deny' },
    ],
  },
);

testApprovalAdapter(createCallbackApproval(({ call }) => call.name === 'read_file'));

testApprovalAdapter(
  createTerminalApproval({ input: new PassThrough(), output: new PassThrough() }),
  { name: 'testApprovalAdapter(terminal without a TTY)' },
);

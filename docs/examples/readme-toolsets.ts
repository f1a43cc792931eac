/**
 * The code block of packages/toolsets/README.md (sync:docs writes the `readme` region
 * into it): a registry, a session's scope, a subagent's narrower scope.
 */
// #region readme
import { createToolsetRegistry, narrowScope, scopeKey, scopeTools } from '@tool-search/toolsets';
import { tools as allTools } from './tools.js';

const registry = createToolsetRegistry([
  { name: 'files', tools: ['read_file', 'write_file'] },
  { name: 'dev', includes: ['files', 'mcp-github'] }, // mcp-<server> needs no definition
]);
const session = { enabledToolsets: ['dev'], disabledToolsets: ['mcp-slack'] };
const visible = scopeTools(allTools, session, registry); // then assemble as usual

const child = narrowScope(session, { enabledToolsets: ['mcp-github', 'mcp-payments'] }, registry);
console.log(child.enabledToolsets, child.refused); // ['mcp-github'], mcp-payments refused

const cacheKey = scopeKey(child, registry); // changes when the definitions change

// #endregion readme

import { strict as assert } from 'node:assert';

assert.ok(visible.some((tool) => tool.name === 'github_create_issue'));
assert.ok(!visible.some((tool) => tool.toolset === 'mcp-slack'));
assert.deepEqual(child.enabledToolsets, ['mcp-github']);
assert.equal(child.refused[0]?.toolset, 'mcp-payments');
assert.equal(typeof cacheKey, 'string');

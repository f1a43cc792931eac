/**
 * The code block of packages/code/README.md (sync:docs writes the `readme` region into
 * it): tool_program beside the bridge tools, one program run through the one dispatcher.
 */
// #region readme
import { assembleTools } from '@tool-search/bridge';
import { createProgramPolicy, createProgramTool } from '@tool-search/code';
import { createDispatcher } from '@tool-search/hooks';
import { tools } from './tools.js'; // the session's (scoped) tools

const dispatch = createDispatcher({
  execute: (call) => [{ number: 7, repo: call.arguments['repo'] }], // your tools run here
  resolveTool: (name) => tools.find((tool) => tool.name === name), // annotations for the policy
  guardrails: [createProgramPolicy()], // programs call read-only tools unless you allow more
});
const program = createProgramTool({ tools, dispatch });
const assembly = assembleTools({ tools, config: { enabled: 'on' }, program }); // lists tool_program
// When the model calls tool_program, its arguments are { source }:
const result = await program.run(
  { source: "return (await tools.github_list_pull_requests({ repo: 'web' })).length;" },
  { sessionId: 'session-1' },
);
console.log(result.status, result.result, result.calls); // completed 1 [ { name, status: 'ok', … } ]
await program.close(); // its sandbox workers

// #endregion readme

import { strict as assert } from 'node:assert';

assert.ok(assembly.tools.some((tool) => tool.name === 'tool_program'));
assert.equal(result.status, 'completed');
assert.equal(result.result, 1);
assert.deepEqual(
  result.calls.map((call) => [call.name, call.status]),
  [['github_list_pull_requests', 'ok']],
);

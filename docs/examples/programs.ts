/**
 * Programs over tools: tool_program beside the bridges, a program that fans out calls,
 * and the one dispatcher that decides every nested call (via 'program').
 */
import { strict as assert } from 'node:assert';
import { assembleTools } from '@tool-search/bridge';
import { createProgramPolicy, createProgramTool } from '@tool-search/code';
import { type AuditRecord, createAuditHook, createDispatcher } from '@tool-search/hooks';
import { tools } from './tools.js';

// #region setup
const audit: AuditRecord[] = [];
// The one enforcement point: every call, direct, through tool_call or from a program.
const dispatch = createDispatcher({
  execute: (call) =>
    call.name === 'github_list_pull_requests'
      ? [{ number: 7, title: `Fix the build of ${String(call.arguments['repo'])}` }]
      : { done: call.name },
  resolveTool: (name) => tools.find((tool) => tool.name === name),
  // Programs may call read-only tools only; direct calls are not its business.
  guardrails: [createProgramPolicy()],
  hooks: [createAuditHook((record) => void audit.push(record))],
});
const program = createProgramTool({ tools, dispatch, limits: { cpuTimeMs: 2_000 } });
const assembly = assembleTools({ tools, config: { enabled: 'on' }, program });
console.log(assembly.tools.map((tool) => tool.name));
// [ 'read_file', 'tool_search', 'tool_describe', 'tool_call', 'tool_program' ]
// #endregion setup

// #region run
// What the model sends as tool_program's arguments: one program instead of many turns.
const result = await program.run(
  {
    source: `
      const repos = ['web', 'api', 'docs'];
      const lists = await Promise.all(
        repos.map((repo) => tools.github_list_pull_requests({ repo })),
      );
      try {
        await tools.github_merge_pull_request({ repo: 'web', number: '7' });
      } catch (error) {
        console.log('merge refused:', error.status);
      }
      return lists.map((list, index) => repos[index] + ': ' + list.length + ' open');
    `,
  },
  { sessionId: 'session-1' },
);
console.log(result.status, result.result, result.logs);
// completed [ 'web: 1 open', 'api: 1 open', 'docs: 1 open' ] [ 'merge refused: denied' ]
console.log(result.calls.map((call) => `${call.name} ${call.status}`));
// three 'github_list_pull_requests ok', then 'github_merge_pull_request denied'
// #endregion run

await program.close();
assert.equal(result.status, 'completed');
assert.deepEqual(result.logs, ['merge refused: denied']);
assert.equal(audit.length, 4);
assert.ok(
  audit.every((record) => record.via === 'program' && record.programId === result.programId),
);

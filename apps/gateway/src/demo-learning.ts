import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_CALL, TOOL_SEARCH } from '@tool-search/bridge';
import type { SearchLearner } from '@tool-search/core';
import type { DemoPrinter } from './demo-steps.js';

// The demo's learning scene: a search in a user's own words finds the right tool low in
// its list; the session calls it; a later session's same search ranks it first.

/** The query of the learning scene: a user's words, not the tool's. */
export const LEARNING_QUERY = 'size of a file on disk';
/** The tool a user means by it. */
export const LEARNING_TOOL = 'get_file_info';

/** What the learning scene needs of the running demo. */
export interface LearningScene {
  readonly printer: DemoPrinter;
  /** The gateway's learner (the demo config turns learning on). */
  readonly learner: SearchLearner;
  /** Opens a new client session on the gateway (a later conversation). */
  openClient(): Promise<Client>;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The rank (1-based) of the tool in a fresh session's search, or 0 when it is not found. */
async function rankIn(client: Client): Promise<{ rank: number; names: string[] }> {
  const result = (await client.callTool({
    name: TOOL_SEARCH,
    arguments: { query: LEARNING_QUERY, limit: 8 },
  })) as CallToolResult;
  const names = (JSON.parse(textOf(result)) as { matches?: { name: string }[] }).matches?.map(
    (match) => match.name,
  );
  return { rank: (names ?? []).indexOf(LEARNING_TOOL) + 1, names: names ?? [] };
}

/**
 * Scene 6: learning from use. One session searches in its own words and calls the tool
 * it meant; the gateway records the pair (search terms → tool); a later session's same
 * search ranks the tool higher.
 *
 * @param scene - the printer, the learner and a way to open a session
 * @param workspace - the demo's workspace folder
 * @throws what the MCP client throws
 */
export async function showLearning(scene: LearningScene, workspace: string): Promise<void> {
  const { printer, learner } = scene;
  const { style, print } = printer;
  printer.heading('6. Learning from use: a search that led to a call ranks that tool higher');
  const first = await scene.openClient();
  try {
    const before = await rankIn(first);
    print(
      `  ${style.magenta(TOOL_SEARCH)} ${style.bold(JSON.stringify(LEARNING_QUERY))}: ${LEARNING_TOOL} is #${before.rank || '—'} (first: ${before.names[0] ?? 'none'})`,
    );
    const called = (await first.callTool({
      name: TOOL_CALL,
      arguments: { name: LEARNING_TOOL, arguments: { path: join(workspace, 'notes.md') } },
    })) as CallToolResult;
    print(
      `  ${style.magenta(TOOL_CALL)} → ${style.bold(LEARNING_TOOL)}: ${called.isError ? style.red('failed (not learned)') : style.green('ok')}`,
    );
  } finally {
    await first.close().catch(() => {});
  }
  const learned = (await learner.export()).profiles['default']?.[LEARNING_TOOL] ?? {};
  print(
    `  learned for ${LEARNING_TOOL}: ${
      Object.entries(learned)
        .map(([term, count]) => `${term} ${count}`)
        .join(', ') || 'nothing'
    } ${style.dim(`(${learner.stats.recorded} pairs recorded; analysed terms and counts only)`)}`,
  );
  const later = await scene.openClient();
  try {
    const after = await rankIn(later);
    print(
      `  a later session, same search: ${LEARNING_TOOL} is ${style.bold(`#${after.rank || '—'}`)}`,
    );
  } finally {
    await later.close().catch(() => {});
  }
}

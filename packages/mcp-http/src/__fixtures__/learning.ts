// What the learning tests share: the tokens, a config over the filesystem server with
// learning on, and readers of searches and of what a profile learned.
import type { GatewayConfig } from '@tool-search/mcp/config';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { filesystemInProcess } from '../../../mcp/src/__fixtures__/worker-server.js';
import type { StartedGateway } from '../start.js';
import { type TestClient, textOf } from './clients.js';

export const ADMIN_TOKEN = 'learning-admin-token-0123456789';
export const ALPHA_TOKEN = 'learning-alpha-token-0123456789';
export const BETA_TOKEN = 'learning-beta-token-01234567890';

export type Matches = { matches: { name: string }[] };

/** The names a session's `tool_search` answers, best first. */
export async function search(client: TestClient, query: string): Promise<string[]> {
  const answer = (await client.bridge('tool_search', { query, limit: 20 })) as unknown as Matches;
  return answer.matches.map((match) => match.name);
}

/** The raw text of a search's answer, for byte-for-byte comparisons. */
export async function searchText(client: TestClient, query: string): Promise<string> {
  return textOf(await client.call('tool_search', { query, limit: 20 }));
}

export function configOf(directory: string, extra: Record<string, unknown> = {}): GatewayConfig {
  return parseGatewayConfig({
    mcpServers: { filesystem: filesystemInProcess(directory) },
    toolSearch: { enabled: 'on' },
    profiles: {
      alpha: { enabledToolsets: ['mcp-filesystem'], token: ALPHA_TOKEN },
      beta: { enabledToolsets: ['mcp-filesystem'], token: BETA_TOKEN },
    },
    guardrails: { deny: ['move_file'] },
    approval: { require: ['write_file'], fallback: 'deny' },
    learning: { enabled: true },
    ...extra,
  });
}

/** What a profile learned, per tool, term → count. */
export async function learned(gateway: StartedGateway, profile: string) {
  return (await gateway.server.learner!.export(profile)).profiles[profile] ?? {};
}

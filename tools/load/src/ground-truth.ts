import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { LoadConfig, LoadProfile, ServerName } from './gateway-config.js';

/** Which server publishes each tool name, listed from the servers themselves. */
export interface GroundTruth {
  /** Tool name → the servers that publish it. */
  owners: Map<string, ServerName[]>;
  /** Server → its tool names. */
  tools: Map<ServerName, string[]>;
}

/**
 * Lists the tools of every upstream of a config straight from the servers (stdio,
 * the SDK client, no gateway in between): the truth the leak check compares the
 * gateway's answers with.
 *
 * @param servers - the config's servers
 * @param timeoutMs - per server
 * @returns the owners of every tool name
 * @throws the SDK's error when a server cannot be started or listed
 */
export async function listGroundTruth(
  servers: LoadConfig['servers'],
  timeoutMs: number,
): Promise<GroundTruth> {
  const listed = await Promise.all(
    Object.entries(servers).map(async ([name, server]) => {
      const client = new Client({ name: 'load-ground-truth', version: '0.0.0' });
      const transport = new StdioClientTransport({
        command: server.command,
        args: server.args,
        env: { ...(process.env as Record<string, string>), ...server.env },
        stderr: 'ignore',
      });
      try {
        await client.connect(transport, { timeout: timeoutMs });
        const names: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
          names.push(...page.tools.map((tool) => tool.name));
          cursor = page.nextCursor;
        } while (cursor);
        return [name as ServerName, names] as const;
      } finally {
        await client.close().catch(() => {});
      }
    }),
  );
  const owners = new Map<string, ServerName[]>();
  for (const [server, names] of listed) {
    for (const name of names) owners.set(name, [...(owners.get(name) ?? []), server]);
  }
  return { owners, tools: new Map(listed) };
}

/**
 * Whether a tool name is one that `profile` may never see: every server that publishes
 * it is outside the profile. Bridge tools and names no server publishes are not.
 *
 * @param truth - the ground truth
 * @param profile - the session's profile
 * @param name - an exposed tool name
 * @returns true for a name outside the profile
 * @throws nothing
 */
export function isOutside(truth: GroundTruth, profile: LoadProfile, name: string): boolean {
  const owners = truth.owners.get(name);
  return owners?.every((server) => !profile.servers.includes(server)) ?? false;
}

import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { resolveToolNames } from '@tool-search/core';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta, page, promptNotFound } from './feature-session.js';
import type { StatelessInput } from './session-call.js';
import { requestUpstream } from './upstream-request.js';

/** A prompt as a session sees it: its exposed name, and where it really comes from. */
export interface ExposedPrompt {
  name: string;
  server: string;
  upstreamName: string;
  prompt: JsonObject;
}

/**
 * The prompts of the session's scope, named as tools are: a name that two connected
 * servers use is prefixed with the server's name on each (`github_review`), whatever
 * the scope, so that a prompt keeps its name in every profile. Denied prompts are left out.
 *
 * @throws nothing
 */
export function exposedPrompts(session: FeatureSession): ExposedPrompt[] {
  const entries = session.hub.servers().flatMap((features) =>
    features.prompts.map((prompt) => ({
      server: features.server,
      tool: { name: prompt['name'] as string, inputSchema: { type: 'object' as const } },
      prompt,
    })),
  );
  return resolveToolNames(entries, new Set())
    .map((named, index) => ({
      name: named.name,
      server: named.server,
      upstreamName: named.tool.name,
      prompt: entries[index]!.prompt,
    }))
    .filter(
      (entry) =>
        session.inScope(entry.server) &&
        !session.denied('prompts', entry.server, entry.upstreamName),
    );
}

/**
 * One page of the prompts of the session's scope, under their exposed names.
 *
 * @throws McpError InvalidParams for a cursor the gateway did not give
 */
export function listPrompts(session: FeatureSession, cursor: unknown): JsonObject {
  const prompts = exposedPrompts(session).map((entry) => ({ ...entry.prompt, name: entry.name }));
  const { items, nextCursor } = page(prompts, cursor);
  return { prompts: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
}

/**
 * Gets a prompt (by its exposed name) from its server under its own name, with the
 * client's arguments and `_meta`; the get lands in the activity feed and the audit trail.
 *
 * @param params - the request's params (`name`, `arguments`, `_meta`)
 * @param signal - aborts the upstream request
 * @param input - a stateless client's relay of the upstream's `input_required`
 * @throws McpError InvalidParams for a prompt not in scope (unknown, out of scope or denied
 * alike); the upstream's error
 */
export async function getPrompt(
  session: FeatureSession,
  params: JsonObject,
  signal?: AbortSignal,
  input?: StatelessInput,
): Promise<JsonObject> {
  const name = String(params['name']);
  const args = params['arguments'] as Record<string, unknown> | undefined;
  const began = performance.now();
  const entry = exposedPrompts(session).find((prompt) => prompt.name === name);
  const record = (status: 'ok' | 'error', detail?: string) =>
    session.record({
      kind: 'prompt',
      name,
      ...(entry === undefined ? {} : { server: entry.server }),
      status,
      ...(detail === undefined ? {} : { detail }),
      durationMs: Math.round(performance.now() - began),
      ...(args === undefined ? {} : { arguments: args }),
    });
  if (entry === undefined) {
    record('error', 'not found in scope');
    throw promptNotFound(name);
  }
  const meta = forwardedMeta(params);
  try {
    const result = await requestUpstream(
      session,
      {
        server: entry.server,
        method: 'prompts/get',
        params: {
          name: entry.upstreamName,
          ...(args === undefined ? {} : { arguments: args }),
          ...(meta === undefined ? {} : { _meta: meta }),
        },
        target: name,
        upstreamName: entry.upstreamName,
        arguments: args ?? {},
      },
      signal,
      input,
    );
    record('ok');
    return result;
  } catch (error) {
    record('error', error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * Serves `prompts/list` and `prompts/get` of one session.
 *
 * @throws nothing
 */
export function handlePrompts(session: FeatureSession): void {
  const { server } = session.state;
  server.setRequestHandler(
    ListPromptsRequestSchema,
    (request) => listPrompts(session, request.params?.cursor) as never,
  );
  server.setRequestHandler(
    GetPromptRequestSchema,
    async (request, extra) =>
      (await getPrompt(session, request.params as JsonObject, extra.signal)) as never,
  );
}

import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { resolveToolNames } from '@tool-search/core';
import type { JsonObject } from '../upstream/features/feature-client.js';
import { type FeatureSession, forwardedMeta, page, promptNotFound } from './feature-session.js';

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
 * Serves `prompts/list` and `prompts/get` of one session.
 *
 * @throws nothing
 */
export function handlePrompts(session: FeatureSession): void {
  const { server } = session.state;
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    const prompts = exposedPrompts(session).map((entry) => ({ ...entry.prompt, name: entry.name }));
    const { items, nextCursor } = page(prompts, request.params?.cursor);
    return { prompts: items as never, ...(nextCursor === undefined ? {} : { nextCursor }) };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { name } = request.params;
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
        ...(request.params.arguments === undefined ? {} : { arguments: request.params.arguments }),
      });
    if (entry === undefined) {
      record('error', 'not found in scope');
      throw promptNotFound(name);
    }
    const meta = forwardedMeta(request.params as JsonObject);
    try {
      const result = await session.hub.request(
        entry.server,
        'prompts/get',
        {
          name: entry.upstreamName,
          ...(request.params.arguments === undefined
            ? {}
            : { arguments: request.params.arguments }),
          ...(meta === undefined ? {} : { _meta: meta }),
        },
        extra.signal,
      );
      record('ok');
      return result as never;
    } catch (error) {
      record('error', error instanceof Error ? error.message : String(error));
      throw error;
    }
  });
}

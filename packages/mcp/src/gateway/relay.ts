import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, RelayedMethod } from '../upstream/features/feature-client.js';
import type { CallRelay } from '../upstream/features/relay.js';
import { admitsLog, type SessionLogLevel } from './logging.js';
import type { SessionState } from './session-state.js';

type Extra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  'sendRequest' | 'sendNotification'
>;

const levels = new WeakMap<SessionState, SessionLogLevel>();

/** A session's log level (one object for its life). */
export function logLevelOf(state: SessionState): SessionLogLevel {
  let level = levels.get(state);
  if (level === undefined) {
    level = { level: undefined };
    levels.set(state, level);
  }
  return level;
}

function supports(state: SessionState, method: RelayedMethod, params: JsonObject): boolean {
  const capabilities = state.server.getClientCapabilities();
  if (method === 'sampling/createMessage') {
    if (capabilities?.sampling === undefined) return false;
    return params['tools'] === undefined || capabilities.sampling.tools !== undefined;
  }
  if (method === 'roots/list') return capabilities?.roots !== undefined;
  const elicitation = capabilities?.elicitation as JsonObject | undefined;
  if (elicitation === undefined) return false;
  // A capability that names no mode means form mode (the 2025-06-18 form).
  if (params['mode'] === 'url') return elicitation['url'] !== undefined;
  return elicitation['form'] !== undefined || elicitation['url'] === undefined;
}

function resultSchemaOf(method: RelayedMethod, params: JsonObject) {
  if (method === 'elicitation/create') return ElicitResultSchema;
  if (method === 'roots/list') return ListRootsResultSchema;
  return params['tools'] === undefined
    ? CreateMessageResultSchema
    : CreateMessageResultWithToolsSchema;
}

/**
 * The relay of one `tools/call` of a session: what the upstream asks during it goes to
 * this client on this call's stream (the SDK relates it to the call's request).
 *
 * @throws nothing
 */
export function callRelayOf(state: SessionState, extra: Extra): CallRelay {
  const level = logLevelOf(state);
  return {
    sessionId: state.id,
    supports: (method, params) => supports(state, method, params),
    async request(method, params, signal) {
      const result = await extra.sendRequest(
        { method, params } as ServerRequest,
        resultSchemaOf(method, params) as never,
        { signal },
      );
      return result as JsonObject;
    },
    log(params) {
      if (!admitsLog(level, params, true)) return;
      void extra
        .sendNotification({ method: 'notifications/message', params } as ServerNotification)
        .catch(() => {});
    },
    async confirm(message, signal) {
      if (!supports(state, 'elicitation/create', {})) return false;
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message,
            requestedSchema: {
              type: 'object',
              properties: { allow: { type: 'boolean', title: 'Allow', default: false } },
              required: ['allow'],
            },
          },
        } as ServerRequest,
        ElicitResultSchema,
        { signal },
      );
      return answer.action === 'accept' && answer.content?.['allow'] === true;
    },
  };
}

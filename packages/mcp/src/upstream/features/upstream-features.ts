import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamInputHandler } from '../input-required.js';
import type { HeldTool, ToolFingerprint } from '../review.js';
import type { FeatureClient, JsonObject, RelayedMethod } from './feature-client.js';
import { RELAY_CLIENT_CAPABILITIES } from './feature-client.js';
import { createLogLimiter } from './log-limiter.js';
import {
  type CallRelay,
  DEFAULT_SAMPLING_POLICY,
  type RelayRecord,
  relayServerRequest,
  type SamplingPolicy,
} from './relay.js';
import { relayInputRequests } from './relay-input.js';
import { type FeatureFinding, type FeatureKind, screenFeatures } from './screen-features.js';

/** What one connected upstream offers besides tools, screened. */
export interface ServerFeatures {
  /** The server's name in the config. */
  readonly server: string;
  /** What it declared at initialize. */
  readonly capabilities: JsonObject;
  /** Its resources (`resources/list`), descriptions cut to the limit. */
  readonly resources: readonly JsonObject[];
  /** Its resource templates (`resources/templates/list`). */
  readonly templates: readonly JsonObject[];
  /** Its prompts (`prompts/list`), under their own names. */
  readonly prompts: readonly JsonObject[];
  /** Items whose text matched a poisoning pattern (reported). */
  readonly findings: readonly FeatureFinding[];
  /** Items held back by the review (not listed, not served). */
  readonly held: readonly HeldTool[];
}

/** Something that happened upstream that sessions may need to hear. */
export type FeatureEvent =
  | { kind: 'resources_changed' | 'prompts_changed'; server: string }
  /** A server (re)connected and was listed: what it was asked before is gone. */
  | { kind: 'connected'; server: string }
  | { kind: 'resource_updated'; server: string; uri: string }
  | { kind: 'log'; server: string; params: JsonObject }
  | { kind: 'relayed'; record: RelayRecord };

/** The policy of one server, read when it matters (the config may be reloaded). */
export interface FeaturePolicy {
  sampling?: SamplingPolicy | undefined;
  /** Whether the review holds any of its tools back. */
  held(): boolean;
}

/**
 * The pool's protocol features beyond tools: each upstream's resources, templates and
 * prompts (listed, screened, reviewed), requests routed to one upstream, its
 * notifications, and the relay of its server requests to the client of the call in flight.
 */
export interface UpstreamFeatures {
  /** What an upstream client declares: what the gateway can relay. */
  readonly clientCapabilities: JsonObject;
  /** The connected servers' features, in the config's order. */
  servers(): ServerFeatures[];
  /** One connected server's features. */
  get(server: string): ServerFeatures | undefined;
  /**
   * Sends a request to a connected server as it is.
   *
   * @throws McpError when the server is not connected; the upstream's error
   */
  request(
    server: string,
    method: string,
    params: JsonObject,
    signal?: AbortSignal,
    options?: { allowInputRequired?: boolean },
  ): Promise<JsonObject>;
  /** Marks a call in flight on a server (with its relay, when it has one); returns its end. */
  track(server: string, relay: CallRelay | undefined): () => void;
  /** Hears upstream events. @returns the unsubscribe */
  onEvent(listener: (event: FeatureEvent) => void): () => void;
  /** The fingerprints of every prompt and resource, held ones included (what a review accepts). */
  fingerprints(): ToolFingerprint[];
  /** A server's relay policy now: whether it may sample, and whether its tools are held. */
  relayPolicy(server: string): { sampling: SamplingPolicy; held: boolean };
  /** Records a relayed (or refused) server request, for the audit trail and the feed. */
  recordRelay(record: RelayRecord): void;
}

/** The pool's side of {@link UpstreamFeatures}: attach, list, detach. */
export interface UpstreamFeatureHub extends UpstreamFeatures {
  /** A new client of a server, before it connects: its handlers are set here. */
  attach(server: string, client: FeatureClient, policy: FeaturePolicy): void;
  /** Lists what the server offers (after connect); a failure leaves its lists empty. */
  list(server: string, signal?: AbortSignal): Promise<void>;
  /** The server's connection is gone. */
  detach(server: string): void;
  /** The answer to a 2026 upstream's `input_required` during a call with this relay. */
  inputHandler(server: string, relay: CallRelay): UpstreamInputHandler;
}

const MAX_PAGES = 50;

interface Entry {
  client: FeatureClient;
  policy: FeaturePolicy;
  features: ServerFeatures;
  fingerprints: Map<string, string>;
  inFlight: Set<{ relay: CallRelay | undefined }>;
  generation: number;
}

/**
 * Creates the hub of a pool.
 *
 * @param options.order - the servers of the config, in order
 * @param options.maxDescriptionChars - descriptions longer than this are cut
 * @param options.held - the review gate (by server, review name and fingerprint)
 * @throws nothing
 */
export function createUpstreamFeatureHub(options: {
  order: readonly string[];
  maxDescriptionChars: number;
  held: (server: string, name: string, fingerprint: string) => HeldTool | undefined;
}): UpstreamFeatureHub {
  const entries = new Map<string, Entry>();
  const listeners = new Set<(event: FeatureEvent) => void>();
  const limiter = createLogLimiter();
  const emit = (event: FeatureEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A session's trouble must not stop the others hearing it.
      }
    }
  };
  const empty = (server: string, capabilities: JsonObject = {}): ServerFeatures => ({
    server,
    capabilities,
    resources: [],
    templates: [],
    prompts: [],
    findings: [],
    held: [],
  });
  const listKind = async (
    entry: Entry,
    server: string,
    kind: FeatureKind,
    signal?: AbortSignal,
  ) => {
    const [method, key] =
      kind === 'prompt'
        ? ['prompts/list', 'prompts']
        : kind === 'resource'
          ? ['resources/list', 'resources']
          : ['resources/templates/list', 'resourceTemplates'];
    const items: JsonObject[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await entry.client.request(method, cursor === undefined ? {} : { cursor }, {
        ...(signal === undefined ? {} : { signal }),
      });
      const listed = result[key];
      if (Array.isArray(listed)) items.push(...(listed.filter(isObject) as JsonObject[]));
      cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
      if (cursor === undefined) break;
    }
    return screenFeatures(kind, items, {
      maxDescriptionChars: options.maxDescriptionChars,
      held: (name, fingerprint) => options.held(server, name, fingerprint),
    });
  };
  const relist = async (server: string, kinds: FeatureKind[], signal?: AbortSignal) => {
    const entry = entries.get(server);
    if (entry === undefined) return;
    const generation = entry.generation;
    const capabilities = entry.client.capabilities() ?? {};
    const next = { ...entry.features, capabilities } as {
      -readonly [K in keyof ServerFeatures]: ServerFeatures[K];
    };
    const findings = entry.features.findings.filter((finding) => !kinds.includes(finding.kind));
    const held = entry.features.held.filter(
      (hold) => !kinds.some((kind) => hold.name.startsWith(`${kind}:`)),
    );
    for (const kind of kinds) {
      const offered = kind === 'prompt' ? capabilities['prompts'] : capabilities['resources'];
      const screened =
        offered === undefined
          ? { items: [], findings: [], held: [], fingerprints: new Map<string, string>() }
          : await listKind(entry, server, kind, signal).catch(() => ({
              items: [],
              findings: [],
              held: [],
              fingerprints: new Map<string, string>(),
            }));
      if (kind === 'prompt') next.prompts = screened.items;
      else if (kind === 'resource') next.resources = screened.items;
      else next.templates = screened.items;
      findings.push(...screened.findings);
      held.push(...screened.held);
      for (const key of [...entry.fingerprints.keys()]) {
        if (key.startsWith(`${kind}:`)) entry.fingerprints.delete(key);
      }
      for (const [key, value] of screened.fingerprints) entry.fingerprints.set(key, value);
    }
    if (entries.get(server) !== entry || entry.generation !== generation) return;
    next.findings = findings;
    next.held = held;
    entry.features = next;
  };
  const hub: UpstreamFeatureHub = {
    clientCapabilities: RELAY_CLIENT_CAPABILITIES,
    servers: () =>
      options.order.flatMap((server) => {
        const entry = entries.get(server);
        return entry === undefined ? [] : [entry.features];
      }),
    get: (server) => entries.get(server)?.features,
    async request(server, method, params, signal, options) {
      const entry = entries.get(server);
      if (entry === undefined) {
        throw new McpError(
          ErrorCode.InternalError,
          `Server '${server}' is not connected; try again shortly.`,
        );
      }
      return entry.client.request(method, params, {
        ...(signal === undefined ? {} : { signal }),
        ...(options?.allowInputRequired === true ? { allowInputRequired: true } : {}),
      });
    },
    track(server, relay) {
      const entry = entries.get(server);
      if (entry === undefined) return () => {};
      const call = { relay };
      entry.inFlight.add(call);
      return () => entry.inFlight.delete(call);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fingerprints: () =>
      options.order.flatMap((server) =>
        [...(entries.get(server)?.fingerprints ?? [])].map(([name, fingerprint]) => ({
          server,
          name,
          fingerprint,
        })),
      ),
    attach(server, client, policy) {
      const previous = entries.get(server);
      const entry: Entry = {
        client,
        policy,
        features: empty(server),
        fingerprints: new Map(),
        inFlight: new Set(),
        generation: (previous?.generation ?? 0) + 1,
      };
      entries.set(server, entry);
      const relayTo = (method: RelayedMethod) =>
        client.setRequestHandler(method, (params, signal) =>
          relayServerRequest({
            server,
            method,
            params,
            signal,
            inFlight: [...entry.inFlight].map((call) => call.relay),
            sampling: entry.policy.sampling ?? DEFAULT_SAMPLING_POLICY,
            held: entry.policy.held(),
            record: (record) => emit({ kind: 'relayed', record }),
          }),
        );
      relayTo('sampling/createMessage');
      relayTo('elicitation/create');
      relayTo('roots/list');
      client.setNotificationHandler('notifications/message', (params) => {
        if (entries.get(server) !== entry) return;
        const named = limiter.admit(server, params);
        if (named === undefined) return;
        const calls = [...entry.inFlight];
        const only = calls.length === 1 ? calls[0]?.relay : undefined;
        if (only !== undefined) only.log(named);
        else emit({ kind: 'log', server, params: named });
      });
      client.setNotificationHandler('notifications/resources/updated', (params) => {
        const uri = params['uri'];
        if (entries.get(server) === entry && typeof uri === 'string') {
          emit({ kind: 'resource_updated', server, uri });
        }
      });
      client.setNotificationHandler('notifications/resources/list_changed', async () => {
        await relist(server, ['resource', 'template']);
        emit({ kind: 'resources_changed', server });
      });
      client.setNotificationHandler('notifications/prompts/list_changed', async () => {
        await relist(server, ['prompt']);
        emit({ kind: 'prompts_changed', server });
      });
    },
    async list(server, signal) {
      await relist(server, ['resource', 'template', 'prompt'], signal);
      emit({ kind: 'connected', server });
      emit({ kind: 'resources_changed', server });
      emit({ kind: 'prompts_changed', server });
    },
    relayPolicy(server) {
      const policy = entries.get(server)?.policy;
      return {
        sampling: policy?.sampling ?? DEFAULT_SAMPLING_POLICY,
        held: policy?.held() ?? false,
      };
    },
    recordRelay(record) {
      emit({ kind: 'relayed', record });
    },
    inputHandler(server, relay) {
      return relayInputRequests({
        server,
        relay,
        policy: () => hub.relayPolicy(server),
        record: (record) => hub.recordRelay(record),
      });
    },
    detach(server) {
      const entry = entries.get(server);
      if (entry === undefined) return;
      entries.delete(server);
      entry.generation += 1;
      emit({ kind: 'resources_changed', server });
      emit({ kind: 'prompts_changed', server });
    },
  };
  return hub;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import {
  Client,
  type ClientCapabilities,
  type Implementation,
  type ProtocolEra,
} from '@modelcontextprotocol/client';

/**
 * The upstream client as the pool uses it: the MCP SDK v2 `Client`, narrowed to what the
 * upstream side calls. Other parts add to it in files of their own (request handlers for
 * sampling, elicitation and roots before `connect`; resource and prompt calls after), by
 * widening this `Pick`, not by reaching around it.
 *
 * @internal
 */
export type UpstreamClient = Pick<
  Client,
  | 'connect'
  | 'close'
  | 'request'
  | 'notification'
  | 'callTool'
  | 'listen'
  | 'discover'
  | 'setNotificationHandler'
  | 'setRequestHandler'
  | 'registerCapabilities'
  | 'getProtocolEra'
  | 'getDiscoverResult'
  | 'getServerCapabilities'
  | 'getServerVersion'
  | 'getInstructions'
  | 'transport'
  | 'onclose'
  | 'onerror'
>;

/** The era an upstream connection landed on: `modern` (2026-07-28+) or `legacy` (2025). */
export type UpstreamEra = ProtocolEra;

/** Options of {@link createUpstreamClient}. */
export interface UpstreamClientOptions {
  /** How the pool introduces itself. */
  clientInfo: Implementation;
  /** What the client declares (`{}` unless callers answer upstream input). */
  capabilities?: ClientCapabilities | undefined;
  /** The probe's timeout (`server/discover` at connect). */
  probeTimeoutMs: number;
}

/**
 * A new, unconnected upstream client in the SDK's negotiating mode (`auto`: it probes with
 * `server/discover` and falls back to the 2025 `initialize` handshake). `input_required`
 * is never fulfilled by the SDK (`autoFulfill: false`): every call asks for it with
 * `allowInputRequired` and the pool's own loop answers it (see `input-required.ts`).
 *
 * @param options - see {@link UpstreamClientOptions}
 * @returns the client
 * @throws nothing
 * @internal
 */
export function createUpstreamClient(options: UpstreamClientOptions): Client {
  return new Client(options.clientInfo, {
    capabilities: options.capabilities ?? {},
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
    inputRequired: { autoFulfill: false },
  });
}

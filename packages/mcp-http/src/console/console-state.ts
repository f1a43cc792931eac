import {
  createAnalyzer,
  estimateToolTokens,
  type Ranker,
  type SearchLearner,
} from '@tool-search/core';
import type { GatewayActivity, GatewaySession, GatewayStore, UpstreamPool } from '@tool-search/mcp';
import type { SignInBroker } from '@tool-search/mcp/auth';
import type { GatewayConfig, GatewayProfile } from '@tool-search/mcp/config';
import { createToolsetRegistry, type ToolsetRegistry } from '@tool-search/toolsets';
import { ConsoleFeed } from './console-feed.js';
import { type ConsoleReview, createConsoleReview } from './console-review.js';
import type { ConsoleSignInReader } from './console-sign-ins.js';
import { type AcceptedDefinitions, rememberAccepted } from './console-tools.js';
import type { ServerControl } from './server-control.js';

/** What the console needs to start sign-ins and take their redirects (the host's broker). */
export type ConsoleSignInFlow = Pick<SignInBroker, 'start' | 'callback'>;

/** Options of {@link createGatewayConsole}. */
export interface GatewayConsoleOptions {
  /** The gateway's store (approvals inbox, audit trail, shared review). */
  store: GatewayStore;
  /** The upstream pool. */
  pool: Pick<UpstreamPool, 'tools' | 'status' | 'fingerprints' | 'onToolsChanged'> &
    Partial<Pick<UpstreamPool, 'retry'>>;
  /** The gateway config. */
  config: Pick<
    GatewayConfig,
    'guardrails' | 'approval' | 'pins' | 'review' | 'profiles' | 'toolsets' | 'toolSearch'
  >;
  /**
   * The profiles in force (`GatewayServer.profiles`): who may sign in as an operator
   * follows a reload of the config. @defaultValue the config's `profiles`
   */
  profiles?: () => Readonly<Record<string, GatewayProfile>>;
  /** This replica's open sessions. */
  sessions: () => GatewaySession[];
  /** The ranker of `tool_search`, for the Search page. @defaultValue core's default */
  ranker?: Ranker;
  /** The folder of the built front end (`index.html` and its files). @defaultValue the one this package ships */
  assetsDirectory?: string;
  /** The client model's context window, as the gateway's (whether tool search activates). */
  contextWindow?: number;
  /** The gateway's learner, when learning from use is on: the pages show what it learned. */
  learner?: SearchLearner;
  /** The servers' recent output, restart and reload (the Servers page). */
  servers?: ServerControl;
  /**
   * Opens a session for a signed-in operator (its principal's profile: an operator
   * profile's own, the gateway's default profile for the gateway token), through which
   * **Try** calls a tool with the same policy as a model's call. Absent: tools cannot be
   * tried from this console.
   */
  openSession?: (principal: string) => GatewaySession;
  /** Reads the upstreams' sign-ins (`GET /console/api/sign-ins`). @defaultValue none shown */
  signIns?: ConsoleSignInReader;
  /**
   * Starts sign-ins from the console (`POST /console/api/sign-ins/start`) and takes their
   * redirects on `/console/sign-in/callback`. @defaultValue none: only `login` signs in
   */
  signInFlow?: ConsoleSignInFlow;
  /**
   * The `Host` values a console sign-in's redirect may be built on besides a loopback name
   * (the listener's `allowedHosts`): the redirect goes back to the host the request named,
   * so an unlisted one is refused. @defaultValue none: loopback only
   */
  callbackHosts?: readonly string[];
}

/** One sample of the tokens a model turn is spared, summed over this replica's sessions. */
export interface TokensSample {
  time: string;
  sessions: number;
  tokensSaved: number;
}

const SAMPLE_EVERY_MS = 60_000;
const SAMPLES_KEPT = 120;

/** What the console of one gateway holds: its feed, review, samples and when sessions were last seen. */
export class ConsoleState {
  readonly feed: ConsoleFeed;
  readonly review: ConsoleReview;
  readonly registry: ToolsetRegistry;
  readonly analyzer = createAnalyzer();
  readonly lastSeen = new Map<string, number>();
  readonly samples: TokensSample[] = [];
  /** The accepted definitions seen served: a change is shown against them. */
  readonly acceptedSeen: AcceptedDefinitions = new Map();
  private readonly sampler: NodeJS.Timeout;
  private readonly unwatch: () => void;

  constructor(readonly options: GatewayConsoleOptions) {
    this.feed = new ConsoleFeed(options.store);
    this.review = createConsoleReview(options.pool, options.config.review, options.store);
    this.registry = createToolsetRegistry(options.config.toolsets);
    this.sampler = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    this.sampler.unref();
    this.unwatch = options.pool.onToolsChanged(() => void this.rememberAccepted());
  }

  /** Remembers the accepted definitions served now (a review that cannot be read: none). */
  async rememberAccepted(): Promise<ReadonlyMap<string, string>> {
    const accepted = await this.review.read().catch(() => new Map<string, string>());
    rememberAccepted(this.options.pool, accepted, this.acceptedSeen);
    return accepted;
  }

  /** A line of the gateway's activity feed. */
  record(activity: GatewayActivity): void {
    this.lastSeen.set(activity.sessionId, Date.now());
    this.feed.record(activity);
  }

  /** The tokens one turn of each activated session does not spend, now. */
  tokensSavedNow(): TokensSample {
    let tokensSaved = 0;
    const sessions = this.options.sessions();
    for (const session of sessions) {
      const assembly = session.assembly();
      if (assembly.activated) {
        tokensSaved += Math.max(
          0,
          estimateToolTokens(session.tools()) - estimateToolTokens(assembly.tools),
        );
      }
    }
    return { time: new Date().toISOString(), sessions: sessions.length, tokensSaved };
  }

  sample(): void {
    this.samples.push(this.tokensSavedNow());
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
  }

  close(): void {
    clearInterval(this.sampler);
    this.unwatch();
    this.feed.close();
  }
}

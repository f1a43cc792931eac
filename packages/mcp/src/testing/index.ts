/**
 * The conformance suite of a gateway store: `testGatewayStore` checks a
 * `GatewayStore` of your own (a database of your choice) against the contract
 * that the memory and Redis stores keep, in vitest (an optional peer dependency of this
 * entry).
 *
 * @example
 * ```ts
 * import { testGatewayStore } from '@tool-search/mcp/testing';
 * import { createMemoryStore } from '@tool-search/mcp/store/memory';
 *
 * testGatewayStore({ open: () => createMemoryStore() });
 * ```
 *
 *
 * For servers that need sign-in: {@link startOAuthStandIn}, a local authorization server and
 * an MCP server that requires its token on one loopback port, and {@link followAsBrowser},
 * which opens the URL `login` prints as a person's browser would.
 *
 * @packageDocumentation
 */
export type { TestGatewayStoreOptions } from '../store/conformance/index.js';
export { testGatewayStore } from '../store/conformance/index.js';
export type { StandIn, StandInOptions } from './oauth-stand-in.js';
export { followAsBrowser, startOAuthStandIn } from './oauth-stand-in.js';

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
 * @packageDocumentation
 */
export type { TestGatewayStoreOptions } from '../store/conformance/index.js';
export { testGatewayStore } from '../store/conformance/index.js';

/**
 * The in-memory gateway store: the default, for one process (the demo, stdio, a single
 * HTTP gateway). {@link startGateway} opens it when no store or `memory` is given.
 *
 * @example
 * ```ts
 * import { startGateway } from '@tool-search/mcp';
 * import { createMemoryStore } from '@tool-search/mcp/store/memory';
 *
 * const gateway = await startGateway({ config, store: createMemoryStore({ maxAuditRecords: 500 }) });
 * ```
 *
 * @packageDocumentation
 */
export type { MemoryStoreOptions } from '../memory-store.js';
export { createMemoryStore } from '../memory-store.js';

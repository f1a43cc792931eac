import type { InlineConfig } from 'vitest/node';

/** The files of the integration tier. */
export declare const INTEGRATION_FILES: string[];
/** The setup file of the fast tier: any child process it starts fails its test. */
export declare const NO_SPAWN_SETUP: string;
/** Narrows a package's (or a project's) `test` options to the tier of `TEST_TIER`. */
export declare function tiered<T extends InlineConfig>(test: T): T;

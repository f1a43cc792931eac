// Deno and Bun: run the bundled scenario once and print its answers.
import { runScenario } from './scenario.js';

// A first turn for the libraries imported with `import()` (no module loader here).
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(JSON.stringify(await runScenario()));

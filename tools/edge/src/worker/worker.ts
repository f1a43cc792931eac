// A Cloudflare Worker (and a Deno or Bun script, through run.ts) over the scenario.
import { runScenario } from './scenario.js';

export default {
  async fetch(): Promise<Response> {
    try {
      return Response.json(await runScenario());
    } catch (error) {
      return Response.json({ error: String((error as Error)?.stack ?? error) }, { status: 500 });
    }
  },
};

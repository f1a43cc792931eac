import {
  ADMIN_TOKEN,
  type TestGateway as InProcessGateway,
  startTestGateway as startInProcess,
} from '../../../mcp/src/__fixtures__/gateway.js';
import { listenGatewayHttp } from '../http/http.js';
import type { GatewayHttpListener } from '../http/http-options.js';
import { connectHttpClient } from './clients.js';

export { ADMIN_TOKEN, FILES_TOKEN, MEMORY_TOKEN } from '../../../mcp/src/__fixtures__/gateway.js';

/** The test gateway of `@tool-search/mcp` on Streamable HTTP, its admin client over HTTP. */
export interface TestGateway extends InProcessGateway {
  listener: GatewayHttpListener;
}

/** Starts the test gateway of `@tool-search/mcp` and serves it over Streamable HTTP. */
export async function startTestGateway(): Promise<TestGateway> {
  const base = await startInProcess();
  await base.admin.close();
  const listener = await listenGatewayHttp(base.gateway, { token: ADMIN_TOKEN });
  const admin = await connectHttpClient(listener.url, { token: ADMIN_TOKEN });
  return {
    ...base,
    listener,
    admin,
    async close() {
      await admin.close();
      await base.close();
    },
  };
}

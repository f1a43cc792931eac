import { freePort } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG } from './__fixtures__/paths.js';
import { startReplica, type TestReplica } from './__fixtures__/replicas.js';

const TOKEN = 'serve-console-token-0123456789ab';

describe('serve --console', () => {
  let gateway: TestReplica;

  beforeAll(async () => {
    gateway = await startReplica(GATEWAY_CONFIG, await freePort(), ['--token', TOKEN, '--console']);
  });
  afterAll(async () => {
    await gateway?.kill();
  });

  it('serves the built console under /console with a strict policy, and says where', async () => {
    const base = `http://127.0.0.1:${gateway.port}/console/`;
    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="console.js"></script>');
    expect(html).not.toMatch(/<script>(?!<)/);
    const script = await fetch(new URL('console.js', base));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await script.text()).includes('innerHTML')).toBe(false);
    expect(gateway.stderr()).toContain(`console: ${base}`);
  });
});

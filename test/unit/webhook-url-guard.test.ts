import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../fixtures/webhook-receiver.js';
import { httpSender } from '../../shared/webhooks/http-sender.js';
import { checkWebhookUrl, isBlockedAddress, isBlockedHostName } from '../../shared/webhooks/url-guard.js';

/**
 * The webhook URL guard (docs/api.md "Webhooks: URL rules"): no private, loopback, link-local,
 * metadata or otherwise non-public receiver, however the address is spelled, in either
 * environment; loopback only for a sandbox webhook of the local run (npm start).
 */
const resolver = (table: Record<string, string[]>) => async (host: string) => table[host] ?? [];
const PUBLIC = {
  'hooks.example.com': ['93.184.216.34'],
  'cafe.be': ['93.184.216.34'],
  'dead.beef': ['2606:4700::1111'],
  'abc.def': ['93.184.216.34'],
  'rebound.example.com': ['169.254.169.254'],
  'loopback.example.com': ['127.0.0.1'],
};
const resolve = resolver(PUBLIC);
const LOCAL = { localRun: true };
const DEPLOYED = { localRun: false };

describe('webhook URL guard: addresses', () => {
  it.each([
    ['IPv4-mapped IPv6, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped IPv6, hex', '::ffff:7f00:1'],
    ['IPv4-mapped IPv6 of the metadata address', '::ffff:a9fe:a9fe'],
    ['IPv4-translated (SIIT) IPv6', '::ffff:0:a00:1'],
    ['NAT64 of a private v4', '64:ff9b::10.0.0.1'],
    ['NAT64 of loopback, hex', '64:ff9b::7f00:1'],
    ['local-use NAT64', '64:ff9b:1::808:808'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private v4', '2002:c0a8:101::1'],
    ['6to4 of the metadata address', '2002:a9fe:a9fe::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['Teredo, short', '2001::1'],
    ['IPv4 link-local', '169.254.1.1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local, top of fe80::/10', 'febf::1'],
    ['IPv6 site-local (deprecated)', 'fec0::1'],
    ['AWS metadata (IPv4)', '169.254.169.254'],
    ['AWS metadata (IPv6)', 'fd00:ec2::254'],
    ['unique local', 'fc00::1'],
    ['unique local fd', 'fdff:ffff::1'],
    ['this network', '0.1.2.3'],
    ['CGNAT', '100.64.0.1'],
    ['CGNAT, top', '100.127.255.254'],
    ['IPv4-compatible IPv6', '::10.0.0.1'],
    ['discard-only', '100::1'],
    ['documentation', '2001:db8::1'],
  ])('refuses %s (%s)', (_, ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '100.128.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
  ])('allows the public address %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});

describe('webhook URL guard: host names', () => {
  it.each([
    'metadata.google.internal',
    'METADATA.GOOGLE.INTERNAL.',
    'metadata.goog',
    'metadata',
    'instance-data',
    'instance-data.ec2.internal',
    'ip-10-0-0-1.ec2.internal',
  ])('refuses the metadata or cloud-internal name %s', (host) => {
    expect(isBlockedHostName(host)).toBe(true);
  });

  it.each(['cafe.be', 'dead.beef', 'abc.def', 'hooks.example.com', 'internal.example.com'])(
    'takes %s as a host name, not an address',
    (host) => {
      expect(isBlockedHostName(host)).toBe(false);
    },
  );
});

describe('webhook URL guard: URLs', () => {
  it.each([
    ['decimal IPv4', 'https://167772161/hook'],
    ['octal IPv4', 'https://012.0.0.1/hook'],
    ['hex IPv4', 'https://0xa.1/hook'],
    ['short IPv4', 'https://10.1/hook'],
    ['hex metadata address', 'https://0xa9fea9fe/hook'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped IPv6, hex', 'https://[::ffff:7f00:1]/hook'],
    ['NAT64', 'https://[64:ff9b::a9fe:a9fe]/hook'],
    ['6to4', 'https://[2002:a00:1::]/hook'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook'],
    ['link-local', 'https://[fe80::1]/hook'],
    ['metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['metadata name', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['unique local', 'https://[fd00:ec2::254]/hook'],
    ['CGNAT', 'https://100.64.0.1/hook'],
    ['this network', 'https://0.0.0.0/hook'],
    ['a name resolving to the metadata address', 'https://rebound.example.com/hook'],
  ])('refuses a %s receiver in both environments, local run or not (%s)', async (_, url) => {
    for (const environment of ['PRODUCTION', 'SANDBOX'] as const) {
      for (const options of [LOCAL, DEPLOYED])
        expect(
          await checkWebhookUrl(url, environment, resolve, options),
          `${environment} ${JSON.stringify(options)}`,
        ).toMatchObject({ ok: false });
    }
  });

  it.each(['https://cafe.be/hook', 'https://dead.beef/hook', 'https://abc.def/hook', 'https://hooks.example.com/hook'])(
    'accepts the production host name %s',
    async (url) => {
      expect(await checkWebhookUrl(url, 'PRODUCTION', resolve, DEPLOYED)).toMatchObject({ ok: true });
    },
  );

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://[::1]:8080/hook',
    'http://loopback.example.com:8080/hook',
    'http://2130706433:8080/hook',
    'http://0177.0.0.1:8080/hook',
    'http://0x7f.1:8080/hook',
    'http://127.1:8080/hook',
  ])('allows the loopback receiver %s in the sandbox of the local run only', async (url) => {
    expect(await checkWebhookUrl(url, 'SANDBOX', resolve, LOCAL)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl(url, 'SANDBOX', resolve, DEPLOYED)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/loopback/),
    });
    expect(await checkWebhookUrl(url.replace('http:', 'https:'), 'PRODUCTION', resolve, LOCAL)).toMatchObject({
      ok: false,
    });
  });

  it('refuses a private receiver in the sandbox of the local run too (only loopback is allowed there)', async () => {
    expect(await checkWebhookUrl('http://10.0.0.1/hook', 'SANDBOX', resolve, LOCAL)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('http://[::ffff:127.0.0.1]/hook', 'SANDBOX', resolve, LOCAL)).toMatchObject({
      ok: false,
    });
  });
});

describe('webhook delivery applies the same rules to the addresses resolved when it sends', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let port: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url('/')).port;
  });
  afterAll(async () => receiver.close());

  const post = (sender: ReturnType<typeof httpSender>, url: string) =>
    sender.post({ url, environment: 'SANDBOX', headers: {}, body: '{}', timeoutMs: 2000 });

  it('delivers to a loopback receiver in the sandbox of the local run, refuses it in a deployed stage', async () => {
    // Two names: a pooled keep-alive connection to the first would skip the second lookup.
    const table = resolver({ 'hooks.test': ['127.0.0.1'], 'other-hooks.test': ['127.0.0.1'] });
    expect(await post(httpSender(table, LOCAL), `http://hooks.test:${port}/a`)).toEqual({
      statusCode: 200,
      error: null,
    });
    expect(await post(httpSender(table, DEPLOYED), `http://other-hooks.test:${port}/b`)).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/refused/),
    });
    expect(await post(httpSender(table, DEPLOYED), `http://127.0.0.1:${port}/c`)).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/refused/),
    });
    expect(receiver.received.map((hook) => hook.path)).toEqual(['/a']);
  });

  it('takes a production host name made of hex letters (cafe.be) for a name: it looks it up and checks the addresses found', async () => {
    const looked: string[] = [];
    const sender = httpSender(async (host) => {
      looked.push(host);
      return ['10.0.0.1'];
    }, DEPLOYED);
    const sent = await sender.post({
      url: 'https://cafe.be/hook',
      environment: 'PRODUCTION',
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(looked).toEqual(['cafe.be']);
    expect(sent).toMatchObject({ statusCode: null, error: expect.stringMatching(/resolves to/) });
  });

  it('refuses a name re-bound to the metadata address at send time, even in the local run', async () => {
    const sender = httpSender(resolver({ 'cafe.be': ['169.254.169.254'] }), LOCAL);
    expect(await post(sender, 'http://cafe.be/hook')).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/refused/),
    });
  });
});

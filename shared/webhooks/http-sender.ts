import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { SendResult, WebhookSender } from '../domain/webhooks/ports.js';
import { isIP } from 'node:net';
import { addressAllowed, isBlockedHostName, type UrlGuardOptions } from './url-guard.js';

// node:http, node:https and node:dns are taken with process.getBuiltinModule when a request is
// sent, not imported: an ESM import of node:http builds its module namespace, which runs the lazy
// getters of its exports and loads Node's bundled undici, about 10 ms of every cold start of the
// functions that bundle this sender (webhooks, webhook-delivery), deliveries or not.

/** Every address of a host name (A and AAAA). */
export const resolveAll = (host: string): Promise<string[]> =>
  new Promise((resolve, reject) =>
    process
      .getBuiltinModule('node:dns')
      .lookup(host, { all: true }, (error, addresses: LookupAddress[]) =>
        error ? reject(error) : resolve(addresses.map((a) => a.address)),
      ),
  );

/**
 * Posts a webhook body. The URL guard's rules (url-guard.ts) apply again here, in both
 * environments: a blocked host name or address literal is refused before connecting, and the
 * connection's own DNS lookup refuses blocked addresses: the address checked is the address
 * connected to, so a name re-bound to 10.0.0.1 after the registration check is refused at delivery
 * (decisions.md section 8). Loopback only for the sandbox of the local run. Answers are not
 * followed (no redirects) and their bodies are discarded.
 */
export function httpSender(
  resolve: (host: string) => Promise<string[]> = resolveAll,
  guard: UrlGuardOptions = { localRun: false },
): WebhookSender {
  return {
    post({ url, environment, headers, body, timeoutMs }): Promise<SendResult> {
      return new Promise((done) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          done({ statusCode: null, error: 'invalid URL' });
          return;
        }
        if (environment === 'PRODUCTION' && target.protocol !== 'https:') {
          done({ statusCode: null, error: 'production webhooks must use https' });
          return;
        }
        const guardedLookup: LookupFunction = (hostname, options, callback) => {
          resolve(hostname).then(
            (addresses) => {
              const allowed = addresses.filter((a) => addressAllowed(a, environment, guard));
              if (allowed.length === 0 || allowed.length !== addresses.length) {
                callback(
                  Object.assign(
                    new Error('refused: the host resolves to a private, loopback, link-local or metadata address'),
                    { code: 'EBLOCKED' },
                  ),
                  '',
                  4,
                );
                return;
              }
              const address = allowed[0]!;
              if ((options as { all?: boolean }).all)
                (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [
                  { address, family: address.includes(':') ? 6 : 4 },
                ]);
              else callback(null, address, address.includes(':') ? 6 : 4);
            },
            (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
          );
        };
        // An address literal is checked here (no lookup runs for it); a host name made of hex letters
        // (cafe.be) is a name: isIP, not the look of it, decides, and its lookup checks its addresses.
        const host = target.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) ? !addressAllowed(host, environment, guard) : isBlockedHostName(host)) {
          done({ statusCode: null, error: 'refused: a private, loopback, link-local or metadata address' });
          return;
        }
        const send =
          target.protocol === 'https:'
            ? process.getBuiltinModule('node:https').request
            : process.getBuiltinModule('node:http').request;
        const req = send(
          target,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
            lookup: guardedLookup,
            timeout: timeoutMs,
          },
          (res) => {
            res.resume();
            res.on('end', () => done({ statusCode: res.statusCode ?? null, error: null }));
            res.on('error', () => done({ statusCode: res.statusCode ?? null, error: null }));
          },
        );
        req.on('timeout', () =>
          req.destroy(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
        );
        req.on('error', (error) => done({ statusCode: null, error: error.message.slice(0, 300) }));
        req.end(body);
      });
    },
  };
}

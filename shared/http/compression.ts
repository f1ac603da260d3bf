import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { HttpResponse } from './responses.js';

/**
 * Answers at least this large are compressed for a client that accepts it (docs/api.md,
 * Conventions): below it the bytes saved do not pay for the CPU (CloudFront's threshold is 1,000).
 */
export const COMPRESSION_MIN_BYTES = 1024;

/** Brotli's default quality (11) takes about half a second for the 260 KB of MCP tools/list; 5 compresses it about as well as gzip -9, in a few ms. */
const BROTLI_QUALITY = 5;

type Coding = 'br' | 'gzip';

/** The coding to use for an Accept-Encoding header: br before gzip, `*` covers both, q=0 refuses. */
export function codingFor(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

function compress(body: Buffer, coding: Coding): Buffer {
  return coding === 'br'
    ? brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipSync(body);
}

/**
 * The answer compressed for the client when it is large enough and the client accepts gzip or br:
 * the body in base64 with `isBase64Encoded` (how a Lambda function answers binary to API Gateway
 * and function URLs; the local server sends the bytes) and `Content-Encoding`. Every answer says
 * `Vary: Accept-Encoding`, since the same request may be answered either way.
 */
export function compressed(response: HttpResponse, acceptEncoding: string | undefined): HttpResponse {
  const plain = { ...response, headers: withVary(response.headers) };
  if (response.isBase64Encoded || hasHeader(response.headers, 'content-encoding')) return plain;
  const coding = codingFor(acceptEncoding);
  if (!coding) return plain;
  const bytes = Buffer.from(response.body, 'utf8');
  if (bytes.length < COMPRESSION_MIN_BYTES) return plain;
  return {
    ...plain,
    body: compress(bytes, coding).toString('base64'),
    isBase64Encoded: true,
    headers: { ...plain.headers, 'Content-Encoding': coding },
  };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** The headers with `Vary` naming Accept-Encoding (kept once, whatever the case of the header's name). */
function withVary(headers: Record<string, string>): Record<string, string> {
  const others = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'vary');
  const values = Object.entries(headers)
    .filter(([name]) => name.toLowerCase() === 'vary')
    .flatMap(([, value]) =>
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
  if (!values.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) values.push('Accept-Encoding');
  return { ...Object.fromEntries(others), Vary: values.join(', ') };
}

import { createHash } from 'node:crypto';
import { ENHANCE_SCRIPT } from './enhance-script.js';
import { STYLESHEET } from './stylesheet.js';

/** A file served under /hosted/assets/, named by the hash of its content (so it can be cached for a year). */
export interface Asset {
  path: string;
  contentType: string;
  body: string;
}

const ASSET_HASH_LENGTH = 16;

function asset(body: string, extension: 'css' | 'js', contentType: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, ASSET_HASH_LENGTH);
  return { path: `/hosted/assets/${hash}.${extension}`, contentType, body };
}

/** The stylesheet and the script every page links (hashed once per process). */
export const ASSETS = {
  stylesheet: asset(STYLESHEET.trim(), 'css', 'text/css; charset=utf-8'),
  script: asset(ENHANCE_SCRIPT.trim(), 'js', 'text/javascript; charset=utf-8'),
} as const;

const BY_PATH = new Map(Object.values(ASSETS).map((entry) => [entry.path, entry]));

export function assetAt(path: string): Asset | undefined {
  return BY_PATH.get(path);
}

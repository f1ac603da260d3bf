import { KMSClient } from '@aws-sdk/client-kms';
import type { Sealer } from '../domain/sealing.js';
import { kmsSealer } from '../sealing/kms-sealer.js';
import { localSealer, missingKeySealer } from '../sealing/local-sealer.js';
import { traced } from '../observability/tracer.js';
import type { Core } from './core.js';

/**
 * Sensitive values at rest (bank account numbers, card data): KMS envelopes under DATA_KEY_ID when
 * set (AWS), else AES-256-GCM under DATA_ENCRYPTION_KEY (the local run); with neither, sealing fails.
 */
export function dataSealer(core: Core): Sealer {
  const { config } = core;
  if (config.dataKeyId) return kmsSealer(traced(new KMSClient({ region: config.region })), config.dataKeyId);
  return config.dataEncryptionKey ? localSealer(config.dataEncryptionKey) : missingKeySealer;
}

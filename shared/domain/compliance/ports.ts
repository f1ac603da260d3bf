/** Compliance facts about keys. */
export interface KeyHygiene {
  activeKeysWithoutPermissions: number;
  expiredActiveKeys: number;
}

/** Operator reports: they scan or sample the table, never on a customer's request path. */
export interface ComplianceStore {
  /** Compliance facts about keys (it scans the key items). */
  keyHygiene(now: Date): Promise<KeyHygiene>;
  /** Up to `limit` stored webhook secrets, as stored. */
  sampleWebhookSecrets(limit: number): Promise<string[]>;
}

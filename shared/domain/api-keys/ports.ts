import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { ApiKeyChange } from './changes.js';
import type { OrganizationReader } from '../organizations/ports.js';
import type { Environment } from '../tenancy.js';
import type { ApiKey, Page, PageRequest } from '../types.js';

export interface ApiKeyReader {
  getApiKeyById(keyId: string): Promise<ApiKey | undefined>;
}

/** The reads of authentication, on every request path. */
export interface ApiKeyAuthReader {
  /** One consistent read by the key's SHA-256 hash. */
  getApiKeyByHash(hash: string): Promise<ApiKey | undefined>;
  /** Records lastUsedAt unless it was recorded less than `minIntervalMs` ago (at most one write a minute). */
  touchApiKey(hash: string, now: Date, minIntervalMs: number): Promise<void>;
}

export interface ApiKeyStore extends OrganizationReader, ApiKeyReader, ChangeCommitter<ApiKeyChange | AuditChange> {
  /** Keys of one organization and environment (agent keys included), newest first. */
  listApiKeys(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<ApiKey>>;
}

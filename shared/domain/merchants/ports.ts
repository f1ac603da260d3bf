import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { Environment } from '../tenancy.js';
import type { MerchantProfile } from '../types.js';
import type { WalletReader } from '../wallets/ports.js';

export type MerchantChange =
  /** `expectedStatus`: the status read, so an owner's update never undoes a concurrent suspension. */
  { type: 'putMerchant'; merchant: MerchantProfile; isNew: boolean; expectedStatus?: MerchantProfile['status'] };

export interface MerchantReader {
  getMerchant(environment: Environment, domain: string): Promise<MerchantProfile | undefined>;
}

export interface MerchantStore extends MerchantReader, WalletReader, ChangeCommitter<MerchantChange | AuditChange> {}

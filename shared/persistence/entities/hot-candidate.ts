import { fnv1a } from '../../domain/ledger/hot/hot-routing.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';
import { readInt } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';

/**
 * The bookkeeping of automatic promotion and of the scheduled keeper (docs/architecture.md "Hot
 * wallets"; shared/domain/hot-mode/hot-mode-rules.ts):
 *
 * - `HOT_CANDIDATES#<minute>#<shard>` / `WALLET#<id>`: a wallet's conflicted transaction attempts in
 *   one UTC minute (`conflicts`, ADDed by each process's conflict counter at most once a second per
 *   wallet, only when an attempt conflicted), the shard the hash of the wallet id among
 *   HOT_CANDIDATE_SHARDS (so the minute is no hot key itself), removed by the TTL a day later;
 * - `HOT_WALLETS` / `WALLET#<id>`: the wallets the scheduled keeper visits (put before a promotion,
 *   removed once the wallet is cold again). One partition, written once per promotion or demotion.
 */
export const HOT_CANDIDATE_ENTITY = 'HOT_CANDIDATE';
export const HOT_WALLET_ENTRY_ENTITY = 'HOT_WALLET_ENTRY';

/** Conflict counts are read for the last complete minute only; the TTL keeps a day for an operator's look. */
export const HOT_CANDIDATE_KEPT_S = 24 * 60 * 60;

/** Partition keys one minute's counts are spread over (a reader queries every one, once a minute). */
export const HOT_CANDIDATE_SHARDS = 16;

export const hotCandidateKeys = {
  minute: (minute: string, shard: number) => `HOT_CANDIDATES#${minute}#${shard}`,
  shardOf: (walletId: string) => fnv1a(walletId) % HOT_CANDIDATE_SHARDS,
  candidate: (minute: string, walletId: string): ItemKey => ({
    PK: hotCandidateKeys.minute(minute, hotCandidateKeys.shardOf(walletId)),
    SK: `WALLET#${walletId}`,
  }),
  registry: 'HOT_WALLETS',
  registered: (walletId: string): ItemKey => ({ PK: hotCandidateKeys.registry, SK: `WALLET#${walletId}` }),
};

/** The attributes an ADD of conflicts sets besides the count (UpdateCommand SET). */
export const hotCandidateAttributes = (walletId: string, at: Date) => ({
  entityType: HOT_CANDIDATE_ENTITY,
  walletId,
  [TTL_ATTRIBUTE]: Math.floor(at.getTime() / 1000) + HOT_CANDIDATE_KEPT_S,
});

export const hotCandidateCodec = {
  fromItem: (item: Item) => ({ walletId: str(item.walletId), conflicts: readInt(item.conflicts) }),
};

export interface HotWalletEntry {
  walletId: string;
  /** When the entry was put (the promotion began). */
  registeredAt: string;
}

export const hotWalletEntryCodec = {
  toItem: (entry: HotWalletEntry): Item => ({
    ...hotCandidateKeys.registered(entry.walletId),
    entityType: HOT_WALLET_ENTRY_ENTITY,
    ...entry,
  }),
  fromItem: (item: Item): HotWalletEntry => ({ walletId: str(item.walletId), registeredAt: str(item.registeredAt) }),
};

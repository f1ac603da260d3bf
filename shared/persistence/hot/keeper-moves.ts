import Big from 'big.js';
import type { HotWalletParts } from '../../domain/ledger/hot/hot-types.js';
import type { DropKeys, LaneStatus, Rebalance, Resync } from '../../domain/ledger/hot/keeper-plan.js';
import { toNumberAttribute } from '../client.js';
import { hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { walletKeys } from '../entities/wallet.js';
import type { ItemKey } from '../item.js';
import type { TableContext } from '../table-context.js';
import type { TransactWrite } from '../transact.js';
import { counterIs, keeperTransaction, raced } from './fold-moves.js';

/**
 * The keeper's lane and quota moves (design 2.2, 2.3), each ONE transaction of main and the lanes
 * it moves, balancing within the wallet: funds main <-> lanes, quota main's ungranted <-> lanes.
 * Guarded by main's `seq` as read (every move bumps it: the seqlock of the exact read), and by the
 * amounts taken (a payment may have spent from the lane or main since the read). A move that lost
 * its guard wrote nothing and answers false: the keeper reads again.
 */

/** An update builder with named attributes and values (every name through #n, every value through :v). */
class Expr {
  private names: Record<string, string> = {};
  private values: Record<string, unknown> = {};
  private sets: string[] = [];
  private adds: string[] = [];
  private removes: string[] = [];
  private conditions: string[] = ['attribute_exists(PK)'];
  private count = 0;

  name(attribute: string): string {
    const existing = Object.entries(this.names).find(([, value]) => value === attribute)?.[0];
    if (existing) return existing;
    const alias = `#n${Object.keys(this.names).length}`;
    this.names[alias] = attribute;
    return alias;
  }
  value(value: unknown): string {
    const alias = `:v${this.count++}`;
    this.values[alias] = value instanceof Big ? toNumberAttribute(value) : value;
    return alias;
  }
  set(clause: string): this {
    this.sets.push(clause);
    return this;
  }
  add(attribute: string, amount: Big | number): this {
    this.adds.push(`${this.name(attribute)} ${this.value(amount)}`);
    return this;
  }
  remove(attribute: string): this {
    this.removes.push(this.name(attribute));
    return this;
  }
  when(condition: string): this {
    this.conditions.push(condition);
    return this;
  }
  write(tableName: string, key: ItemKey, what: string): TransactWrite {
    const expression = [
      this.sets.length > 0 ? `SET ${this.sets.join(', ')}` : '',
      this.adds.length > 0 ? `ADD ${this.adds.join(', ')}` : '',
      this.removes.length > 0 ? `REMOVE ${this.removes.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      item: {
        Update: {
          TableName: tableName,
          Key: key,
          UpdateExpression: expression,
          ConditionExpression: this.conditions.join(' AND '),
          ExpressionAttributeNames: this.names,
          ...(Object.keys(this.values).length > 0 ? { ExpressionAttributeValues: this.values } : {}),
        },
      },
      onConditionFailed: raced(what),
    };
  }
}

/** main, guarded by its seq as read and not closed, with seq + 1. */
function mainExpr(mainSeq: number): Expr {
  const expr = new Expr();
  return expr
    .when(counterIs(expr.name('seq'), expr.value(mainSeq), mainSeq))
    .when(`attribute_not_exists(${expr.name('deletedAt')})`)
    .add('seq', 1);
}

/** Funds and quotas between main and the lanes (top-up, drain, grant, revoke, pre-grant of the next period). */
export function rebalance(table: TableContext, walletId: string, move: Rebalance): Promise<boolean> {
  const main = mainExpr(move.mainSeq);
  main.when(`${main.name('hot')}.${main.name('state')} = ${main.value('HOT')}`);
  const writes: TransactWrite[] = [];
  let fromMain = new Big(0);
  const granted = new Map<string, Big>();
  for (const delta of move.lanes) {
    const lane = new Expr();
    lane.add('seq', 1).when(`${lane.name('status')} = ${lane.value('ACTIVE')}`);
    if (!delta.available.eq(0)) {
      lane.add('available', delta.available);
      if (delta.available.lt(0)) lane.when(`${lane.name('available')} >= ${lane.value(delta.available.abs())}`);
      fromMain = fromMain.plus(delta.available);
    }
    for (const [key, quota] of Object.entries(delta.quota)) {
      if (quota.eq(0)) continue;
      const name = hotAttributes.quota(key);
      lane.add(name, quota);
      if (quota.lt(0)) lane.when(`${lane.name(name)} >= ${lane.value(quota.abs())}`);
      granted.set(key, (granted.get(key) ?? new Big(0)).plus(quota));
    }
    writes.push(lane.write(table.tableName, hotKeys.lane(walletId, delta.lane), `lane ${delta.lane}`));
  }
  if (!fromMain.eq(0)) {
    main.add('balance', fromMain.times(-1));
    if (fromMain.gt(0)) main.when(`${main.name('balance')} >= ${main.value(fromMain)}`);
  }
  for (const [key, amount] of granted) {
    if (amount.eq(0)) continue;
    const u = main.name(hotAttributes.ungranted(key));
    const initial = move.initialUngranted[key];
    const from = initial ? `if_not_exists(${u}, ${main.value(initial)})` : u;
    main.set(`${u} = ${from} - ${main.value(amount)}`);
    if (!initial) main.when(`attribute_exists(${u})`);
    if (amount.gt(0))
      main.when(
        initial ? `(attribute_not_exists(${u}) OR ${u} >= ${main.value(amount)})` : `${u} >= ${main.value(amount)}`,
      );
  }
  return keeperTransaction(table, [main.write(table.tableName, walletKeys.primary(walletId), 'main'), ...writes]);
}

/**
 * After a policy change (main's policyVersion moved): every lane takes the new version with its
 * quotas revoked (payments with the old policies cached then fail the lane's version condition and
 * read again), and main's ungranted becomes the new limit less Σ spend, guarded on every spend and
 * quota read (so the quota equation holds at the commit).
 */
export function resync(table: TableContext, walletId: string, move: Resync): Promise<boolean> {
  const main = mainExpr(move.mainSeq);
  main.when(counterIs(main.name('policyVersion'), main.value(move.policyVersion), move.policyVersion));
  for (const [key, { value, mainSpend }] of Object.entries(move.ungranted)) {
    main.set(`${main.name(hotAttributes.ungranted(key))} = ${main.value(value)}`);
    const spend = main.name(hotAttributes.spend(key));
    main.when(counterIs(spend, main.value(mainSpend), mainSpend));
  }
  const lanes = move.lanes.map((state) => {
    const lane = new Expr();
    lane.when(counterIs(lane.name('seq'), lane.value(state.seq), state.seq)).add('seq', 1);
    lane.set(`${lane.name('policyVersion')} = ${lane.value(move.policyVersion)}`);
    for (const [key, quota] of Object.entries(state.quota)) {
      const name = lane.name(hotAttributes.quota(key));
      lane.when(counterIs(name, lane.value(quota), quota)).remove(hotAttributes.quota(key));
    }
    for (const key of Object.keys(move.ungranted)) {
      const spent = state.spend[key] ?? new Big(0);
      lane.when(counterIs(lane.name(hotAttributes.spend(key)), lane.value(spent), spent));
    }
    return lane.write(table.tableName, hotKeys.lane(walletId, state.lane), `lane ${state.lane}`);
  });
  return keeperTransaction(table, [main.write(table.tableName, walletKeys.primary(walletId), 'main'), ...lanes]);
}

/** Period keys over: their ungranted on main, their quota and spend on the lanes (no money: counters only). */
export function dropKeys(table: TableContext, walletId: string, move: DropKeys): Promise<boolean> {
  const main = mainExpr(move.mainSeq);
  for (const key of move.keys) main.remove(hotAttributes.ungranted(key));
  const lanes = move.lanes.map((state) => {
    const lane = new Expr();
    lane.add('seq', 1);
    for (const key of move.keys) lane.remove(hotAttributes.quota(key)).remove(hotAttributes.spend(key));
    return lane.write(table.tableName, hotKeys.lane(walletId, state.lane), `lane ${state.lane}`);
  });
  return keeperTransaction(table, [main.write(table.tableName, walletKeys.primary(walletId), 'main'), ...lanes]);
}

/** Lanes to main's status (ACTIVE only while main is ACTIVE), guarded on main still being so. */
export function setLaneStatus(table: TableContext, walletId: string, move: LaneStatus): Promise<boolean> {
  const main = mainExpr(move.mainSeq);
  const status = main.name('status');
  main.when(`${status} ${move.status === 'ACTIVE' ? '=' : '<>'} ${main.value('ACTIVE')}`);
  const lanes = move.lanes.map(({ lane: index }) => {
    const lane = new Expr();
    lane.add('seq', 1).set(`${lane.name('status')} = ${lane.value(move.status)}`);
    return lane.write(table.tableName, hotKeys.lane(walletId, index), `lane ${index}`);
  });
  return keeperTransaction(table, [main.write(table.tableName, walletKeys.primary(walletId), 'main'), ...lanes]);
}

/**
 * The end of a demotion (all credits folded already): every lane drained into main and deleted,
 * its spend merged into main's spend (so the cold path counts it), the quotas dropped with main's
 * ungranted, and `hot` removed; accumulators and folded#g stay. One transaction, guarded on each
 * lane's funds and spend as read (a slow-path payment meanwhile makes the keeper read again).
 */
export function drainAndCool(table: TableContext, parts: HotWalletParts): Promise<boolean> {
  const main = mainExpr(parts.main.seq);
  main.when(`${main.name('hot')}.${main.name('state')} = ${main.value('COOLING')}`).remove('hot');
  const total = parts.lanes.reduce((sum, lane) => sum.plus(lane.available), new Big(0));
  if (!total.eq(0)) main.add('balance', total);
  const spend = new Map<string, Big>();
  const lanes: TransactWrite[] = parts.lanes.map((state) => {
    const conditions: string[] = ['attribute_exists(PK)'];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const guard = (attribute: string, read: Big | number) => {
      const alias = `#a${Object.keys(names).length}`;
      const value = `:a${Object.keys(values).length}`;
      names[alias] = attribute;
      values[value] = read instanceof Big ? toNumberAttribute(read) : read;
      conditions.push(counterIs(alias, value, read));
    };
    guard('seq', state.seq);
    guard('available', state.available);
    for (const [key, spent] of Object.entries(state.spend)) {
      guard(hotAttributes.spend(key), spent);
      spend.set(key, (spend.get(key) ?? new Big(0)).plus(spent));
    }
    return {
      item: {
        Delete: {
          TableName: table.tableName,
          Key: hotKeys.lane(parts.walletId, state.lane),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      onConditionFailed: raced(`lane ${state.lane}`),
    };
  });
  for (const [key, spent] of spend) if (!spent.eq(0)) main.add(hotAttributes.spend(key), spent);
  for (const key of Object.keys(parts.main.ungranted)) main.remove(hotAttributes.ungranted(key));
  return keeperTransaction(table, [main.write(table.tableName, walletKeys.primary(parts.walletId), 'main'), ...lanes]);
}

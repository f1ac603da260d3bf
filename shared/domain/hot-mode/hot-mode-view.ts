import * as z from 'zod/mini';
import { describe, enumOf, exampleOf, integer, lazy, built, timestamp, view } from '../views.js';
import { presentWallet, walletView, type WalletView } from '../wallets/wallet-view.js';
import { everyOf } from '../enums.js';
import type { HotState } from '../ledger/hot/hot-types.js';
import { hotModeStatusOf } from './hot-mode-rules.js';
import type { HotModeAnswer } from './hot-mode-service.js';

export const HOT_STATES = everyOf<HotState>()(['HOT', 'COOLING']);

type WalletObject = typeof walletView extends z.ZodMiniLazy<infer Inner> ? Inner : never;

/** The operator's view of a wallet: the wallet as its organization sees it, plus its hot mode (docs/api.md "Hot wallets"). */
export const hotModeWalletView = /* @__PURE__ */ lazy(() => {
  const wallet = built(walletView) as WalletObject;
  return view(
    {
      ...wallet.shape,
      hotMode: describe(
        z.nullable(
          z.object({
            state: enumOf(
              HOT_STATES,
              'HOT: payments in go to credit partitions and payments out come from lanes; COOLING: being turned off (everything is routed to the wallet itself; the keeper folds and drains, then hot mode is gone).',
            ),
            since: timestamp('When the wallet went hot.'),
            partitions: integer('Credit partitions (G).'),
            lanes: integer('Debit lanes (M).'),
          }),
        ),
        'Hot mode of the wallet, or null when it is cold (only operator views show it).',
      ),
    },
    'A wallet as the operator sees it: the wallet and its hot mode.',
    {
      ...(exampleOf(wallet) as WalletView),
      hotMode: { state: 'HOT', since: '2026-11-28T03:30:00.000Z', partitions: 64, lanes: 64 },
    },
  );
});
export type HotModeWalletView = z.infer<typeof hotModeWalletView>;

export function presentHotModeWallet(answer: HotModeAnswer): HotModeWalletView {
  return { ...presentWallet(answer.wallet), hotMode: hotModeStatusOf(answer.hot) };
}

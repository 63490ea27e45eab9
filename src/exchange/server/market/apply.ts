/**
 * The market-data aggregate's command handlers: `world.seed` (the initial books of the seeded liquidity
 * user), `market.batch` and `market.history` (the market simulation; commands.ts of this folder). Applied by
 * the exec loop (exec.ts) like every command; malformed args answer 400100 with nothing changed.
 */
import * as D from '../../../api/decimal';
import { LIQUIDITY_UID } from '../records';
import { SandboxError } from '../sandboxError';
import type { UserDirectory } from '../users/commands';
import { seedBookOrders } from '../world';
import { execMarketBatch, execMarketHistory, MarketCommandError, type MarketBatchArgs, type MarketBatchResult, type MarketHistoryArgs, type MarketHistoryResult } from './commands';
import type { MarketHost } from './host';

/** The seeded books and the market simulation's commands. */
export class MarketCommands {
  /** True once `world.seed` has run (snapshot `state` section, record `meta`). */
  seeded = false;

  constructor(
    private readonly host: MarketHost,
    private readonly users: UserDirectory,
  ) {}

  /**
   * `world.seed`: the liquidity user (uid LIQUIDITY_UID, no fees, no history) with the balances its resting
   * orders need, and those orders (world.ts seedBookOrders). Once per state. @throws SandboxError 400100 when seeded.
   */
  seed(seed: number, t: number): { orders: number } {
    if (this.seeded) throw new SandboxError('400100', 'world already seeded', 400);
    const ex = this.host.exchange;
    // nobody can query the seeded liquidity: it keeps no history (state.ts, "Retention")
    this.users.addLiquidityUser({
      uid: LIQUIDITY_UID,
      apiKey: `liquidity-${seed}`,
      apiSecret: '',
      apiPassphrase: '',
      keyVersion: '2',
      permissions: [],
      whitelist: { enabled: false, favorites: [] },
      isDefault: false,
      label: 'liquidity',
      createdAt: t,
    });
    const orders = seedBookOrders(this.host.world, seed);
    const need = new Map<string, string>();
    for (const o of orders) {
      const [base, quote] = o.symbol.split('-');
      if (o.side === 'sell') need.set(base, D.add(need.get(base) ?? '0', o.size));
      else need.set(quote, D.add(need.get(quote) ?? '0', D.mul(D.mul(o.price, o.size), '1.01')));
    }
    for (const [currency, amount] of need) {
      const prec = this.host.world.currencyMap.get(currency)?.precision ?? 8;
      this.users.grant(LIQUIDITY_UID, { currency, type: 'trade', amount: D.roundUp(D.add(amount, '1'), D.precisionIncrement(prec)) });
    }
    ex.setFeeRates(LIQUIDITY_UID, '0', '0');
    for (const o of orders) {
      ex.placeOrder(LIQUIDITY_UID, { symbol: o.symbol, side: o.side, type: 'limit', price: o.price, size: o.size });
    }
    this.seeded = true;
    return { orders: orders.length };
  }

  /** `market.batch`. @throws SandboxError 400100 (HTTP 400) on malformed args. */
  batch(args: MarketBatchArgs): MarketBatchResult {
    return asSandboxError(() => execMarketBatch(this.host, args));
  }

  /** `market.history`; `setClock` runs the engine's clock through the past it builds. @throws SandboxError 400100 (HTTP 400). */
  history(args: MarketHistoryArgs, setClock: (ms: number) => void): MarketHistoryResult {
    return asSandboxError(() => execMarketHistory(this.host, args, setClock));
  }
}

function asSandboxError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof MarketCommandError) throw new SandboxError('400100', e.message, 400);
    throw e;
  }
}

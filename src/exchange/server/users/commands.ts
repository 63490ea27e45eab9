/**
 * Users and API keys: the sandbox's user directory and the handlers of its commands (`user.create`,
 * `fees.set`, `funds.grant`, `whitelist.set`; commands.ts). Applied by the exec loop (exec.ts) like every
 * command: deterministic given (state, t, args); the random key material is drawn by the caller before exec
 * ({@link newKeyMaterial}) and carried in the args.
 */
import * as D from '../../../api/decimal';
import type { Exchange } from '../../core';
import type { CommandArgs } from '../commands';
import type { EventSource } from '../eventHub';
import { isSimulationBot, LIQUIDITY_UID, type BalanceGrant, type UserRecord } from '../records';
import { SandboxError } from '../sandboxError';
import type { World } from '../world';

/** The first uid handed out by `user.create` (a counter: replay hands out the same ones). */
const FIRST_UID = 226_000_001;

/**
 * The users and their single API key each, by uid and by key. The liquidity user of the seeded books is in
 * `users` but has no key to look up.
 */
export class UserDirectory {
  readonly users = new Map<string, UserRecord>();
  readonly usersByKey = new Map<string, UserRecord>();
  /** The uid the next `user.create` gets (snapshot `state` section, record `meta`). */
  nextUid = FIRST_UID;

  /**
   * @param ledgerSource the account ledgers' event source: every user with a key of its own (not the
   *   simulation's bots) is watched from its creation on.
   */
  constructor(
    private readonly exchange: Exchange,
    private readonly world: World,
    private readonly ledgerSource: EventSource,
  ) {}

  /** `user.create`: a new user with the next uid, its fee rates and opening balances. @throws SandboxError 400100 (taken key, bad grant; nothing changed). */
  create(a: CommandArgs<'user.create'>, t: number): UserRecord {
    if (this.usersByKey.has(a.apiKey)) throw new SandboxError('400100', 'apiKey already exists', 400);
    const uid = String(this.nextUid++);
    const u: UserRecord = {
      uid,
      apiKey: a.apiKey,
      apiSecret: a.apiSecret,
      apiPassphrase: a.apiPassphrase,
      keyVersion: a.keyVersion,
      permissions: [...a.permissions],
      whitelist: { enabled: false, favorites: [] },
      isDefault: a.isDefault ?? false,
      label: a.label ?? '',
      createdAt: t,
    };
    // Validate every grant before changing anything.
    for (const b of a.balances ?? []) this.checkGrant(b);
    this.users.set(uid, u);
    this.usersByKey.set(u.apiKey, u);
    // the bots' keys are never handed out: they keep no history (state.ts, "Retention"), and their
    // trading volume costs no ledger memory; every balance change of a user with a key of its own goes to
    // its ledger
    if (isSimulationBot(u)) this.exchange.disableHistory(uid);
    else this.ledgerSource.watchUser(uid, true);
    if (a.takerFeeRate !== undefined || a.makerFeeRate !== undefined) {
      this.exchange.setFeeRates(uid, a.takerFeeRate ?? '0.001', a.makerFeeRate ?? '0.001');
    }
    for (const b of a.balances ?? []) this.grant(uid, b);
    return u;
  }

  /** Add the liquidity user of the seeded books (`world.seed`): no key to look it up by, no history. */
  addLiquidityUser(u: UserRecord): void {
    this.users.set(u.uid, u);
    this.exchange.disableHistory(u.uid);
  }

  /** Restore users of a snapshot's `state` section, with what `user.create` set up besides the record. */
  restore(list: readonly UserRecord[]): void {
    for (const u of list) {
      this.users.set(u.uid, u);
      if (u.uid === LIQUIDITY_UID) continue;
      this.usersByKey.set(u.apiKey, u);
      // as user.create did: a user with a key of its own keeps a ledger
      if (!isSimulationBot(u)) this.ledgerSource.watchUser(u.uid, true);
    }
  }

  /** `fees.set`. @throws SandboxError 400100 unknown uid; ExchangeError 400100 on rates out of bounds. */
  setFees(a: CommandArgs<'fees.set'>): null {
    this.require(a.uid);
    this.exchange.setFeeRates(a.uid, a.takerFeeRate, a.makerFeeRate);
    return null;
  }

  /** `whitelist.set`: replaces the user's withdrawal whitelist. @throws SandboxError 400100 unknown uid. */
  setWhitelist(a: CommandArgs<'whitelist.set'>): UserRecord['whitelist'] {
    const u = this.require(a.uid);
    u.whitelist = { enabled: a.enabled, favorites: a.favorites.map((f) => ({ ...f })) };
    return u.whitelist;
  }

  /** `funds.grant`. @throws SandboxError 400100 unknown uid or bad grant (nothing changed). */
  fundsGrant(a: CommandArgs<'funds.grant'>): null {
    this.require(a.uid);
    this.grant(a.uid, a);
    return null;
  }

  /** Check a balance grant: a supported currency, a positive multiple of its precision, main or trade. @throws SandboxError 400100. */
  checkGrant(b: BalanceGrant): void {
    const cur = this.world.currencyMap.get(b.currency);
    if (!cur) throw new SandboxError('400100', `currency ${b.currency} is not supported`, 400);
    if (!D.isDecimal(b.amount) || D.cmp(b.amount, '0') <= 0) throw new SandboxError('400100', 'amount must be a positive decimal string', 400);
    if (!D.isMultipleOf(b.amount, D.precisionIncrement(cur.precision))) {
      throw new SandboxError('400100', `amount must be a multiple of ${D.precisionIncrement(cur.precision)}`, 400);
    }
    if (b.type !== 'main' && b.type !== 'trade') throw new SandboxError('400100', 'type must be main or trade', 400);
  }

  /** Credit a grant: a deposit to main, moved to trade when asked. @throws SandboxError 400100 (see {@link checkGrant}). */
  grant(uid: string, b: BalanceGrant): void {
    this.checkGrant(b);
    this.exchange.deposit(uid, b.currency, b.amount);
    if (b.type === 'trade') this.exchange.transfer(uid, b.currency, 'main', 'trade', b.amount);
  }

  /** The user or throws SandboxError 400100 (HTTP 400). */
  require(uid: string): UserRecord {
    const u = this.users.get(uid);
    if (!u) throw new SandboxError('400100', `unknown uid ${uid}`, 400);
    return u;
  }

  /** The default user (credentials.json), if created. */
  defaultUser(): UserRecord | undefined {
    for (const u of this.users.values()) if (u.isDefault) return u;
    return undefined;
  }
}

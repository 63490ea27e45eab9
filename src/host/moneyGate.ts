/**
 * The person's confirmation, checked where money moves. A real profile's `SpotClient` is built with
 * the guard of {@link MoneyGate.guardFor}: before it sends a placement, a cancel-all or a withdrawal
 * (the endpoints marked `moves` in src/api/endpoints.ts) it requires a {@link Confirmation} that only
 * {@link MoneyGate.confirm} makes, and only when the person chose the action in the modal (the
 * frozen Production prompts). The confirmation travels with the async call that sends the request
 * ({@link MoneyGate.run}), is bound to the action and the profile, is used up by the request and
 * expires after {@link CONFIRMATION_TTL_MS}. So a reference to a panel, a client or a service that
 * leaks to another extension cannot place, cancel everything or withdraw without the dialog.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MoneyGuard, MoneyRequest } from '../api/client';
import type { MoneyAction } from '../api/endpoints';
import type { Prompts } from './prompts';

/** How long a confirmation stays good after the person gave it, ms. */
export const CONFIRMATION_TTL_MS = 120_000;

/**
 * Proof that the person confirmed one money-moving `action` on the profile `profileId` in a modal.
 * Opaque: only the gate that made it knows whether it is (still) valid.
 */
export interface Confirmation {
  readonly action: MoneyAction;
  readonly profileId: string;
}

/** A money-moving request refused because it carried no valid confirmation (nothing was sent). */
export class ConfirmationRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfirmationRequiredError';
  }
}

const WHAT: Record<MoneyAction, string> = { place: 'an order placement', cancelAll: 'a cancel-all', withdraw: 'a withdrawal' };

/** Mints confirmations from the modal and checks them in the client's guard (see the module docs). */
export class MoneyGate {
  readonly #valid = new Map<Confirmation, { expiresAt: number; uses: number }>();
  readonly #ambient = new AsyncLocalStorage<Confirmation>();
  readonly #prompts: Prompts;
  readonly #profileId: () => string;
  readonly #now: () => number;

  /**
   * @param prompts the prompts every command uses (frozen in Production: its `confirm` is the modal)
   * @param profileId the active profile's id (the confirmation is bound to it)
   * @param now clock, epoch ms
   */
  constructor(prompts: Prompts, profileId: () => string, now: () => number = Date.now) {
    this.#prompts = prompts;
    this.#profileId = profileId;
    this.#now = now;
  }

  /**
   * Ask the person in a modal (`prompts.confirm(message, detail, actionLabel, cancel)`); when they
   * choose `actionLabel` — and `also`, a further question such as a re-typed address, answers true —
   * returns a confirmation of `action` on the active profile, good for `uses` requests (default 1)
   * within {@link CONFIRMATION_TTL_MS}. Resolves undefined when the person declines.
   */
  async confirm(action: MoneyAction, message: string, detail: string, actionLabel: string, opts: { cancel?: string; uses?: number; also?: () => Promise<boolean> } = {}): Promise<Confirmation | undefined> {
    const profileId = this.#profileId();
    if (!(await this.#prompts.confirm(message, detail, actionLabel, opts.cancel))) return undefined;
    if (opts.also && !(await opts.also())) return undefined;
    const c: Confirmation = Object.freeze({ action, profileId });
    this.#valid.set(c, { expiresAt: this.#now() + CONFIRMATION_TTL_MS, uses: Math.max(1, Math.floor(opts.uses ?? 1)) });
    return c;
  }

  /**
   * Run `fn` with `confirmation` as the ambient confirmation: the money-moving requests that `fn`
   * sends (through a guarded client) use it up. Undefined runs `fn` with none.
   */
  run<T>(confirmation: Confirmation | undefined, fn: () => Promise<T>): Promise<T> {
    return confirmation ? this.#ambient.run(confirmation, fn) : this.#ambient.exit(fn);
  }

  /** Forget every confirmation not used yet (e.g. when the active profile changes). */
  revokeAll(): void {
    this.#valid.clear();
  }

  /**
   * The guard of the client of profile `profileId` ({@link SpotClientOptions.moneyGuard}): allows a
   * money-moving request only inside {@link run} with a valid confirmation of the same action and
   * profile, and uses one of its uses.
   * @throws ConfirmationRequiredError otherwise (the request is not sent)
   */
  guardFor(profileId: string): MoneyGuard {
    return (req: MoneyRequest) => {
      const c = this.#ambient.getStore();
      const entry = c && this.#valid.get(c);
      if (!c || !entry || c.action !== req.action || c.profileId !== profileId || this.#now() > entry.expiresAt) {
        if (c && entry && this.#now() > entry.expiresAt) this.#valid.delete(c);
        throw new ConfirmationRequiredError(
          `SpotDesk did not send ${WHAT[req.action]} (${req.method} ${req.path}): it needs your confirmation in SpotDesk's dialog, and none was given for this request.`,
        );
      }
      entry.uses -= 1;
      if (entry.uses <= 0) this.#valid.delete(c);
    };
  }
}

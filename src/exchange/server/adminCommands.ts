/**
 * The admin aggregate's command handlers: `status.set` (GET /api/v1/status answers it) and `clock.set`
 * (the manual clock, admin POST /sandbox/v1/clock). Applied by the exec loop (exec.ts) like every command.
 */
import type * as S from '../../api/schemas';
import type { SandboxClock } from './clock';
import type { CommandArgs } from './commands';
import { SandboxError } from './sandboxError';

/** The service status and the manual clock's moves. */
export class AdminControls {
  /** What GET /api/v1/status answers (snapshot `state` section, record `meta`). */
  status: S.ServiceStatus = { status: 'open', msg: '' };

  constructor(private readonly clock: SandboxClock) {}

  /** `status.set`. */
  setStatus(a: CommandArgs<'status.set'>): S.ServiceStatus {
    this.status = { status: a.status, msg: a.msg };
    return this.status;
  }

  /**
   * `clock.set`: the manual clock moves to `now`. @throws SandboxError 400100 (HTTP 400) without
   * --manual-clock or backwards (both unchecked on replay: the journaled move was accepted when it ran).
   */
  setClock(a: CommandArgs<'clock.set'>, replaying: boolean): { now: number } {
    if (!this.clock.manual && !replaying) throw new SandboxError('400100', 'the clock can only be set with --manual-clock', 400);
    // On replay the journaled move was accepted when it ran: a state rebuilt from the empty state started its
    // manual clock at the wall time of the rebuild, later than the journal's times, so it is not compared.
    if (a.now < this.clock.manualNow && !replaying) throw new SandboxError('400100', 'the clock cannot go backwards', 400);
    this.clock.manualNow = a.now;
    return { now: this.clock.manualNow };
  }
}

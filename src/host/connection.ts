/**
 * Profiles, credentials and the API client of the active profile.
 *
 * - The built-in "Sandbox (local)" profile (the default) starts the embedded sandbox exchange in a
 *   process of its own (sandboxProcess.ts) on 127.0.0.1 on first need (port `spotdesk.sandbox.port`,
 *   default a free one); its state lives in `context.globalStorageUri/sandbox` and its credentials are
 *   provisioned by the sandbox itself. If the process dies it is restarted with a notice; it is
 *   stopped with the extension.
 * - "Paper (KuCoin prices)" and "Replay (recorded market)" run it in mirror or replay mode, each in a process and
 *   state dir of its own (./embeddedProfiles.ts), only while active (the plain sandbox keeps running: bots use it).
 * - User profiles `{name, baseUrl}` come from the application-scoped setting `spotdesk.profiles`;
 *   `spotdesk.activeProfile` (application scope too) picks one. Application scope means a
 *   workspace's .vscode/settings.json can never redirect signed requests.
 * - API credentials of user profiles live only in SecretStorage under `spotdesk.credentials/<profile id>`.
 *
 * The API client (with its zod schemas) is loaded lazily with dynamic `import()`: activation stays light. The
 * sandbox's engine and server are not in extension.js: they run from dist/sandbox-cli.js in the child process.
 */
import * as vscode from 'vscode';
import type { MoneyGuard, SpotClient } from '../api/client';
import type { KeyVersion } from '../api/schemas';
import { SandboxStartError, startSandboxProcess, type SandboxProcess } from './sandboxProcess';
import {
  borrowedMode,
  embeddedLaunch,
  paperSettings,
  PAPER_PROFILE_ID,
  PAPER_PROFILE_NAME,
  REPLAY_PROFILE_ID,
  REPLAY_PROFILE_NAME,
  type EmbeddedSpec,
  type ReplaySettings,
} from './embeddedProfiles';
import type { BorrowedMode, ReplayPosition } from '../api/borrowedMarket';
import { COMMANDS } from './commandIds';
import { redact, requestLogLine, type RequestLogEntry } from './requestLog';

/** Id and display name of the built-in sandbox profile. */
export const SANDBOX_PROFILE_ID = 'sandbox';
export const SANDBOX_PROFILE_NAME = 'Sandbox (local)';

/** One profile as SpotDesk sees it. `id` is `sandbox`, `paper`, `replay` or `user:<name>`. */
export interface Profile {
  id: string;
  name: string;
  baseUrl?: string;
  /** True for the built-in profiles that run the embedded sandbox (play money): Sandbox, Paper and Replay. */
  sandbox: boolean;
  /** For Paper and Replay: the borrowed market (paper trading on an upstream, or a replay at a speed). */
  mode?: BorrowedMode;
}

/** The names user profiles cannot take (the built-in profiles'). */
const BUILT_IN_NAMES = new Set([SANDBOX_PROFILE_NAME, PAPER_PROFILE_NAME, REPLAY_PROFILE_NAME]);
/** globalState key of the last replay picked (its file and speed), so a reload keeps the Replay profile. */
const REPLAY_STATE_KEY = 'spotdesk.replay';

/** API key credentials as stored in SecretStorage (never in settings or logs). */
export interface StoredCredentials {
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  /** KC-API-KEY-VERSION, "2" or "3" (as on the wire). */
  keyVersion: KeyVersion;
}

/** Error whose message is meant for the user (what happened and what to do next). */
export class UserFacingError extends Error {
  constructor(
    message: string,
    /** Command the user can run to fix it, e.g. `spotdesk.setCredentials`. */
    readonly fixCommand?: string,
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}

/** Restarts after unexpected exits within this window count towards the crash-loop limit. */
const RESTART_WINDOW_MS = 60_000;
/** At most this many automatic restarts per window; then the user restarts it (Refresh). */
const MAX_RESTARTS = 3;

const SECRET_PREFIX = 'spotdesk.credentials/';

/** Read the user profiles from the (application-scoped) setting, dropping malformed entries. */
export function userProfiles(): Profile[] {
  const raw = vscode.workspace.getConfiguration('spotdesk').get<unknown>('profiles');
  if (!Array.isArray(raw)) return [];
  const out: Profile[] = [];
  for (const p of raw) {
    if (!p || typeof p !== 'object') continue;
    const { name, baseUrl } = p as { name?: unknown; baseUrl?: unknown };
    if (typeof name !== 'string' || !name.trim() || typeof baseUrl !== 'string') continue;
    if (BUILT_IN_NAMES.has(name) || out.some((o) => o.name === name)) continue;
    out.push({ id: `user:${name}`, name, baseUrl: baseUrl.replace(/\/+$/, ''), sandbox: false });
  }
  return out;
}

/** The built-in sandbox profile. */
export function sandboxProfile(): Profile {
  return { id: SANDBOX_PROFILE_ID, name: SANDBOX_PROFILE_NAME, sandbox: true };
}

/** The built-in paper-trading profile (mirror mode on `spotdesk.paper.upstreamUrl`). */
export function paperProfile(): Profile {
  return { id: PAPER_PROFILE_ID, name: PAPER_PROFILE_NAME, sandbox: true, mode: { kind: 'paper' } };
}

/** The replay profile of a picked recording. */
export function replayProfile(r: Pick<ReplaySettings, 'speed'>): Profile {
  return { id: REPLAY_PROFILE_ID, name: REPLAY_PROFILE_NAME, sandbox: true, mode: { kind: 'replay', speed: r.speed } };
}

/** The paper settings from the configuration (validated, defaults on bad values). */
export function readPaperSettings(): ReturnType<typeof paperSettings> {
  const cfg = vscode.workspace.getConfiguration('spotdesk');
  return paperSettings({ upstreamUrl: cfg.get<unknown>('paper.upstreamUrl'), symbols: cfg.get<unknown>('paper.symbols') });
}

/** One embedded sandbox process slot: the process of a kind, keyed by its launch (args and state dir). */
interface EmbeddedSlot {
  key: string;
  promise: Promise<SandboxProcess>;
  proc?: SandboxProcess;
}

/**
 * Owns the active profile, its credentials and its client. One instance per activation.
 * Fires `onDidChange` when the active profile or its credentials change.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the active profile or its credentials change. */
  readonly onDidChange = this.changed.event;
  /** The signing client of the active profile. */
  private readonly signing = new ClientSlot();
  /** The credential-less client of a user profile without credentials. */
  private readonly public = new ClientSlot();
  /** The embedded processes, one per kind (sandbox, paper, replay). */
  private readonly slots = new Map<EmbeddedSpec['kind'], EmbeddedSlot>();
  /** The replay picked last (its profile exists while this is set). */
  private replay: ReplaySettings | undefined;
  /** The running replay's last reported position. */
  private replayAt: ReplayPosition | undefined;
  private readonly replayMoved = new vscode.EventEmitter<ReplayPosition>();
  /** Fires when the running replay reports its position (about once a second) or its end. */
  readonly onDidChangeReplay = this.replayMoved.event;
  private readonly restarts: number[] = [];
  /** A free port the user accepted this session instead of a pinned port that was in use. */
  private portOverride: number | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private hasCredentials = false;

  /**
   * @param moneyGuard the guard a real profile's client asks before it moves money (placement,
   *   cancel-all, withdrawal), given the profile id; the sandbox profile's client has none.
   */
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly moneyGuard?: (profileId: string) => MoneyGuard,
  ) {
    this.replay = context.globalState.get<ReplaySettings>(REPLAY_STATE_KEY);
    this.disposables.push(
      this.changed,
      this.replayMoved,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('spotdesk.profiles') || e.affectsConfiguration('spotdesk.activeProfile')) {
          this.reset();
        } else if (e.affectsConfiguration('spotdesk.paper') && this.profile().id === PAPER_PROFILE_ID) {
          // another upstream or symbol list is another market: its own process and state dir
          this.reset();
        }
      }),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith(SECRET_PREFIX)) this.reset();
      }),
    );
    void this.updateContextKeys();
  }

  /** The active profile; falls back to the sandbox when the setting names an unknown profile (or a replay without a recording). */
  profile(): Profile {
    const name = vscode.workspace.getConfiguration('spotdesk').get<string>('activeProfile');
    if (name === PAPER_PROFILE_NAME) return paperProfile();
    if (name === REPLAY_PROFILE_NAME) return this.replay ? replayProfile(this.replay) : sandboxProfile();
    if (name && name !== SANDBOX_PROFILE_NAME) {
      const p = userProfiles().find((u) => u.name === name);
      if (p) return p;
    }
    return sandboxProfile();
  }

  /** All profiles: the sandbox, paper and (once a recording was picked) replay first, then the user profiles in setting order. */
  profiles(): Profile[] {
    return [sandboxProfile(), paperProfile(), ...(this.replay ? [replayProfile(this.replay)] : []), ...userProfiles()];
  }

  /** The replay picked last (file and speed), if any. */
  replaySettings(): ReplaySettings | undefined {
    return this.replay;
  }

  /** The running replay's last reported position (undefined before its first report or on other profiles). */
  replayPosition(): ReplayPosition | undefined {
    return this.profile().id === REPLAY_PROFILE_ID ? this.replayAt : undefined;
  }

  /**
   * Switch to a fresh replay of `file` at `speed` (× the recorded pace, or `manual`): the previous replay's
   * process stops and its state is deleted, the new one starts on first need in a state dir of its own.
   */
  async startReplay(file: string, speed: number | 'manual'): Promise<void> {
    const old = this.slots.get('replay');
    this.slots.delete('replay');
    await old?.proc?.stop();
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.context.globalStorageUri, 'replays'), { recursive: true, useTrash: false }).then(
      () => undefined,
      () => undefined, // nothing there yet
    );
    this.replay = { file, speed, id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}` };
    this.replayAt = undefined;
    await this.context.globalState.update(REPLAY_STATE_KEY, this.replay);
    await this.selectProfile(REPLAY_PROFILE_NAME);
  }

  /** Make `name` the active profile (written to the user's global settings). */
  async selectProfile(name: string): Promise<void> {
    await vscode.workspace.getConfiguration('spotdesk').update('activeProfile', name, vscode.ConfigurationTarget.Global);
    this.reset();
  }

  /** Whether the active profile can make signed requests (always true for the sandbox). */
  async credentialsPresent(profile = this.profile()): Promise<boolean> {
    if (profile.sandbox) return true;
    return (await this.readCredentials(profile)) !== undefined;
  }

  /** Store credentials for a user profile in SecretStorage. */
  async storeCredentials(profile: Profile, creds: StoredCredentials): Promise<void> {
    await this.context.secrets.store(SECRET_PREFIX + profile.id, JSON.stringify(creds));
    this.reset();
  }

  /** Remove a profile's credentials from SecretStorage. */
  async clearCredentials(profile: Profile): Promise<void> {
    await this.context.secrets.delete(SECRET_PREFIX + profile.id);
    this.reset();
  }

  /** Credentials of a user profile from SecretStorage, or undefined. */
  async readCredentials(profile: Profile): Promise<StoredCredentials | undefined> {
    const raw = await this.context.secrets.get(SECRET_PREFIX + profile.id);
    if (!raw) return undefined;
    try {
      const c = JSON.parse(raw) as Partial<StoredCredentials>;
      if (c.apiKey && c.apiSecret && c.apiPassphrase && c.keyVersion) return c as StoredCredentials;
    } catch {
      /* corrupt entry: treat as missing */
    }
    return undefined;
  }

  /**
   * Client for the active profile (cached until the profile or credentials change). For the
   * sandbox profile this starts the embedded sandbox first.
   * @throws UserFacingError when a user profile has no credentials or the sandbox cannot start.
   */
  client(): Promise<SpotClient> {
    const profile = this.profile();
    return this.signing.get(profileKey(profile), () => this.createClient(profile));
  }

  /**
   * Client for the active profile's PUBLIC endpoints (GET /api/v1/markets, /api/v2/symbols,
   * /api/v1/market/allTickers, /api/v1/status, …). When the profile can sign (the sandbox, or a
   * user profile with credentials) this is {@link client} itself, so both share one rate-limit
   * budget; a user profile without credentials gets a credential-less `SpotClient` on its base
   * URL (cached until the profile or credentials change). Calling a private endpoint on that
   * client throws.
   * @throws UserFacingError when the sandbox cannot start.
   */
  async publicClient(): Promise<SpotClient> {
    const profile = this.profile();
    if (profile.sandbox || (await this.credentialsPresent(profile))) return this.client();
    return this.public.get(profileKey(profile), async () => {
      const { SpotClient: Client } = await import('../api/client');
      return new Client({ baseUrl: profile.baseUrl ?? '', onRequest: (e: RequestLogEntry) => this.logRequest(e) });
    });
  }

  /** The most recently created client, if any (for the status bar's budget tooltip; no I/O). */
  currentClient(): SpotClient | undefined {
    return this.signing.last ?? this.public.last;
  }

  /** The active embedded sandbox's address, admin token and default user's uid, starting it if an embedded profile (Sandbox, Paper, Replay) is active. */
  async sandbox(): Promise<{ baseUrl: string; adminToken: string; uid: string } | undefined> {
    const profile = this.profile();
    if (!profile.sandbox) return undefined;
    const s = await this.startSandbox(this.specOf(profile));
    return { baseUrl: s.baseUrl, adminToken: s.adminToken, uid: s.credentials.uid };
  }

  /**
   * The embedded sandbox's base URL and key (starting it if needed, whatever the active profile), for
   * "Use the Sandbox from a Bot…". Holds the secret: never log or display it.
   */
  async embeddedSandbox(): Promise<{ baseUrl: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string }> {
    const s = await this.startSandbox({ kind: 'sandbox' });
    const c = s.credentials;
    return { baseUrl: s.baseUrl, apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: c.keyVersion };
  }

  /** Whether the embedded sandbox (the simulated one) has been started in this session. */
  sandboxStarted(): boolean {
    return this.slots.has('sandbox');
  }

  /** The embedded process spec of an embedded profile (the paper settings are read now). */
  private specOf(profile: Profile): EmbeddedSpec {
    if (profile.id === PAPER_PROFILE_ID) return { kind: 'paper', paper: readPaperSettings() };
    if (profile.id === REPLAY_PROFILE_ID && this.replay) return { kind: 'replay', replay: this.replay };
    return { kind: 'sandbox' };
  }

  /** The borrowed-market mode of the active profile (undefined for the simulated sandbox and user profiles). */
  mode(): BorrowedMode | undefined {
    const p = this.profile();
    return p.sandbox ? borrowedMode(this.specOf(p)) : undefined;
  }

  private async createClient(profile: Profile): Promise<SpotClient> {
    const { SpotClient: Client } = await import('../api/client');
    const onRequest = (e: RequestLogEntry) => this.logRequest(e);
    if (profile.sandbox) {
      const s = await this.startSandbox(this.specOf(profile));
      const c = s.credentials;
      return new Client({
        baseUrl: s.baseUrl,
        credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: String(c.keyVersion) as KeyVersion },
        onRequest,
      });
    }
    const creds = await this.readCredentials(profile);
    if (!creds) {
      throw new UserFacingError(
        `Profile "${profile.name}" has no API credentials. Run "SpotDesk: Set API Credentials" to add them.`,
        COMMANDS.setCredentials,
      );
    }
    return new Client({ baseUrl: profile.baseUrl ?? '', credentials: creds, onRequest, moneyGuard: this.moneyGuard?.(profile.id) });
  }

  /** Log one request: only what the client's hook reports (never headers or KC-API-* values). */
  logRequest(e: RequestLogEntry): void {
    const { level, line } = requestLogLine(e);
    this.log[level](line);
  }

  /** The process of `spec`, started on first need (a running process of the same kind with another launch is stopped first). */
  private startSandbox(spec: EmbeddedSpec): Promise<SandboxProcess> {
    const launch = embeddedLaunch(spec);
    const key = JSON.stringify([launch.stateDir, launch.extraArgs]);
    const slot = this.slots.get(spec.kind);
    if (slot && slot.key === key) return slot.promise;
    if (slot) {
      this.slots.delete(spec.kind);
      slot.promise.then((p) => p.stop(), () => undefined);
    }
    const what = spec.kind === 'sandbox' ? 'the local sandbox exchange' : spec.kind === 'paper' ? 'the paper-trading sandbox (KuCoin prices)' : 'the replay sandbox';
    const p: Promise<SandboxProcess> = Promise.resolve(vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `SpotDesk: starting ${what}…` },
      () => this.launchSandbox(spec),
    ));
    const entry: EmbeddedSlot = { key, promise: p };
    this.slots.set(spec.kind, entry);
    p.then(
      (proc) => {
        entry.proc = proc;
        // switched away (or relaunched) while it started: a paper or replay process only runs for its profile
        if (this.slots.get(spec.kind) !== entry) void proc.stop();
      },
      (err: unknown) => {
        if (this.slots.get(spec.kind) === entry) this.slots.delete(spec.kind);
        this.log.error(`${what} failed to start: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    return p.then(
      (s) => s,
      (err: unknown) => {
        throw new UserFacingError(
          `${what[0].toUpperCase()}${what.slice(1)} could not start: ${err instanceof Error ? err.message : String(err)}. ` +
            'See the "SpotDesk" output channel, then run "SpotDesk: Refresh" to try again.',
        );
      },
    );
  }

  /** Fork the sandbox process of `spec` (state in global storage), handling a pinned port in use and a state dir in use. */
  private async launchSandbox(spec: EmbeddedSpec): Promise<SandboxProcess> {
    const t0 = Date.now();
    const launch = embeddedLaunch(spec);
    const entry = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'sandbox-cli.js').fsPath;
    const stateDir = vscode.Uri.joinPath(this.context.globalStorageUri, ...launch.stateDir).fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(stateDir));
    const log = (msg: string) => this.log.debug(`[${spec.kind}] ${redact(msg)}`);
    // the pinned port is the simulated sandbox's (bots configured for it); paper and replay take a free one
    const pinned = spec.kind === 'sandbox' ? vscode.workspace.getConfiguration('spotdesk').get<number>('sandbox.port', 0) : 0;
    let port = spec.kind === 'sandbox' ? (this.portOverride ?? (Number.isInteger(pinned) && pinned > 0 && pinned < 65536 ? pinned : 0)) : 0;
    const marketSetting = vscode.workspace.getConfiguration('spotdesk').get<string>('sandbox.market', 'realistic');
    const market = !launch.simulated ? undefined : marketSetting === 'quiet' || marketSetting === 'volatile' ? marketSetting : 'realistic';
    if (spec.kind === 'paper') for (const w of readPaperSettings().problems) this.log.warn(w);
    this.log.info(`starting the embedded sandbox: ${launch.describe}`);
    const start = (dir: string | null) => startSandboxProcess({ entry, stateDir: dir, port, log, market, extraArgs: launch.extraArgs });
    let s: SandboxProcess;
    try {
      s = await start(stateDir);
    } catch (err) {
      if (err instanceof SandboxStartError && err.code === 'EADDRINUSE' && port !== 0) {
        const choice = await vscode.window.showWarningMessage(
          `SpotDesk: port ${port} (setting spotdesk.sandbox.port) is in use by another program, so the sandbox cannot listen there. ` +
            'Start it on a free port for this session? Bots configured for that port will not reach it.',
          { modal: true },
          'Use a Free Port',
        );
        if (choice !== 'Use a Free Port') throw new Error(`port ${port} is in use; change spotdesk.sandbox.port or free the port`);
        this.portOverride = port = 0;
        s = await start(stateDir);
      } else if (err instanceof SandboxStartError && err.code === 'STATE_DIR_IN_USE') {
        // Typically another VS Code window's sandbox holds the state directory (the error names it).
        this.log.warn(`sandbox state in ${stateDir} unavailable (${err.message}); starting an in-memory sandbox instead`);
        void vscode.window.showWarningMessage(
          `SpotDesk: another VS Code window${err.holder?.baseUrl ? ` (sandbox at ${err.holder.baseUrl})` : ''} is using the sandbox's saved state. ` +
            'This window runs a fresh in-memory sandbox; its orders and balances are not kept.',
        );
        s = await start(null);
      } else {
        throw err;
      }
    }
    this.log.info(`${spec.kind} sandbox process ${s.pid} listening on ${s.baseUrl} (state in ${s.stateDir ?? 'memory'}, started in ${Date.now() - t0} ms)`);
    for (const w of s.warnings) this.log.warn(`[${spec.kind}] ${redact(w)}`);
    if (spec.kind === 'replay') {
      s.onReplay((position) => {
        this.replayAt = position;
        this.replayMoved.fire(position);
      });
    }
    s.onUnexpectedExit((code, signal) => this.sandboxDied(spec.kind, s, code, signal));
    return s;
  }

  /** A sandbox process died on its own: restart it with a notice (unless it keeps dying). */
  private sandboxDied(kind: EmbeddedSpec['kind'], s: SandboxProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.slots.get(kind)?.proc !== s) return;
    this.slots.delete(kind);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    this.log.error(`sandbox process ${s.pid} stopped unexpectedly (${how})`);
    const now = Date.now();
    while (this.restarts.length && now - this.restarts[0] > RESTART_WINDOW_MS) this.restarts.shift();
    if (this.restarts.length >= MAX_RESTARTS) {
      void vscode.window
        .showErrorMessage(
          `SpotDesk: the local sandbox exchange stopped unexpectedly (${how}) ${MAX_RESTARTS + 1} times within a minute, so it is not restarted automatically. See the "SpotDesk" output channel.`,
          'Restart Sandbox',
          'Show Log',
        )
        .then((c) => {
          if (c === 'Show Log') this.log.show();
          if (c !== 'Restart Sandbox') return;
          this.restarts.length = 0;
          this.reset(); // views refresh and start a new sandbox process
        });
      this.reset();
      return;
    }
    this.restarts.push(now);
    void vscode.window.showWarningMessage(`SpotDesk: the local sandbox exchange stopped unexpectedly (${how}). Restarting it…`);
    // clients of the dead process are dropped; views refresh and start the new one
    const active = this.profile();
    if (active.sandbox && this.specOf(active).kind === kind) void this.startSandbox(this.specOf(active)).catch(() => undefined);
    this.reset();
  }

  private reset(): void {
    // a paper or replay process runs only while its profile is active (the simulated sandbox stays: bots use it)
    const active = this.profile();
    const activeKind = active.sandbox ? this.specOf(active).kind : undefined;
    for (const kind of ['paper', 'replay'] as const) {
      const slot = this.slots.get(kind);
      if (!slot || kind === activeKind) continue;
      this.slots.delete(kind);
      slot.promise.then((p) => p.stop(), () => undefined);
      if (kind === 'replay') this.replayAt = undefined;
    }
    for (const old of [this.signing.reset(), this.public.reset()]) {
      if (!old) continue;
      // Release its keep-alive sockets once requests still in flight have had time to finish.
      const t = setTimeout(() => old.close(), 30_000);
      t.unref?.();
    }
    void this.updateContextKeys();
    this.changed.fire();
  }

  private async updateContextKeys(): Promise<void> {
    const profile = this.profile();
    this.hasCredentials = await this.credentialsPresent(profile);
    await vscode.commands.executeCommand('setContext', 'spotdesk.needsCredentials', !this.hasCredentials);
    await vscode.commands.executeCommand('setContext', 'spotdesk.sandboxProfile', profile.sandbox);
  }

  /** Stop the embedded sandbox (if started) and release listeners. */
  dispose(): void {
    this.signing.reset()?.close();
    this.public.reset()?.close();
    for (const slot of this.slots.values()) slot.promise.then((p) => p.stop(), () => undefined);
    this.slots.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Cache key of a profile's client: its id and base URL. */
function profileKey(profile: Profile): string {
  return `${profile.id} ${profile.baseUrl ?? ''}`;
}

/**
 * One cached client: created on first need for a key, kept until the key changes or
 * {@link reset}; a creation that fails is forgotten so the next call tries again.
 */
class ClientSlot {
  private promise: Promise<SpotClient> | undefined;
  private key: string | undefined;
  /** The client the last successful creation produced (no I/O). */
  last: SpotClient | undefined;

  /** The client for `key`, created with `create` when there is none for it. */
  get(key: string, create: () => Promise<SpotClient>): Promise<SpotClient> {
    if (!this.promise || this.key !== key) {
      this.key = key;
      const p = create();
      this.promise = p;
      p.then(
        (c) => {
          if (this.promise === p) this.last = c;
        },
        () => {
          if (this.promise === p) this.promise = undefined;
        },
      );
    }
    return this.promise;
  }

  /** Forget the client; returns the one that was created, if any (the caller closes it). */
  reset(): SpotClient | undefined {
    const old = this.last;
    this.promise = this.key = this.last = undefined;
    return old;
  }
}

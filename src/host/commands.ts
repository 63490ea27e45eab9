/**
 * SpotDesk's core commands: profiles, credentials, refresh/retry, and the context actions of the
 * Accounts, Active Orders and Markets views. Feature commands (order book, funding, request
 * builder) are registered by their own modules.
 *
 * The commands that move money or cancel orders (Transfer…, Cancel Order — of an HF, stop or OCO order —,
 * Cancel All; Edit Order… and Cancel All Orders (Every Symbol)… are in ./orderCommands.ts) keep only
 * the identity of the tree row they were run on (./commandArgs.ts) and re-read what they show and
 * check from the exchange: a row object forged by another extension cannot change what the
 * person is asked, and nothing is sent without the person's answer.
 */
import * as vscode from 'vscode';
import { randomUUID } from 'crypto';
import type { Connection, Profile } from './connection';
import { readPaperSettings, SANDBOX_PROFILE_NAME } from './connection';
import type { Prompts } from './prompts';
import type { AccountsTree } from '../features/accounts/host/accounts';
import type { OrdersTree, OrderNode } from '../features/orders/host/orders';
import { accountArg, advancedOrderArg, orderArg, symbolArg, watchlistArg } from './commandArgs';
import { cancelAdvancedOrder, registerOrderCommands } from '../features/orders/host/orderCommands';
import type { MarketsTree } from '../features/markets/host/markets';
import { maxTransferable, validateAmount } from '../api/displayFormat';
import type { Services } from './services';
import { COMMANDS } from './commandIds';
import { guardedRegistrar } from './guardedCommand';
import { fundsKind, fundsPhrase } from '../api/moneyWords';
import { modeLabel } from '../api/borrowedMarket';
import { baseUrlError, freeProfileName, KUCOIN_BASE_URL, normalizeBaseUrl, profileNameError } from './profileInput';

/** Everything the commands act on. */
export interface CommandDeps {
  connection: Connection;
  services: Services;
  trees: { accounts: AccountsTree; orders: OrdersTree; markets: MarketsTree };
  refreshAll(): Promise<void>;
}

/** Register the core commands; returns their disposables. */
export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { connection, trees, services } = d;
  const prompts = services.prompts;
  const reg = guardedRegistrar(services.log);

  return [
    // sandbox profile only; the implementation loads on first use (./resetSandbox.ts)
    reg(COMMANDS.resetSandbox, async () => {
      const { runResetSandbox } = await import('./resetSandbox');
      return runResetSandbox(services, () => d.refreshAll());
    }),
    // a replay profile from a recording; the implementation loads on first use (./replayCommand.ts)
    reg(COMMANDS.replayRecording, async () => {
      const { runReplayRecording } = await import('./replayCommand');
      await runReplayRecording(connection, prompts);
    }),
    ...registerOrderCommands(services, trees),
    reg(COMMANDS.selectProfile, async () => {
      const active = connection.profile();
      type Item = vscode.QuickPickItem & { profile?: Profile; edit?: boolean };
      const items: Item[] = connection.profiles().map((p) => ({
        label: `${p.id === active.id ? '$(check) ' : ''}${p.name}`,
        description: profileDescription(p),
        profile: p,
      }));
      items.push({ label: '$(gear) Add or edit profiles…', description: 'setting spotdesk.profiles', edit: true });
      const choice = await prompts.pick(items, { title: 'SpotDesk: Select Profile', placeHolder: `Active: ${active.name}` });
      if (!choice) return;
      if (choice.edit) {
        await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'spotdesk.profiles', edit: true } });
        return;
      }
      await connection.selectProfile(choice.profile!.name);
      if (!choice.profile!.sandbox && !(await connection.credentialsPresent(choice.profile!))) {
        // Not awaited: a notification stays open until dismissed.
        void vscode.window
          .showInformationMessage(`Profile "${choice.profile!.name}" has no API credentials yet.`, 'Set API Credentials')
          .then((set) => set && vscode.commands.executeCommand(COMMANDS.setCredentials));
      }
    }),

    // Connect a real exchange in one flow (the walkthrough's last step): a profile (name, base URL)
    // in the user's settings, its key into SecretStorage through Set API Credentials, then — only if
    // the person says so — the switch to it. Takes no arguments: everything comes from the person.
    reg(COMMANDS.connectExchange, async () => {
      const title = 'SpotDesk: Connect a KuCoin Account';
      const taken = connection.profiles().map((p) => p.name);
      const name = await prompts.input({
        title: `${title} (1/2)`,
        prompt: 'A name for the profile (shown in SpotDesk; the key itself goes into secret storage next)',
        value: freeProfileName('KuCoin', taken),
        validateInput: (v) => profileNameError(v, taken),
      });
      if (name === undefined || profileNameError(name, taken)) return;
      const url = await prompts.input({ title: `${title} (2/2)`, prompt: `REST base URL of the exchange (KuCoin: ${KUCOIN_BASE_URL})`, value: KUCOIN_BASE_URL, validateInput: baseUrlError });
      if (url === undefined) return;
      const urlError = baseUrlError(url);
      if (urlError) throw new Error(urlError);
      const profile: Profile = { id: `user:${name.trim()}`, name: name.trim(), baseUrl: normalizeBaseUrl(url), sandbox: false };
      const cfg = vscode.workspace.getConfiguration('spotdesk');
      const list = cfg.get<Array<{ name: string; baseUrl: string }>>('profiles') ?? [];
      await cfg.update('profiles', [...list, { name: profile.name, baseUrl: profile.baseUrl }], vscode.ConfigurationTarget.Global);
      services.log.info(`profile "${profile.name}" added (${profile.baseUrl})`);
      await vscode.commands.executeCommand(COMMANDS.setCredentials, profile.name);
      if (!(await connection.credentialsPresent(profile))) {
        void vscode.window.showInformationMessage(`SpotDesk: profile "${profile.name}" was added without an API key. Run "SpotDesk: Set API Credentials" when you have one.`);
        return;
      }
      const go = await prompts.confirm(
        `Switch SpotDesk to "${profile.name}" now?`,
        `SpotDesk then shows this account at ${profile.baseUrl} and places orders there (${fundsKind(profile) === 'local' ? 'a local server on this machine: real funds only if it is connected to a real exchange' : 'REAL funds'}), always after asking you. "SpotDesk: Select Profile" switches back to "${SANDBOX_PROFILE_NAME}".`,
        `Switch to "${profile.name}"`,
        'Stay on the current profile',
      );
      if (go) await connection.selectProfile(profile.name);
    }),

    reg(COMMANDS.setCredentials, async (profileName?: string) => {
      const profile = await pickUserProfile(connection, prompts, profileName, 'Set API Credentials for which profile?');
      if (!profile) return;
      const title = `SpotDesk: API credentials for "${profile.name}"`;
      const apiKey = await prompts.input({ title, prompt: 'API key (KC-API-KEY)', password: true, validateInput: nonEmpty });
      if (!apiKey) return;
      const apiSecret = await prompts.input({ title, prompt: 'API secret', password: true, validateInput: nonEmpty });
      if (!apiSecret) return;
      const apiPassphrase = await prompts.input({ title, prompt: 'API passphrase (as entered when the key was created)', password: true, validateInput: nonEmpty });
      if (!apiPassphrase) return;
      const version = await prompts.pick(
        [
          { label: '3', description: 'key version 3 (current KuCoin keys)' },
          { label: '2', description: 'key version 2' },
        ],
        { title, placeHolder: 'API key version (KC-API-KEY-VERSION)' },
      );
      if (!version) return;
      await connection.storeCredentials(profile, { apiKey: apiKey.trim(), apiSecret: apiSecret.trim(), apiPassphrase, keyVersion: version.label as '2' | '3' });
      services.log.info(`credentials stored in SecretStorage for profile "${profile.name}"`);
      void vscode.window.showInformationMessage(`SpotDesk: credentials for "${profile.name}" saved in VS Code's secret storage.`);
    }),

    // A profile name may come from any caller (another extension's executeCommand): the person
    // always confirms, in a modal that names the profile, before the key leaves secret storage.
    reg(COMMANDS.clearCredentials, async (profileName?: string) => {
      const profile = await pickUserProfile(connection, prompts, profileName, 'Clear API Credentials of which profile?');
      if (!profile) return;
      if (!(await connection.credentialsPresent(profile))) {
        void vscode.window.showInformationMessage(`SpotDesk: profile "${profile.name}" has no stored API key.`);
        return;
      }
      const ok = await prompts.confirm(
        `Remove the API key of profile "${profile.name}"?`,
        `SpotDesk deletes the key, secret and passphrase of "${profile.name}" (${profile.baseUrl ?? ''}) from VS Code's secret storage. To use the profile again you enter them anew.`,
        'Remove Key',
        'Keep Key',
      );
      if (!ok) return;
      await connection.clearCredentials(profile);
      services.log.info(`credentials cleared for profile "${profile.name}"`);
      void vscode.window.showInformationMessage(`SpotDesk: credentials for "${profile.name}" removed.`);
    }),

    reg(COMMANDS.refresh, () => d.refreshAll()),
    reg(COMMANDS.accountsRefresh, () => trees.accounts.refresh()),
    reg(COMMANDS.ordersRefresh, () => trees.orders.refresh()),
    reg(COMMANDS.marketsRefresh, () => trees.markets.refresh()),
    reg(COMMANDS.retry, (viewId?: string) => {
      const t = Object.values(trees).find((x) => x.viewId === viewId);
      return t ? t.refresh() : d.refreshAll();
    }),
    reg(COMMANDS.showLog, () => services.log.show()),

    reg(COMMANDS.accountsHideZero, () => setHideZero(true)),
    reg(COMMANDS.accountsShowZero, () => setHideZero(false)),
    reg(COMMANDS.marketsShowCategories, () => setMarketsGrouped(true)),
    reg(COMMANDS.marketsShowFlat, () => setMarketsGrouped(false)),

    reg(COMMANDS.transfer, async (row?: unknown) => {
      const target = accountArg(row);
      if (!target) throw new Error('Run "Transfer…" from an account row of the Accounts view.');
      const { currency, type: from } = target;
      const to = from === 'main' ? 'trade' : 'main';
      const client = await connection.client();
      // The balance comes from the exchange, not from the row object (GET /api/v1/accounts).
      const account = (await client.getAccounts({ currency, type: from })).find((x) => x.currency === currency && x.type === from);
      if (!account) throw new Error(`There is no ${from} account for ${currency}.`);
      const available = account.available;
      // The currency's precision bounds the amount (GET /api/v3/currencies/{currency}); if it cannot
      // be read, the exchange still validates it.
      const precision = await client.getCurrency(currency).then((c) => c.precision, () => undefined);
      const max = precision === undefined ? available : maxTransferable(available, precision);
      const amount = await prompts.input({
        title: `Transfer ${currency}: ${from} → ${to}`,
        prompt: `Amount of ${currency} to move (available ${available}${max !== available ? `, at most ${max} at ${precision} decimals` : ''}; transfers carry no fee)`,
        placeHolder: max,
        validateInput: (v) => validateAmount(v, available, currency, precision),
      });
      if (amount === undefined) return;
      const err = validateAmount(amount, available, currency, precision);
      if (err) throw new Error(err);
      await client.innerTransfer({ clientOid: randomUUID(), currency, from, to, amount: amount.trim() });
      services.log.info(`transferred ${amount.trim()} ${currency} ${from} → ${to}`);
      void vscode.window.setStatusBarMessage(`SpotDesk: moved ${amount.trim()} ${currency} from ${from} to ${to}`, 5000);
      await trees.accounts.refresh();
      return amount.trim();
    }),

    reg(COMMANDS.cancelOrder, async (row?: unknown) => {
      // A keyboard shortcut passes no row: the order selected in Active Orders (still confirmed).
      const selected = orderArg(row) || advancedOrderArg(row) ? row : trees.orders.view?.selection[0];
      const advanced = advancedOrderArg(selected);
      if (advanced) return cancelAdvancedOrder(services, trees, advanced);
      const target = orderArg(selected);
      if (!target) throw new Error('Run "Cancel Order" on an order of the Active Orders view.');
      const client = await connection.client();
      // What the person confirms is the order as the exchange has it (GET /api/v1/hf/orders/{orderId}).
      const o = await client.getOrder(target.symbol, target.orderId);
      if (!o.active) {
        void vscode.window.showInformationMessage(`SpotDesk: order ${o.id} on ${o.symbol} is no longer active.`);
        await trees.orders.refresh();
        return false;
      }
      // The setting may skip this one question (never placement on a real profile, never withdrawals).
      const ask = vscode.workspace.getConfiguration('spotdesk').get<boolean>('confirm.cancelOrder', true) !== false;
      const ok =
        !ask ||
        (await prompts.confirm(
          `Cancel ${o.side} ${o.type} order on ${o.symbol}?`,
          `${o.size} @ ${o.price}, filled ${o.dealSize}. Order id ${o.id}.`,
          'Cancel Order',
          'Keep Order',
        ));
      if (!ok) return false;
      if (!ask) services.log.info(`cancelling order ${o.id} without asking (setting spotdesk.confirm.cancelOrder is off)`);
      await client.cancelOrder(o.symbol, o.id);
      services.log.info(`cancelled order ${o.id} on ${o.symbol}`);
      await Promise.all([trees.orders.refresh(), trees.accounts.refresh()]);
      return true;
    }),

    reg(COMMANDS.cancelAllForSymbol, async (row?: unknown) => {
      const target = symbolArg(row);
      if (!target) throw new Error('Run "Cancel All" on a symbol of the Active Orders view.');
      const { symbol } = target;
      const client = await connection.client();
      // The count shown is the exchange's (GET /api/v1/hf/orders/active), not the row's.
      const n = (await client.getActiveOrders(symbol)).length;
      if (n === 0) {
        void vscode.window.showInformationMessage(`SpotDesk: ${symbol} has no active orders.`);
        await trees.orders.refresh();
        return false;
      }
      const profile = connection.profile();
      const where = fundsPhrase(profile);
      const confirmation = await services.gate.confirm(
        'cancelAll',
        `Cancel all ${n} active order${n === 1 ? '' : 's'} on ${symbol}?`,
        `Every active HF order of this symbol on ${where} is cancelled, including orders placed outside SpotDesk.`,
        'Cancel All Orders',
        { cancel: 'Keep Orders' },
      );
      if (!confirmation) return false;
      await services.gate.run(confirmation, () => client.cancelAllOrders(symbol));
      services.log.info(`cancelled all orders on ${symbol}`);
      await Promise.all([trees.orders.refresh(), trees.accounts.refresh()]);
      return true;
    }),

    reg(COMMANDS.showFills, async (node?: OrderNode) => {
      if (!node || node.kind !== 'order') throw new Error('Run "Show Fills" on an order of the Active Orders view.');
      const client = await connection.client();
      const page = await client.getFills({ symbol: node.symbol, orderId: node.order.id });
      if (!page.items.length) {
        void vscode.window.showInformationMessage(`SpotDesk: order ${node.order.id} has no fills yet.`);
        return page.items;
      }
      await prompts.pick(
        page.items.map((f) => ({
          label: `${f.side.toUpperCase()} ${f.size} @ ${f.price}`,
          description: `${f.liquidity} · fee ${f.fee} ${f.feeCurrency}`,
          detail: `${new Date(f.createdAt).toISOString()} · funds ${f.funds} · trade ${f.tradeId}`,
        })),
        { title: `Fills of order ${node.order.id} (${node.symbol})`, matchOnDescription: true, matchOnDetail: true },
      );
      return page.items;
    }),

    reg(COMMANDS.copyOrderId, async (node?: OrderNode) => {
      if (!node || node.kind !== 'order') throw new Error('Run "Copy Order Id" on an order of the Active Orders view.');
      await vscode.env.clipboard.writeText(node.order.id);
      void vscode.window.setStatusBarMessage(`SpotDesk: copied order id ${node.order.id}`, 3000);
      return node.order.id;
    }),

    reg(COMMANDS.copyOrderJson, async (row?: unknown) => {
      const target = orderArg(row);
      if (!target) throw new Error('Run "Copy Order JSON" on an order of the Active Orders view.');
      // Every field as the exchange has it now (GET /api/v1/hf/orders/{orderId}), not the row's copy.
      const client = await connection.client();
      const text = JSON.stringify(await client.getOrder(target.symbol, target.orderId), null, 2);
      await vscode.env.clipboard.writeText(text);
      void vscode.window.setStatusBarMessage(`SpotDesk: copied the JSON of order ${target.orderId}`, 3000);
      return text;
    }),

    // Only a symbol the active exchange lists is written into the (global) watchlist setting.
    reg(COMMANDS.addToWatchlist, async (arg?: unknown) => {
      const raw = watchlistArg(arg)?.symbol;
      if (!raw) throw new Error('Run "Add to Watchlist" on a symbol of the Markets view.');
      const symbol = (await services.symbols()).find((s) => s.symbol === raw.toUpperCase())?.symbol;
      if (!symbol) throw new Error(`"${raw}" is not a symbol listed by the exchange of profile "${connection.profile().name}"; nothing was added to the watchlist.`);
      const cfg = vscode.workspace.getConfiguration('spotdesk');
      const list = cfg.get<string[]>('watchlist') ?? [];
      if (!list.includes(symbol)) await cfg.update('watchlist', [...list, symbol], vscode.ConfigurationTarget.Global);
      void vscode.window.setStatusBarMessage(`SpotDesk: ${symbol} added to the watchlist`, 3000);
      void trees.orders.refresh();
      return symbol;
    }),
  ];
}

function nonEmpty(v: string): string | undefined {
  return v.trim() ? undefined : 'Required.';
}

async function setHideZero(hide: boolean): Promise<void> {
  await vscode.workspace.getConfiguration('spotdesk').update('accounts.hideZeroBalances', hide, vscode.ConfigurationTarget.Global);
}

/** Group the Markets view by KuCoin's categories (true) or list its symbols flat by volume (false). */
async function setMarketsGrouped(grouped: boolean): Promise<void> {
  await vscode.workspace.getConfiguration('spotdesk').update('markets.groupByCategory', grouped, vscode.ConfigurationTarget.Global);
}

/** The user profile to act on: the named one, the active one, or one the user picks. */
async function pickUserProfile(connection: Connection, prompts: Prompts, name: string | undefined, placeHolder: string): Promise<Profile | undefined> {
  const users = connection.profiles().filter((p) => !p.sandbox);
  if (typeof name === 'string') {
    const p = users.find((u) => u.name === name);
    if (!p) throw new Error(`There is no profile named "${name}" in the spotdesk.profiles setting.`);
    return p;
  }
  const active = connection.profile();
  if (!active.sandbox) return active;
  if (!users.length) {
    void vscode.window
      .showInformationMessage(
        `The "${SANDBOX_PROFILE_NAME}" profile provisions its own credentials. To use a real exchange, add a profile ({"name", "baseUrl"}) to the spotdesk.profiles setting first.`,
        'Open Settings',
      )
      .then((open) => open && vscode.commands.executeCommand('workbench.action.openSettings', 'spotdesk.profiles'));
    return undefined;
  }
  const choice = await prompts.pick(
    users.map((p) => ({ label: p.name, description: p.baseUrl, p })),
    { placeHolder },
  );
  return choice?.p;
}

/** What a profile is, for the profile picker: the embedded sandbox, its paper or replay mode, or the base URL. */
function profileDescription(p: Profile): string | undefined {
  if (p.mode?.kind === 'paper') return `embedded sandbox, play money on the live market of ${readPaperSettings().upstreamUrl}`;
  if (p.mode?.kind === 'replay') return `embedded sandbox replaying a recording (${modeLabel(p.mode)})`;
  return p.sandbox ? 'embedded sandbox on 127.0.0.1' : p.baseUrl;
}

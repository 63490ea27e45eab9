/**
 * Every SpotDesk command id, in one place: each `registerCommand`, `executeCommand` and tree-item /
 * status-bar command of a `spotdesk.*` id reads it from here. The ids of {@link COMMANDS} are
 * contributed in package.json (`contributes.commands`), those of {@link INTERNAL_COMMANDS} are
 * registered but deliberately not contributed (the test door, code-lens commands).
 * test/unit/extension/commandIds.test.ts checks both lists against package.json and that no
 * source file spells a command id itself. No imports: importing this module costs nothing.
 */

/** Commands contributed in package.json (palette, menus, keybindings). */
export const COMMANDS = {
  openRequestBuilder: 'spotdesk.openRequestBuilder',
  requestBuilderRunTest: 'spotdesk.requestBuilder.runTest',
  requestBuilderPlace: 'spotdesk.requestBuilder.place',
  selectProfile: 'spotdesk.selectProfile',
  setCredentials: 'spotdesk.setCredentials',
  connectExchange: 'spotdesk.connectExchange',
  clearCredentials: 'spotdesk.clearCredentials',
  refresh: 'spotdesk.refresh',
  showLog: 'spotdesk.showLog',
  accountsRefresh: 'spotdesk.accounts.refresh',
  ordersRefresh: 'spotdesk.orders.refresh',
  marketsRefresh: 'spotdesk.markets.refresh',
  marketsShowCategories: 'spotdesk.markets.showCategories',
  marketsShowFlat: 'spotdesk.markets.showFlat',
  retry: 'spotdesk.retry',
  accountsHideZero: 'spotdesk.accounts.hideZero',
  accountsShowZero: 'spotdesk.accounts.showZero',
  transfer: 'spotdesk.transfer',
  createDepositAddress: 'spotdesk.createDepositAddress',
  withdraw: 'spotdesk.withdraw',
  cancelOrder: 'spotdesk.cancelOrder',
  cancelAllForSymbol: 'spotdesk.cancelAllForSymbol',
  cancelAllOrders: 'spotdesk.cancelAllOrders',
  editOrder: 'spotdesk.editOrder',
  showFills: 'spotdesk.showFills',
  copyOrderId: 'spotdesk.copyOrderId',
  copyOrderJson: 'spotdesk.copyOrderJson',
  openOrderBook: 'spotdesk.openOrderBook',
  openMarket: 'spotdesk.openMarket',
  marketFocusTicket: 'spotdesk.market.focusTicket',
  marketBuy: 'spotdesk.market.buy',
  marketSell: 'spotdesk.market.sell',
  addPriceAlert: 'spotdesk.addPriceAlert',
  editPriceAlert: 'spotdesk.editPriceAlert',
  deletePriceAlert: 'spotdesk.deletePriceAlert',
  addToWatchlist: 'spotdesk.addToWatchlist',
  useSandboxFromBot: 'spotdesk.useSandboxFromBot',
  simulateDeposit: 'spotdesk.simulateDeposit',
  resetSandbox: 'spotdesk.resetSandbox',
  replayRecording: 'spotdesk.replayRecording',
  orderHistoryRefresh: 'spotdesk.orderHistory.refresh',
  fillsRefresh: 'spotdesk.fills.refresh',
  fundingHistoryRefresh: 'spotdesk.fundingHistory.refresh',
  orderHistoryLoadMore: 'spotdesk.orderHistory.loadMore',
  fundingHistoryLoadMore: 'spotdesk.fundingHistory.loadMore',
  orderHistoryExportCsv: 'spotdesk.orderHistory.exportCsv',
  fillsExportCsv: 'spotdesk.fills.exportCsv',
  cancelWithdrawal: 'spotdesk.cancelWithdrawal',
} as const;

/** Commands registered by SpotDesk but not contributed (not in the palette or any menu). */
export const INTERNAL_COMMANDS = {
  /** The test door, registered only outside Production (./testHooks.ts). */
  testHooks: 'spotdesk.testHooks',
  /** "Test order" lens of an order document: args (uri: string, orderIndex: number). */
  orderDocumentTestOrder: 'spotdesk.orderDocument.testOrder',
  /** "Show signature" lens of an order document: args (uri: string, orderIndex: number). */
  orderDocumentShowSignature: 'spotdesk.orderDocument.showSignature',
  /** "Place order…" lens of an order document: args (uri: string, orderIndex: number); always confirmed by the person. */
  orderDocumentPlaceOrder: 'spotdesk.orderDocument.placeOrder',
  /**
   * Open the request builder pre-filled from a market panel's price level: args (symbol, side, price),
   * validated; nothing is sent (placing from the builder stays behind its confirmation).
   */
  requestBuilderPrefill: 'spotdesk.requestBuilder.prefill',
} as const;

/** A contributed command id. */
export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

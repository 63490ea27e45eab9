/**
 * The tree row of one history record (a fill of the Fills view, a done order of Order History): the
 * text of src/features/history/model/historyRows.ts, an arrow in the buy or sell colour, and the context
 * value that selects its menu actions.
 */
import * as vscode from 'vscode';

/**
 * A leaf row: `row`'s label and description, its tooltip lines joined, an up (buy) or down (sell)
 * arrow in `spotdesk.buyForeground` / `spotdesk.sellForeground`, TreeItem id `id`.
 */
export function historyItem(row: { label: string; description: string; tooltip: readonly string[] }, id: string, side: 'buy' | 'sell', contextValue: string): vscode.TreeItem {
  const it = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
  it.id = id;
  it.description = row.description;
  it.tooltip = row.tooltip.join('\n');
  it.iconPath = new vscode.ThemeIcon(side === 'buy' ? 'arrow-up' : 'arrow-down', new vscode.ThemeColor(side === 'buy' ? 'spotdesk.buyForeground' : 'spotdesk.sellForeground'));
  it.contextValue = contextValue;
  return it;
}

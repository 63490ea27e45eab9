/**
 * Pure parts of the history views: CSV writing (src/features/history/model/csv.ts: RFC 4180 quoting, formula guard
 * that leaves decimals alone, a round trip through a reference parser) and the rows and exports of
 * src/features/history/model/historyRows.ts on the published KuCoin payloads (beyond-spec fixtures).
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as S from '../../../src/api/schemas';
import { parseJson } from '../../../src/api/json';
import { csvField, isoTime, toCsv } from '../../../src/features/history/model/csv';
import { depositRow, doneOrderOutcome, fillRow, fillsCsv, orderRow, ordersCsv, pnlSummary, symbolPnl, withdrawalRow } from '../../../src/features/history/model/historyRows';
import { readFixture } from '../../fixtures';

const data = (file: string) => (parseJson(readFixture(file)) as { data: unknown }).data;

/** RFC 4180 reader (the reference the writer must round-trip through). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('CSV export (src/features/history/model/csv.ts)', () => {
  it('quotes commas, quotes and line breaks; CRLF row ends', () => {
    assert.equal(toCsv(['a', 'b'], [['x,y', 'say "hi"'], ['line\nbreak', null]]), 'a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",\r\n');
  });
  it('guards text that a spreadsheet would run as a formula, not decimals', () => {
    assert.equal(csvField('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvField('+1 555'), "'+1 555");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('-12.5'), '-12.5');
    assert.equal(csvField('-0.00000001'), '-0.00000001');
    assert.equal(csvField('-x'), "'-x");
  });
  it('round trip: any text cells come back (formula-looking text with its guard), decimals unchanged (property)', () => {
    const cell = fc.oneof(fc.string(), fc.constantFrom('-1.5', '0', '=1+1', 'a,b', '"q"', '\r\n'));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 10 }), (rows) => {
        const back = readCsv(toCsv(['c1', 'c2'], rows));
        assert.deepEqual(back[0], ['c1', 'c2']);
        assert.deepEqual(
          back.slice(1),
          rows.map((r) => r.map((v) => (/^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v))),
        );
      }),
    );
  });
  it('isoTime: ms → ISO 8601 UTC with milliseconds', () => {
    assert.equal(isoTime(1729577515444), '2024-10-22T06:11:55.444Z');
    assert.equal(isoTime(undefined), '');
  });
});

describe('history rows and exports (published payloads)', () => {
  const done = S.DoneOrdersPage.parse(data('beyond-spec/GET_api_v1_hf_orders_done.json'));
  const fills = S.FillsPage.parse(data('GET_api_v1_hf_fills.json')).items;
  const deposits = S.DepositPage.parse(data('beyond-spec/GET_api_v1_deposits.json')).items;
  const withdrawals = S.WithdrawalPage.parse(data('beyond-spec/GET_api_v1_withdrawals.json')).items;

  it('done order row and outcome', () => {
    const o = done.items[0];
    const r = orderRow(o);
    assert.equal(r.label, 'BUY limit');
    assert.equal(r.description, '0.00001 @ 70000 · filled 0.00001 · filled · 2024-10-22T06:11:55.481Z');
    assert.ok(r.tooltip.includes('filled 0.00001 for 0.677176 · fee 0.000677176 USDT'));
    assert.equal(doneOrderOutcome({ ...o, dealSize: '0', dealFunds: '0', cancelExist: true, cancelledSize: '0.00001' }), 'cancelled');
    assert.equal(doneOrderOutcome({ ...o, cancelExist: true, cancelledSize: '0.000005' }), 'partially filled, cancelled');
  });

  it('order CSV: one row per order, exact decimals, ISO times', () => {
    const rows = readCsv(ordersCsv(done.items));
    assert.equal(rows.length, 2);
    const row = Object.fromEntries(rows[0].map((h, i) => [h, rows[1][i]]));
    assert.deepEqual(
      [row.symbol, row.orderId, row.price, row.size, row.dealFunds, row.fee, row.outcome, row.createdAt, row.remark],
      ['BTC-USDT', '6717422bd51c29000775ea03', '70000', '0.00001', '0.677176', '0.000677176', 'filled', '2024-10-22T06:11:55.444Z', 'order remarks'],
    );
  });

  it('fill row, P&L summary and the fills CSV with the P&L each sell realised', () => {
    const f = fills[0];
    const r = fillRow(f);
    assert.equal(r.label, 'BUY 0.00001 @ 67717.6');
    assert.equal(r.description, 'taker · fee 0.000677176 USDT · 2024-10-22T06:11:55.473Z');
    // a sell of the bought size at a higher price, later: P&L = 0.7 − 0.0007 − (0.677176 + 0.000677176)
    const sell = { ...f, id: '19814995255306', tradeId: '11029373945659393', side: 'sell' as const, price: '70000', funds: '0.7', fee: '0.0007', createdAt: f.createdAt + 1000 };
    const p = symbolPnl('BTC-USDT', [sell, f], 6);
    assert.equal(p.realized, '0.021447'); // 0.0214468240 at 6 digits
    assert.equal(pnlSummary(p, 2), 'P&L 0.021447 USDT · position 0 BTC · 2 fills');
    assert.match(fillRow(sell, p.perFill[sell.id]).description, / · P&L 0\.021447$/);
    // Funds to the quote increment (6 digits for BTC-USDT), rounded down; the exact figure beside it.
    const odd = { ...f, funds: '0.677176123' };
    assert.ok(fillRow(odd, undefined, 6).tooltip.includes('price 67717.6 · size 0.00001 · funds 0.677176 USDT (exactly 0.677176123)'), fillRow(odd, undefined, 6).tooltip.join('\n'));
    assert.ok(fillRow(f, undefined, 6).tooltip.includes(`price 67717.6 · size 0.00001 · funds ${f.funds} USDT`));
    const rows = readCsv(fillsCsv(new Map([['BTC-USDT', [sell, f]]]), () => 6));
    assert.deepEqual(rows[0].slice(-2), ['realizedPnl', 'pnlCurrency']);
    assert.deepEqual(rows.slice(1).map((x) => [x[1], x[4], x[14], x[15]]), [
      [f.id, 'buy', '0', 'USDT'],
      [sell.id, 'sell', '0.021447', 'USDT'],
    ]);
  });

  it('deposit and withdrawal rows', () => {
    assert.deepEqual([depositRow(deposits[1]).label, depositRow(deposits[1]).description], ['+6.00000000 USDT', 'SUCCESS · trx · 2024-07-23T10:35:20.000Z']);
    assert.equal(depositRow(deposits[0]).description, 'SUCCESS · internal · 2024-10-10T10:24:35.000Z');
    const w = withdrawalRow({ ...withdrawals[1], id: 'w1', status: 'PROCESSING' });
    assert.equal(w.label, '−6.00000000 USDT');
    assert.equal(w.description, 'PROCESSING · fee 0.00000000 · trx → TSv3L1fS7******X4nLP6rqNxYz · 2024-07-23T10:35:20.000Z');
    assert.ok(w.tooltip.some((l) => /can be cancelled/.test(l)));
    assert.ok(!withdrawalRow(withdrawals[1]).tooltip.some((l) => /can be cancelled/.test(l)));
  });
});

/**
 * The request builder's Experiment (src/features/requestBuilder/controller.ts, src/api/client.ts
 * `SigningExperiment`): one order test signed wrongly on purpose — a timestamp offset, another key
 * version, the passphrase in the other encoding — gets the sandbox's real answer and SpotDesk's
 * diagnosis; the controller refuses it on a profile that is not a sandbox, and for a placement,
 * before anything is signed or sent. Against an in-process sandbox (its own request counter).
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { RequestBuilderController, experimentText } from '../../../src/features/requestBuilder/controller';
import { emptyDraft, REQUEST_BUILDER_PROTOCOL } from '../../../src/features/requestBuilder/protocol';
import type { FundsProfile } from '../../../src/api/moneyWords';
import { credsOf, startTestSandbox } from '../server/helpers';

describe('request builder Experiment (sandbox profiles only)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let client: SpotClient;
  let profile: FundsProfile;
  let sent = 0;
  let controller: RequestBuilderController;
  const draft = { ...emptyDraft('BTC-USDT', 'exp1'), side: 'buy' as const, type: 'limit' as const, price: '50000', size: '0.001' };

  before(async () => {
    sb = await startTestSandbox({ manualClock: false });
    client = new SpotClient({ baseUrl: sb.baseUrl, credentials: credsOf(sb) });
    const send = client.send.bind(client);
    client.send = (p) => {
      sent++;
      return send(p);
    };
    controller = new RequestBuilderController({
      client: async () => client,
      publicClient: async () => client,
      symbols: async () => client.getSymbols(),
      confirm: async () => true,
      confirmPlacement: async () => undefined,
      withConfirmation: (_c, f) => f(),
      profile: () => profile,
      afterPlace: () => undefined,
      log: () => undefined,
    });
  });
  beforeEach(() => {
    profile = { name: 'Sandbox (local)', sandbox: true };
  });
  after(async () => {
    client.close();
    await sb.close();
  });

  it('without an experiment the order test passes (the baseline)', async () => {
    const out = await controller.run('test', draft);
    assert.equal(out?.result.code, '200000');
    assert.equal(out?.result.experiment, undefined);
  });

  it('a timestamp 6 s ahead → 400002, diagnosed; the KC-API-TIMESTAMP sent is offset', async () => {
    const before = Date.now();
    const out = (await controller.run('test', draft, { timestampOffsetMs: 6000 }))!;
    assert.equal(out.result.code, '400002');
    assert.equal(out.result.diagnosis.title, 'Timestamp rejected (400002)');
    assert.ok(Number(out.result.prepared.timestamp) >= before + 6000, out.result.prepared.timestamp);
    assert.deepEqual(out.result.experiment, { timestampOffsetMs: 6000 });
    // A small offset stays within KuCoin's 5 s window: accepted.
    assert.equal((await controller.run('test', draft, { timestampOffsetMs: 1000 }))!.result.code, '200000');
  });

  it('the other key version, or the passphrase in the other encoding → 400004, diagnosed with the version sent', async () => {
    const own = credsOf(sb).keyVersion;
    const other = own === '1' ? '2' : '1';
    const v = (await controller.run('test', draft, { keyVersion: other }))!;
    assert.equal(v.result.code, '400004');
    assert.equal(v.result.diagnosis.title, 'Passphrase rejected (400004)');
    assert.equal(v.result.prepared.keyVersion, other);
    assert.ok(v.result.diagnosis.details.includes(`Key version sent: KC-API-KEY-VERSION ${other}.`), v.result.diagnosis.details.join('\n'));
    const p = (await controller.run('test', draft, { passphraseEncoding: own === '1' ? 'hmac' : 'plain' }))!;
    assert.equal(p.result.code, '400004');
    assert.equal(p.result.prepared.headers['KC-API-PASSPHRASE'], '<redacted>', 'the passphrase stays redacted in the view');
    // The same encoding as the key's own: accepted.
    assert.equal((await controller.run('test', draft, { passphraseEncoding: own === '1' ? 'plain' : 'hmac' }))!.result.code, '200000');
  });

  it('refused by the extension on a profile that is not a sandbox, and for a placement: nothing is signed or sent', async () => {
    const n = sent;
    profile = { name: 'KuCoin', sandbox: false };
    await assert.rejects(controller.run('test', draft, { timestampOffsetMs: 6000 }), /^Error: Experiments run on sandbox profiles only; "KuCoin" is not one, so nothing was sent\.$/);
    profile = { name: 'Dev', sandbox: false, baseUrl: 'http://127.0.0.1:8100' };
    await assert.rejects(controller.run('test', draft, { keyVersion: '1' }), /sandbox profiles only/);
    profile = { name: 'Sandbox (local)', sandbox: true };
    await assert.rejects(controller.run('place', draft, { passphraseEncoding: 'plain' }), /never a placement/);
    assert.equal(sent, n, 'no request left');
    // An empty experiment is a normal run (allowed anywhere).
    profile = { name: 'KuCoin', sandbox: false };
    assert.equal((await controller.run('test', draft, {}))!.result.code, '200000');
  });

  it('the protocol carries the experiment (bounded), and says what it changes', () => {
    const msg = { type: 'runTest', draft, experiment: { timestampOffsetMs: 6000, keyVersion: '1', passphraseEncoding: 'plain' } };
    assert.deepEqual(REQUEST_BUILDER_PROTOCOL.parseToHost(msg), msg);
    for (const bad of [{ timestampOffsetMs: 600_001 }, { timestampOffsetMs: 1.5 }, { keyVersion: '4' }, { passphraseEncoding: 'base32' }]) {
      assert.equal(REQUEST_BUILDER_PROTOCOL.parseToHost({ type: 'runTest', draft, experiment: bad }), undefined, JSON.stringify(bad));
    }
    assert.equal(experimentText({ timestampOffsetMs: -7000, keyVersion: '1', passphraseEncoding: 'plain' }), 'timestamp -7000 ms; KC-API-KEY-VERSION 1; passphrase in plain text');
  });
});

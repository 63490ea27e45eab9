/**
 * The built-in profiles of the embedded sandbox (src/host/embeddedProfiles.ts): which process arguments and
 * state dir each one gets (the paper profile in mirror mode, a replay at its speed or on a manual clock), the
 * validation of the paper settings, and that the arguments are ones the sandbox CLI accepts (parsed by its own
 * parseArgs).
 */
import { strict as assert } from 'node:assert';
import { parseArgs } from '../../../src/exchange/cli';
import {
  borrowedMode,
  DEFAULT_PAPER_SYMBOLS,
  DEFAULT_PAPER_UPSTREAM,
  embeddedLaunch,
  paperSettings,
  REPLAY_SPEEDS,
  speedLabel,
} from '../../../src/host/embeddedProfiles';
import { fundsKind, fundsLabel, fundsPhrase } from '../../../src/api/moneyWords';

/** The CLI arguments the process gets (sandboxProcess.ts adds these before the extra ones). */
const cli = (extra: string[], stateDir = 'dir'): ReturnType<typeof parseArgs> => parseArgs(['--ipc', '--host', '127.0.0.1', '--port', '0', '--state-dir', stateDir, ...extra]);

describe('embedded profiles: profile → sandbox process', () => {
  it('the sandbox profile runs the simulated market in <storage>/sandbox, with no extra arguments', () => {
    const l = embeddedLaunch({ kind: 'sandbox' });
    assert.deepEqual(l.stateDir, ['sandbox']);
    assert.deepEqual(l.extraArgs, []);
    assert.equal(l.simulated, true);
    assert.equal(borrowedMode({ kind: 'sandbox' }), undefined);
  });

  it('the paper profile mirrors the upstream for its symbols, in a state dir of its own per market', () => {
    const paper = { upstreamUrl: DEFAULT_PAPER_UPSTREAM, symbols: [...DEFAULT_PAPER_SYMBOLS] };
    const l = embeddedLaunch({ kind: 'paper', paper });
    assert.deepEqual(l.extraArgs, ['--mirror', 'https://api.kucoin.com', '--symbols', 'BTC-USDT,ETH-USDT']);
    assert.equal(l.simulated, false, 'no --market: the simulated market is not the paper market');
    assert.equal(l.stateDir.length, 1);
    assert.match(l.stateDir[0], /^paper-[0-9a-f]{12}$/);
    assert.notDeepEqual(l.stateDir, embeddedLaunch({ kind: 'sandbox' }).stateDir);
    // the same market in another order keeps its account; another upstream or symbol list gets its own
    assert.deepEqual(embeddedLaunch({ kind: 'paper', paper: { ...paper, symbols: ['ETH-USDT', 'BTC-USDT'] } }).stateDir, l.stateDir);
    assert.notDeepEqual(embeddedLaunch({ kind: 'paper', paper: { ...paper, symbols: ['BTC-USDT'] } }).stateDir, l.stateDir);
    assert.notDeepEqual(embeddedLaunch({ kind: 'paper', paper: { ...paper, upstreamUrl: 'http://127.0.0.1:9' } }).stateDir, l.stateDir);
    // the sandbox CLI takes them as they are
    const a = cli(l.extraArgs);
    assert.equal(a.mirrorUrl, 'https://api.kucoin.com');
    assert.deepEqual(a.symbols, ['BTC-USDT', 'ETH-USDT']);
    assert.equal(a.stateDir, 'dir', 'the extension names the state dir itself');
    assert.deepEqual(borrowedMode({ kind: 'paper', paper }), { kind: 'paper' });
  });

  it('a replay runs --replay FILE at its speed (or on a manual clock) in its own fresh dir under replays/', () => {
    for (const speed of REPLAY_SPEEDS) {
      const replay = { file: 'rec.sdrec', speed, id: 'r1' };
      const l = embeddedLaunch({ kind: 'replay', replay });
      assert.deepEqual(l.stateDir, ['replays', 'r1']);
      const a = cli(l.extraArgs);
      assert.equal(a.replay, 'rec.sdrec');
      if (speed === 'manual') {
        assert.equal(a.manualClock, true);
        assert.equal(a.speed, undefined);
      } else {
        assert.equal(a.speed, speed);
        assert.equal(a.manualClock, false);
      }
      assert.deepEqual(borrowedMode({ kind: 'replay', replay }), { kind: 'replay', speed });
    }
    assert.notDeepEqual(embeddedLaunch({ kind: 'replay', replay: { file: 'rec.sdrec', speed: 1, id: 'r2' } }).stateDir, ['replays', 'r1']);
    assert.deepEqual(REPLAY_SPEEDS.map(speedLabel), ['1× (real time)', '10×', '60×', 'Manual clock']);
  });

  it('paper settings: defaults, normalisation, and a bad value falls back to its default with a problem', () => {
    assert.deepEqual(paperSettings({}), { upstreamUrl: DEFAULT_PAPER_UPSTREAM, symbols: ['BTC-USDT', 'ETH-USDT'], problems: [] });
    assert.deepEqual(paperSettings({ upstreamUrl: 'http://127.0.0.1:8100/', symbols: [' sol-usdt', 'BTC-USDT', 'SOL-USDT'] }), {
      upstreamUrl: 'http://127.0.0.1:8100',
      symbols: ['SOL-USDT', 'BTC-USDT'],
      problems: [],
    });
    const badUrl = paperSettings({ upstreamUrl: 'ftp://x', symbols: ['BTC-USDT'] });
    assert.equal(badUrl.upstreamUrl, DEFAULT_PAPER_UPSTREAM);
    assert.match(badUrl.problems.join(), /spotdesk\.paper\.upstreamUrl must be an http\(s\) URL/);
    for (const symbols of [[], ['BTCUSDT'], 'BTC-USDT', [1]]) {
      const s = paperSettings({ symbols });
      assert.deepEqual(s.symbols, ['BTC-USDT', 'ETH-USDT'], JSON.stringify(symbols));
      assert.match(s.problems.join(), /spotdesk\.paper\.symbols/);
    }
  });

  it('paper and replay trade play money, and say which', () => {
    const paper = { name: 'Paper (KuCoin prices)', sandbox: true, mode: { kind: 'paper' as const } };
    const replay = { name: 'Replay (recorded market)', sandbox: true, mode: { kind: 'replay' as const } };
    assert.equal(fundsKind(paper), 'sandbox');
    assert.equal(fundsKind(replay), 'sandbox');
    assert.equal(fundsLabel(paper), 'Paper · play money');
    assert.equal(fundsLabel(replay), 'Replay · play money');
    assert.equal(fundsLabel({ name: 'Sandbox (local)', sandbox: true }), 'Sandbox · play money');
    assert.match(fundsPhrase(paper), /play money .*not real/);
    assert.doesNotMatch(fundsPhrase(paper), /REAL/);
  });
});

import { describe, expect, it } from 'vitest'
import { networkOptionsOf, parseScenario, ScenarioValidationError, type ScenarioIssue } from '../../src/scenario/index.js'

function issuesOf(text: string, file = 'scenarios/inline.yaml'): ScenarioIssue[] {
  try {
    parseScenario(text, file)
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioValidationError)
    return (error as ScenarioValidationError).issues
  }
  throw new Error('the scenario validated')
}

describe('parseScenario', () => {
  it('positions an issue at the value, with the path and what was expected', () => {
    const issues = issuesOf(['accounts:', '  named: { alice: 1 }', 'steps:', '  - send:', '      from: acct:alice', '      to: acct:alice', '      value: abc', ''].join('\n'))
    expect(issues).toEqual([
      { file: 'scenarios/inline.yaml', line: 7, column: 14, path: 'steps[0].send.value', message: 'expected a decimal amount like "1.5 ether" or an integer in wei, got "abc"' },
    ])
  })

  it('reports every issue at once, in document order', () => {
    const text = ['network: { nodes: 0, colour: red }', 'clock: { mode: fast }', 'steps:', '  - advance: soon', '  - send: { from: acct:nobody, to: acct:0, value: 1 }', '  - bogus: 1', ''].join('\n')
    expect(issuesOf(text).map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '1:19 network.nodes: expected an integer from 1 to 100, got 0',
      '1:22 network.colour: unknown key "colour" (expected preset, seed, nodes, mining)',
      '2:16 clock.mode: expected one of manual, realtime, got "fast"',
      '4:14 steps[0].advance: expected a duration like "30s", "5m", "2h", "14d" or a number of seconds, got "soon"',
      '5:19 steps[1].send.from: unknown account acct:nobody (named accounts: none; or acct:<index below 20>)',
      '6:5 steps[2].bogus: unknown key "bogus" (expected a step: send, deploy, call, mint, transfer, addValidator, addDelegator, registerL1Validator, setL1ValidatorWeight, increaseL1ValidatorBalance, disableL1Validator, sendAvax, atomic, advance, activate, inject, lift, relay, relayer, deliver, convertSubnetToL1, toPChain, fromPChain, snapshot, revert, assert; or name, at)',
    ])
  })

  it('checks references: to earlier definitions only, nodes within the network, known chains', () => {
    const text = [
      'network: { nodes: 2 }',
      'steps:',
      '  - call: { contract: contract:token, method: "f()" }',
      '  - deploy: { contract: token, artifact: artifacts/ERC20.json, args: [T, T, 1] }',
      '  - inject: { fault: disconnectNode, node: node:2 }',
      '  - send: { from: acct:0, to: acct:1, value: 1, chain: chain:nowhere }',
      '  - revert: later',
      '  - snapshot: later',
      '',
    ].join('\n')
    expect(issuesOf(text).map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual([
      '3:23 unknown contract contract:token (no earlier deploy step names it)',
      '5:44 node:2 does not exist (the network has 2 nodes)',
      '6:56 unknown chain chain:nowhere (chains: C)',
      '7:13 unknown snapshot "later" (no earlier snapshot step takes it)',
    ])
  })

  it('checks methods and constructor arguments against the artifact ABI', () => {
    const text = [
      'steps:',
      '  - deploy: { contract: token, artifact: artifacts/ERC20.json, args: [T] }',
      '  - call: { contract: contract:token, method: transfur, args: [acct:1, 5] }',
      '  - call: { contract: contract:token, method: transfer, args: [acct:1] }',
      '  - call: { contract: contract:token, method: "transfer(address,uint256)", args: [acct:1] }',
      '',
    ].join('\n')
    expect(issuesOf(text).map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '2:13 steps[0].deploy.args: the constructor takes 3 arguments, got 1',
      '3:47 steps[1].call.method: the contract\'s ABI has no function "transfur"',
      '4:47 steps[2].call.method: function transfer takes 2 arguments, got 1',
      '5:47 steps[3].call.method: transfer(address,uint256) takes 2 arguments, got 1',
    ])
  })

  it('takes an empty file as a scenario with every default, and refuses a document that is not a mapping', () => {
    expect(parseScenario('', 'scenarios/empty.yaml')).toMatchObject({ file: 'scenarios/empty.yaml', artifacts: new Map() })
    expect(networkOptionsOf(parseScenario('# nothing\n', 'scenarios/empty.yaml'))).toEqual({ clock: { mode: 'manual', start: 1767225600 } })
    expect(issuesOf('- 1\n- 2\n').map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual(['1:1 expected a mapping with keys among name, description, network, clock, node, accounts, primary, l1s, subnets, icm, dataApi, steps, got a list'])
  })

  it('reads JSON with positions too', () => {
    const text = '{\n  "network": { "nodes": "3" },\n  "steps": [{ "advance": 30 }]\n}\n'
    expect(issuesOf(text, 'scenarios/x.json')).toEqual([
      { file: 'scenarios/x.json', line: 2, column: 25, path: 'network.nodes', message: 'expected an integer from 1 to 100, got "3"' },
    ])
    const ok = parseScenario('{ "network": { "nodes": 3 }, "steps": [{ "advance": "1m" }] }', 'scenarios/x.json')
    expect(ok.steps?.[0]).toMatchObject({ kind: 'advance', body: 60 })
  })

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    expect(issuesOf('network:\n  nodes: 3\n  nodes: 4\n').map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual(['3:3 Map keys must be unique'])
    expect(issuesOf('steps: [\n').length).toBeGreaterThan(0)
  })

  it('gives the message one issue per line, in the file:line:column: path: message format', () => {
    try {
      parseScenario('network: { nodes: x }\nclock: { start: yesterday }\n', 'scenarios/m.yaml')
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).toBe(
        'scenarios/m.yaml:1:19: network.nodes: expected an integer from 1 to 100, got "x"\n' +
          'scenarios/m.yaml:2:17: clock.start: expected an ISO 8601 time like "2026-01-01T00:00:00Z" or unix seconds, got "yesterday"',
      )
    }
  })
})

describe('what the network would refuse later is refused here, positioned', () => {
  it('amounts beyond their chain\'s word, a mnemonic that is not BIP-39, a chain name taken twice, a genesis subnet-EVM refuses', () => {
    const text = [
      'accounts: { mnemonic: "test test test", balance: 115792089237316195423570985008687907853269984665640564039457584007913129639936 }',
      'l1s:',
      '  - { name: dex, chainId: 99999 }',
      '  - { name: C, chainId: 99998 }',
      'subnets:',
      '  - { name: s, chains: [{ name: dex, chainId: 5 }] }',
      'steps:',
      '  - sendAvax: { chain: chain:P, from: acct:0, to: acct:1, amount: 18446744073709551616 }',
      '',
    ].join('\n')
    expect(issuesOf(text).map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '1:23 accounts.mnemonic: expected a BIP-39 mnemonic of English words, got "test test test"',
      '1:50 accounts.balance: expected at most 2^256-1 wei (a uint256), got 115792089237316195423570985008687907853269984665640564039457584007913129639936',
      '4:13 l1s[1].name: chain name "C" is already taken by the C-chain',
      '6:33 subnets[0].chains[0].name: chain name "dex" is already taken by l1s[0]',
      '8:67 steps[0].sendAvax.amount: expected at most 18446744073709551615 nAVAX (a uint64), got 18446744073709551616',
    ])
    const upgrades = ['l1s:', '  - name: dex', '    chainId: 99999', '    upgrades: [{ name: a, at: 2m, disable: [warp] }, { name: b, at: 1m, enable: { warp: {} } }]', '']
    expect(issuesOf(upgrades.join('\n')).map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '2:5 l1s[0]: chain dex: failed to verify genesis: invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (warpConfig) at [0], disable should be false',
    ])
  })
})

describe('YAML aliases', () => {
  it('stand for what they name, checked like a written value', () => {
    const scenario = parseScenario(
      ['accounts: { named: { admin: 0 } }', 'l1s:', '  - name: dex', '    chainId: 99999', '    precompiles: { txAllowList: { admins: &admins [acct:admin] }, nativeMinter: { admins: *admins } }', 'steps:', '  - send: &pay { from: acct:admin, to: acct:1, value: 1 ether }', '  - send: *pay', ''].join('\n'),
      'scenarios/a.yaml',
    )
    expect(scenario.steps?.map((s) => s.kind)).toEqual(['send', 'send'])
    expect(scenario.steps?.[1]?.body).toMatchObject({ value: 10n ** 18n })
    expect(networkOptionsOf(scenario).l1s?.[0]?.genesis).toMatchObject({ config: { contractNativeMinterConfig: { adminAddresses: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'] } } })
    const bad = ['steps:', '  - send: &pay { from: acct:0, to: acct:1, value: lots }', '  - send: *pay', ''].join('\n')
    expect(issuesOf(bad).map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)).toEqual([
      '2:51 steps[0].send.value: expected a decimal amount like "1.5 ether" or an integer in wei, got "lots"',
      '2:51 steps[1].send.value: expected a decimal amount like "1.5 ether" or an integer in wei, got "lots"',
    ])
  })

  it('refuses, at the alias, aliases that would expand past the limit (a "billion laughs") or name a value containing them', () => {
    // Each level is ten aliases of the one before: 10^5 values here (seconds to read them all), 10^9 with nine.
    const levels = ['&l0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 5 }, (_, i) => `&l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`)]
    const bomb = ['steps:', `  - call: { contract: "0x0000000000000000000000000000000000000001", method: "f(uint256)", args: [${levels.join(', ')}] }`, ''].join('\n')
    const [issue, ...more] = issuesOf(bomb)
    expect(more).toEqual([])
    expect(issue).toMatchObject({ line: 2, path: 'steps[0].call.args[4][7]', message: 'alias *l3 takes the document\'s aliases past 100000 expanded values (nested aliases multiply); write the values out or reuse less' })
    expect(bomb.slice(bomb.indexOf('\n') + 1).slice(issue!.column - 1).startsWith('*l3')).toBe(true)
    expect(issuesOf(['steps:', '  - call: { contract: "0x0000000000000000000000000000000000000001", method: f, args: &c [1, *c] }', ''].join('\n'))).toEqual([
      { file: 'scenarios/inline.yaml', line: 2, column: 93, path: 'steps[0].call.args[1]', message: 'alias *c names a value that contains it: it has no end' },
    ])
  })
})

describe('networkOptionsOf', () => {
  it('maps the document to network options, with genesis and upgrade.json from the L1 sections', () => {
    const scenario = parseScenario(
      [
        'network: { preset: local, seed: s, nodes: 3, mining: { interval: 2 } }',
        'clock: { start: 2026-02-01T00:00:00Z }',
        'accounts: { count: 3, balance: 5 ether, named: { admin: 0 } }',
        'l1s:',
        '  - name: dex',
        '    chainId: 99999',
        '    precompiles: { txAllowList: { admins: [acct:admin] } }',
        '    upgrades: [{ name: u, at: 60s, disable: [txAllowList] }]',
        '    alloc: { acct:admin: 1 ether }',
        '    validators: [{ node: node:1 }]',
        'dataApi: { apiKeys: { k: pro }, prices: { usd: { AVAX: 20 } } }',
        '',
      ].join('\n'),
      'scenarios/o.yaml',
    )
    const options = networkOptionsOf(scenario)
    const admin = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    expect(options).toMatchObject({ preset: 'local', seed: 's', nodes: 3, accounts: 3, balance: 5n * 10n ** 18n, mining: { mode: 'interval', interval: 2 }, clock: { mode: 'manual', start: 1769904000 } })
    expect(options.l1s?.[0]).toMatchObject({
      name: 'dex',
      validators: [{ node: 1, weight: 100 }],
      genesis: { config: { chainId: 99999, txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [admin] } }, alloc: { [admin]: { balance: '0xde0b6b3a7640000' } } },
      upgrade: { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1769904060, disable: true } }] },
    })
    expect(options.dataApi).toEqual({ apiKeys: { k: 'pro' }, prices: { usd: { AVAX: 20 } } })
  })
})

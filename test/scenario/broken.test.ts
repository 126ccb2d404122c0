import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseScenario, ScenarioValidationError } from '../../src/scenario/index.js'

/** Each example has a broken copy per kind of mistake; each must fail with exactly these issues (all of them, in order). */
const EXPECTED: Record<string, string[]> = {
  "cross-chain.bad-reference.yaml": [
    "test/scenario/broken/cross-chain.bad-reference.yaml:22:23: steps[3].relay.message: unknown step step:helo (no earlier step has this name)",
    "test/scenario/broken/cross-chain.bad-reference.yaml:32:55: steps[13].atomic.to: unknown chain chain:gamma (chains: C, alpha, beta)",
  ],
  "cross-chain.bad-type.yaml": [
    "test/scenario/broken/cross-chain.bad-type.yaml:15:14: l1s[1].chainId: expected an integer of at least 1, got 0",
    "test/scenario/broken/cross-chain.bad-type.yaml:22:119: steps[3].relay.signers: expected a list, got \"node:0\"",
  ],
  "cross-chain.missing-artifact.yaml": [
    "test/scenario/broken/cross-chain.missing-artifact.yaml:27:42: steps[8].deploy.artifact: artifact file \"../../../scenarios/artifacts/Teleporter.json\" does not exist (paths are relative to the scenario's folder)",
  ],
  "cross-chain.unknown-key.yaml": [
    "test/scenario/broken/cross-chain.unknown-key.yaml:12:28: l1s[0].precompiles.warp.quorum: unknown key \"quorum\" (expected admins, managers, enabled, initialMint, quorumNumerator)",
    "test/scenario/broken/cross-chain.unknown-key.yaml:33:13: steps[14].atomic: missing required key \"account\"",
    "test/scenario/broken/cross-chain.unknown-key.yaml:33:15: steps[14].atomic.acount: unknown key \"acount\" (expected account, from, to, amount)",
  ],
  "default.bad-reference.yaml": [
    "test/scenario/broken/default.bad-reference.yaml:19:35: steps[0].send.to: unknown account acct:dave (named accounts: admin, alice, bob, carol; or acct:<index below 20>)",
    "test/scenario/broken/default.bad-reference.yaml:24:33: steps[5].assert.call.contract: unknown contract contract:tokn (no earlier deploy step names it)",
  ],
  "default.bad-type.yaml": [
    "test/scenario/broken/default.bad-type.yaml:4:47: network.nodes: expected an integer from 1 to 100, got \"five\"",
    "test/scenario/broken/default.bad-type.yaml:19:54: steps[0].send.value: expected a decimal amount like \"1.5 ether\" or an integer in wei, got \"abc\"",
  ],
  "default.missing-artifact.yaml": [
    "test/scenario/broken/default.missing-artifact.yaml:23:42: steps[4].deploy.artifact: artifact file \"../../../scenarios/artifacts/Missing.json\" does not exist (paths are relative to the scenario's folder)",
  ],
  "default.unknown-key.yaml": [
    "test/scenario/broken/default.unknown-key.yaml:8:3: accounts.colour: unknown key \"colour\" (expected mnemonic, count, balance, named)",
    "test/scenario/broken/default.unknown-key.yaml:20:11: steps[0].send: missing required key \"from\"",
    "test/scenario/broken/default.unknown-key.yaml:20:13: steps[0].send.form: unknown key \"form\" (expected from, to, value, chain)",
  ],
  "precompiles-and-upgrades.bad-reference.yaml": [
    "test/scenario/broken/precompiles-and-upgrades.bad-reference.yaml:27:44: steps[7].activate.upgrade: chain lab has no upgrade \"minter-of\" (upgrades: fees-on, minter-off)",
    "test/scenario/broken/precompiles-and-upgrades.bad-reference.yaml:29:13: steps[9].revert: unknown snapshot \"before-fee\" (no earlier snapshot step takes it)",
  ],
  "precompiles-and-upgrades.bad-type.yaml": [
    "test/scenario/broken/precompiles-and-upgrades.bad-type.yaml:11:14: l1s[0].chainId: expected an integer of at least 1, got \"77777\"",
    "test/scenario/broken/precompiles-and-upgrades.bad-type.yaml:16:30: l1s[0].upgrades[0].at: expected a duration like \"30s\", \"5m\", \"2h\", \"14d\" or a number of seconds, got \"soon\"",
  ],
  "precompiles-and-upgrades.missing-artifact.yaml": [
    "test/scenario/broken/precompiles-and-upgrades.missing-artifact.yaml:24:42: steps[4].deploy.artifact: artifact file \"../../../scenarios/artifacts/Probe.json\" does not exist (paths are relative to the scenario's folder)",
  ],
  "precompiles-and-upgrades.unknown-key.yaml": [
    "test/scenario/broken/precompiles-and-upgrades.unknown-key.yaml:14:23: l1s[0].precompiles.nativeMinter.admin: unknown key \"admin\" (expected admins, managers, enabled, initialMint, quorumNumerator)",
    "test/scenario/broken/precompiles-and-upgrades.unknown-key.yaml:25:53: steps[5].activate.when: unknown key \"when\" (expected chain, upgrade)",
  ],
  "token-activity.bad-reference.yaml": [
    "test/scenario/broken/token-activity.bad-reference.yaml:15:70: steps[3].assert.event.in: unknown step step:pay-carol (no earlier step has this name)",
    "test/scenario/broken/token-activity.bad-reference.yaml:19:60: steps[7].transfer.to: unknown account acct:erin (named accounts: alice, bob, carol; or acct:<index below 4>)",
  ],
  "token-activity.bad-type.yaml": [
    "test/scenario/broken/token-activity.bad-type.yaml:9:50: dataApi.apiKeys.ci-key.perMinute: expected an integer of at least 1, got \"lots\"",
    "test/scenario/broken/token-activity.bad-type.yaml:19:92: steps[7].transfer.amount: expected a decimal amount like \"1.5 ether\" or an integer in wei, got a list",
  ],
  "token-activity.missing-artifact.yaml": [
    "test/scenario/broken/token-activity.missing-artifact.yaml:17:40: steps[5].deploy.artifact: artifact file \"../../../scenarios/artifacts/NFT.json\" does not exist (paths are relative to the scenario's folder)",
  ],
  "token-activity.unknown-key.yaml": [
    "test/scenario/broken/token-activity.unknown-key.yaml:9:3: dataApi.keys: unknown key \"keys\" (expected apiKeys, prices, rateLimits)",
    "test/scenario/broken/token-activity.unknown-key.yaml:21:15: steps[8].assert.cal: unknown assertion \"cal\" (expected one of balance, storage, event, health, call, l1Validator)",
  ],
  "validator-lifecycle.bad-reference.yaml": [
    "test/scenario/broken/validator-lifecycle.bad-reference.yaml:27:67: steps[2].registerL1Validator.node: node:9 does not exist (the network has 3 nodes)",
    "test/scenario/broken/validator-lifecycle.bad-reference.yaml:35:39: steps[10].disableL1Validator.validation: unknown validation validation:v3 (no conversion validator or earlier registerL1Validator or toPChain step names it)",
  ],
  "validator-lifecycle.bad-type.yaml": [
    "test/scenario/broken/validator-lifecycle.bad-type.yaml:10:32: primary.validators[0].stake: expected a decimal amount like \"25 avax\" or an integer in nAVAX, got \"2000 eth\"",
    "test/scenario/broken/validator-lifecycle.bad-type.yaml:27:83: steps[2].registerL1Validator.weight: expected an integer of at least 1, got -5",
  ],
  "validator-lifecycle.missing-artifact.yaml": [
    "test/scenario/broken/validator-lifecycle.missing-artifact.yaml:30:44: steps[5].deploy.artifact: artifact file \"../../../scenarios/artifacts/ValidatorManager.json\" does not exist (paths are relative to the scenario's folder)",
  ],
  "validator-lifecycle.unknown-key.yaml": [
    "test/scenario/broken/validator-lifecycle.unknown-key.yaml:23:11: subnets[0].convert.validators[1]: missing required key \"weight\"",
    "test/scenario/broken/validator-lifecycle.unknown-key.yaml:23:37: subnets[0].convert.validators[1].wieght: unknown key \"wieght\" (expected name, node, weight, balance)",
    "test/scenario/broken/validator-lifecycle.unknown-key.yaml:31:5: steps[5].wait: unknown key \"wait\" (expected a step: send, deploy, call, mint, transfer, addValidator, addDelegator, registerL1Validator, setL1ValidatorWeight, increaseL1ValidatorBalance, disableL1Validator, sendAvax, atomic, advance, activate, inject, lift, relay, relayer, deliver, convertSubnetToL1, toPChain, fromPChain, snapshot, revert, assert; or name, at)",
  ],
}

describe('broken copies of the example scenarios', () => {
  it('cover every example with the four kinds of mistake', () => {
    const examples = ['cross-chain', 'default', 'precompiles-and-upgrades', 'token-activity', 'validator-lifecycle']
    const kinds = ['bad-reference', 'bad-type', 'missing-artifact', 'unknown-key']
    expect(Object.keys(EXPECTED).sort()).toEqual(examples.flatMap((e) => kinds.map((k) => `${e}.${k}.yaml`)))
  })

  for (const [name, issues] of Object.entries(EXPECTED)) {
    it(`${name} fails validation with its exact issues`, () => {
      const file = `test/scenario/broken/${name}`
      let caught: unknown
      try {
        parseScenario(readFileSync(file, 'utf8'), file)
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(ScenarioValidationError)
      expect((caught as ScenarioValidationError).message).toBe(issues.join('\n'))
      expect((caught as ScenarioValidationError).issues).toHaveLength(issues.length)
    })
  }
})
